import { describe, expect, it } from 'vitest';
import type { Shoot } from '@gardener-ts/api';
import { localShoot } from '../../../test/support/examples.js';
import { resourcesEqual, shootConfigMapNames, shootReferencesChanged, shootSecretNames } from './references.js';

const shoot = (change: (s: Shoot) => void = () => undefined) => {
  const s = localShoot('a', undefined);
  change(s);
  return s;
};
const everything = (s: Shoot) => {
  s.spec.dns = {
    providers: [
      { type: 'local', secretName: 'dns-legacy' },
      { type: 'local', credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'dns' } } as never,
      {
        type: 'local',
        credentialsRef: { apiVersion: 'security.gardener.cloud/v1alpha1', kind: 'WorkloadIdentity', name: 'wi' },
      } as never,
      { type: 'local' },
    ],
  };
  s.spec.kubernetes.kubeAPIServer = {
    admissionPlugins: [{ name: 'ImagePolicyWebhook', kubeconfigSecretName: 'webhook' }, { name: 'PodNodeSelector' }],
    auditConfig: { auditPolicy: { configMapRef: { name: 'audit' } } },
    structuredAuthentication: { configMapName: 'authn' },
    structuredAuthorization: { configMapName: 'authz', kubeconfigs: [{ authorizerName: 'x', secretName: 'authz-kc' }] },
  };
  s.spec.resources = [
    { name: 'r1', resourceRef: { apiVersion: 'v1', kind: 'Secret', name: 'res-secret' } },
    { name: 'r2', resourceRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'res-cm' } },
    { name: 'r3', resourceRef: { apiVersion: 'apps/v1', kind: 'Secret', name: 'not-core' } },
  ];
};

describe('shoot references', () => {
  it("lists Gardener's referenced Secrets and ConfigMaps of a Shoot", () => {
    expect(shootSecretNames(shoot(everything))).toEqual(['dns-legacy', 'dns', 'webhook', 'authz-kc', 'res-secret']);
    expect(shootConfigMapNames(shoot(everything))).toEqual(['audit', 'authn', 'authz', 'res-cm']);
    expect(shootSecretNames(shoot())).toEqual([]);
    expect(shootConfigMapNames(shoot())).toEqual([]);
  });

  it('sees changes of the fields holding references only', () => {
    const base = shoot(everything);
    expect(shootReferencesChanged(base, shoot(everything))).toBe(false);
    expect(
      shootReferencesChanged(
        base,
        shoot((s) => (everything(s), (s.spec.kubernetes.version = '1.99.0'))),
      ),
    ).toBe(false);
    expect(
      shootReferencesChanged(
        base,
        shoot((s) => (everything(s), (s.spec.dns!.providers![0]!.secretName = 'x'))),
      ),
    ).toBe(true);
    expect(
      shootReferencesChanged(
        base,
        shoot((s) => (everything(s), (s.spec.kubernetes.kubeAPIServer!.auditConfig = {}))),
      ),
    ).toBe(true);
    expect(
      shootReferencesChanged(
        base,
        shoot((s) => (everything(s), s.spec.resources!.pop())),
      ),
    ).toBe(true);
    // Reordered resources are the same references.
    expect(
      shootReferencesChanged(
        base,
        shoot((s) => (everything(s), s.spec.resources!.reverse())),
      ),
    ).toBe(false);
  });

  it('compares resource references by name and target', () => {
    const ref = (name: string, target: string) => ({
      name,
      resourceRef: { apiVersion: 'v1', kind: 'Secret', name: target },
    });
    expect(resourcesEqual(undefined, [])).toBe(true);
    expect(resourcesEqual([ref('a', 'x')], [ref('a', 'y')])).toBe(false);
    expect(resourcesEqual([ref('a', 'x'), ref('b', 'y')], [ref('b', 'y'), ref('a', 'x')])).toBe(true);
  });
});
