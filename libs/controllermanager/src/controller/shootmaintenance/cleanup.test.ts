// Tests of what the shoot maintenance removes for the Shoot's Kubernetes version: fields forbidden after a forced
// minor update, unsupported feature gates and admission plugins — and the lastMaintenance sentences for them.
import { describe, expect, it } from 'vitest';
import type { CloudProfile, Shoot } from '@gardener-ts/api';
import { example, localShoot } from '../../../test/support/examples.js';
import {
  removeFieldsForbiddenAfterUpdate,
  removeUnsupportedAdmissionPlugins,
  removeUnsupportedFeatureGatesOf,
} from './cleanup.js';
import { maintainShoot } from './maintain.js';

const NOW = new Date('2026-06-01T22:30:00Z');

function shoot(version: string, change: (s: Shoot) => void = () => undefined): Shoot {
  const s = localShoot('cleaned', 'local');
  s.spec.kubernetes.version = version;
  change(s);
  return s;
}

describe('removeUnsupportedFeatureGatesOf', () => {
  it('removes the gates the version does not know from every component, sorted, keeping the others', () => {
    const s = shoot('1.33.0', (x) => {
      x.spec.kubernetes.kubeAPIServer = { featureGates: { WatchList: true, ZGone: true, AppArmor: false } };
      x.spec.kubernetes.kubelet = { ...x.spec.kubernetes.kubelet, featureGates: { NodeSwap: true } };
    });
    expect(removeUnsupportedFeatureGatesOf(s)).toEqual([
      'Removed feature gates from "spec.kubernetes.kubeAPIServer.featureGates" because they are not supported in Kubernetes version "1.33.0": AppArmor, ZGone',
    ]);
    expect(s.spec.kubernetes.kubeAPIServer?.featureGates).toEqual({ WatchList: true });
    expect(s.spec.kubernetes.kubelet?.featureGates).toEqual({ NodeSwap: true });
  });

  it("judges a pool's kubelet by the pool's own version and drops an emptied map", () => {
    const s = shoot('1.33.0', (x) => {
      x.spec.provider.workers![0]!.kubernetes = {
        version: '1.32.0',
        kubelet: { featureGates: { LegacySidecarContainers: true } },
      };
    });
    expect(removeUnsupportedFeatureGatesOf(s)).toEqual([
      'Removed feature gates from "spec.provider.workers[0].kubernetes.kubelet.featureGates" because they are not supported in Kubernetes version "1.32.0": LegacySidecarContainers',
    ]);
    expect(s.spec.provider.workers![0]!.kubernetes?.kubelet).toEqual({});
  });
});

describe('removeUnsupportedAdmissionPlugins', () => {
  it('removes plugins the version does not support', () => {
    const s = shoot('1.31.0', (x) => {
      x.spec.kubernetes.kubeAPIServer = {
        admissionPlugins: [
          { name: 'PersistentVolumeLabel' },
          { name: 'AlwaysPullImages' },
          { name: 'PodTopologyLabels' },
        ],
      };
    });
    expect(removeUnsupportedAdmissionPlugins(s)).toEqual([
      'Removed admission plugins from "spec.kubernetes.kubeAPIServer.admissionPlugins" because they are not supported in Kubernetes version "1.31.0": PersistentVolumeLabel, PodTopologyLabels',
    ]);
    expect(s.spec.kubernetes.kubeAPIServer?.admissionPlugins).toEqual([{ name: 'AlwaysPullImages' }]);
    expect(removeUnsupportedAdmissionPlugins(s)).toEqual([]);
  });
});

