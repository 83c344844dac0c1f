import { describe, expect, it } from 'vitest';
import type {
  ControllerRegistration,
  CredentialsBinding,
  NamespacedCloudProfile,
  SecretBinding,
  Shoot,
} from '@gardener-ts/api';
import type { Client, KubernetesObject } from '@gardener-ts/controller-runtime';
import { localShoot, registration } from '../../../test/support/examples.js';
import { silentContext } from '../../../test/support/csr.js';
import { ProtectionReconciler } from './reconciler.js';
import {
  cloudProfileUsers,
  controllerDeploymentUsers,
  exposureClassUsers,
  namespacedCloudProfileUsers,
  quotaUsers,
} from './users.js';

const shoot = (name: string, change: (s: Shoot) => void = () => undefined) => {
  const s = localShoot(name, undefined);
  change(s);
  return s;
};

describe('users', () => {
  it("finds the shoots and namespaced profiles of a CloudProfile (Gardener's example Shoot names `local`)", () => {
    const namespaced = {
      metadata: { namespace: 'garden-local', name: 'custom' },
      spec: { parent: { kind: 'CloudProfile', name: 'local' } },
    } as NamespacedCloudProfile;
    const viaNamespaced = shoot('b', (s) => (s.spec.cloudProfile = { kind: 'NamespacedCloudProfile', name: 'custom' }));
    const legacy = shoot('c', (s) => {
      delete s.spec.cloudProfile;
      s.spec.cloudProfileName = 'local';
    });
    expect(cloudProfileUsers('local', [shoot('a'), viaNamespaced, legacy], [namespaced])).toEqual([
      'garden-local/a',
      'garden-local/c',
      'garden-local/custom',
    ]);
    expect(cloudProfileUsers('other', [shoot('a')], [namespaced])).toEqual([]);
    expect(namespacedCloudProfileUsers('garden-local', 'custom', [shoot('a'), viaNamespaced])).toEqual([
      'garden-local/b',
    ]);
    expect(namespacedCloudProfileUsers('garden-other', 'custom', [viaNamespaced])).toEqual([]);
  });

  it('finds the users of ExposureClasses, Quotas and ControllerDeployments', () => {
    expect(
      exposureClassUsers('internet', [shoot('a', (s) => (s.spec.exposureClassName = 'internet')), shoot('b')]),
    ).toEqual(['garden-local/a']);
    const quotas = [
      { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Quota', name: 'trial', namespace: 'garden-trial' },
    ];
    const sb = { metadata: { namespace: 'garden-local', name: 'sb' }, quotas } as SecretBinding;
    const cb = { metadata: { namespace: 'garden-local', name: 'cb' }, quotas } as CredentialsBinding;
    expect(quotaUsers('garden-trial', 'trial', [sb], [cb])).toEqual(['garden-local/cb', 'garden-local/sb']);
    expect(quotaUsers('garden-local', 'trial', [sb], [cb])).toEqual([]);
    const r = registration('provider-local', [], { policy: 'Always', deploymentRefs: [{ name: 'provider-local' }] });
    expect(
      controllerDeploymentUsers('provider-local', [r, registration('other', [])] as ControllerRegistration[]),
    ).toEqual(['provider-local']);
  });
});

describe('ProtectionReconciler', () => {
  type Obj = KubernetesObject & {
    metadata: { name: string; finalizers?: string[]; deletionTimestamp?: string; resourceVersion?: string };
  };
  const make = (obj: Obj, users: string[]) => {
    const patches: unknown[] = [];
    const client = {
      get: () => Promise.resolve(structuredClone(obj)),
      patch: (_k: unknown, _key: unknown, patch: unknown) => {
        patches.push(patch);
        return Promise.resolve(structuredClone(obj));
      },
    } as unknown as Client;
    const events: string[] = [];
    const reconciler = new ProtectionReconciler(
      client,
      {
        kind: { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'ExposureClass' } as never,
        finalizer: 'gardener',
        users: () => Promise.resolve(users),
        refusal: (_o, u) => `still used by [${u.join(' ')}]`,
      },
      { event: (_o, _t, reason, message) => void events.push(`${reason}: ${message}`) },
    );
    return { patches, events, run: () => reconciler.reconcile({ namespace: '', name: 'x' }, silentContext()) };
  };
  const base = {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'ExposureClass',
    metadata: { name: 'x', resourceVersion: '1' },
  };

  it('adds the finalizer to a live object', async () => {
    const r = make(base, []);
    await r.run();
    expect(r.patches).toHaveLength(1);
    expect(JSON.stringify(r.patches[0])).toContain('"finalizers":["gardener"]');
  });

  it('keeps the finalizer of a deleted object while it is used, with an event, and removes it afterwards', async () => {
    const deleted = {
      ...base,
      metadata: { ...base.metadata, finalizers: ['gardener'], deletionTimestamp: '2026-01-01T00:00:00Z' },
    };
    const used = make(deleted, ['garden-local/a']);
    await expect(used.run()).rejects.toThrow('still used by [garden-local/a]');
    expect(used.patches).toEqual([]);
    expect(used.events).toEqual(['ResourceReferenced: still used by [garden-local/a]']);
    const free = make(deleted, []);
    await free.run();
    expect(JSON.stringify(free.patches[0])).toContain('"finalizers":[]');
  });
});