describe('removeFieldsForbiddenAfterUpdate', () => {
  const withFields = (version: string) =>
    shoot(version, (x) => {
      x.spec.kubernetes.kubeControllerManager = { podEvictionTimeout: '2m' };
      x.spec.kubernetes.clusterAutoscaler = { maxEmptyBulkDelete: 10 };
      x.spec.kubernetes.kubeAPIServer = { enableAnonymousAuthentication: true, watchCacheSizes: { default: 100 } };
      x.spec.kubernetes.kubeScheduler = { kubeMaxPDVols: '20' };
      x.spec.addons = { nginxIngress: { enabled: false } };
      x.spec.dns = { providers: [{ type: 'aws-route53' }, { type: 'aws-route53', secretName: 'dns' }] };
    });

  it('removes the 1.33 fields when the update crosses 1.33 only', () => {
    const s = withFields('1.33.0');
    expect(removeFieldsForbiddenAfterUpdate(s, '1.32.0')).toEqual([
      expect.stringMatching(/^\.spec\.kubernetes\.kubeControllerManager\.podEvictionTimeout is set to nil\. Reason: /),
      expect.stringMatching(/^\.spec\.kubernetes\.clusterAutoscaler\.maxEmptyBulkDelete is set to nil\. Reason: /),
    ]);
    expect(s.spec.kubernetes.kubeControllerManager).toEqual({});
    expect(s.spec.kubernetes.kubeAPIServer?.enableAnonymousAuthentication).toBe(true);
    expect(removeFieldsForbiddenAfterUpdate(withFields('1.33.1'), '1.33.0')).toEqual([]);
  });

  it('removes the 1.35 fields when the update crosses 1.35', () => {
    const s = withFields('1.35.4');
    expect(removeFieldsForbiddenAfterUpdate(s, '1.34.3')).toEqual([
      '.spec.kubernetes.kubeAPIServer.enableAnonymousAuthentication was removed. Reason: The field is no longer supported for Shoot clusters using Kubernetes version 1.35+',
      '.spec.kubernetes.kubeScheduler.kubeMaxPDVols was removed. Reason: kubeMaxPDVols is deprecated and not respected by the kube-scheduler',
      '.spec.kubernetes.kubeAPIServer.watchCacheSizes.default was removed. Reason: the default size configuration is deprecated and not respected by the kube-apiserver',
      '.spec.addons was removed. Reason: addons are not supported anymore for Kubernetes versions 1.35+',
      '.spec.dns.providers[1].secretName was removed. Reason: The field is no longer supported for Shoot clusters using Kubernetes version 1.35+',
    ]);
    expect(s.spec.addons).toBeUndefined();
    expect(s.spec.dns?.providers?.[1]).toEqual({ type: 'aws-route53' });
    expect(s.spec.kubernetes.kubeControllerManager?.podEvictionTimeout).toBe('2m');
  });
});

describe('maintainShoot after a forced minor update', () => {
  it('lists the removals after the version updates, before the operation annotation', () => {
    const profile = example<CloudProfile>('local', 'cloudprofile.yaml');
    profile.spec.kubernetes!.versions = [
      { version: '1.33.0' },
      { version: '1.32.0', expirationDate: '2026-01-01T00:00:00Z' },
    ];
    const s = shoot('1.32.0', (x) => {
      x.spec.maintenance = { autoUpdate: { kubernetesVersion: false, machineImageVersion: false } };
      x.spec.kubernetes.kubeControllerManager = { podEvictionTimeout: '2m', featureGates: { AppArmor: true } };
      x.status = { lastOperation: { type: 'Reconcile', state: 'Succeeded' } } as Shoot['status'];
      x.metadata!.annotations = { 'maintenance.gardener.cloud/operation': 'rotate-ssh-keypair' };
    });
    const result = maintainShoot(s, profile, { now: NOW });
    expect(result.shoot.spec.kubernetes.version).toBe('1.33.0');
    expect(result.shoot.spec.kubernetes.kubeControllerManager).toEqual({});
    expect(result.lastMaintenance?.state).toBe('Succeeded');
    expect(result.lastMaintenance?.description.split(', ')).toEqual([
      'All maintenance operations successful. Control Plane: Updated Kubernetes version from "1.32.0" to "1.33.0". Reason: Kubernetes version expired - force update required',
      expect.stringMatching(/^\.spec\.kubernetes\.kubeControllerManager\.podEvictionTimeout is set to nil/),
      'Removed feature gates from "spec.kubernetes.kubeControllerManager.featureGates" because they are not supported in Kubernetes version "1.33.0": AppArmor',
      'Added "rotate-ssh-keypair;reconcile" operation annotation',
    ]);
  });
});
