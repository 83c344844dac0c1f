import { describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import type { Kind, KubernetesObject, ListOptions } from '@gardener-ts/controller-runtime';
import { FakeTarget } from '../managedresource/fake-target.js';
import { collectGarbage, GarbageCollectorReconciler, type GarbageCollectorOptions } from './reconciler.js';

const log = createLogger({ name: 'test', level: 'silent' });
const now = () => new Date('2026-11-25T12:00:00Z');
const gcLabel = { 'resources.gardener.cloud/garbage-collectable-reference': 'true' };
const old = '2026-11-25T11:00:00Z';

// The resource-manager document's example: a Deployment referencing an immutable Secret and ConfigMap by annotation.
function cluster() {
  return new FakeTarget(
    [
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'secret-v1-abcd1234', namespace: 'default', labels: gcLabel, creationTimestamp: old },
      },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'secret-v0-deadbeef', namespace: 'default', labels: gcLabel, creationTimestamp: old },
      },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'cm-v1-12345678', namespace: 'default', labels: gcLabel, creationTimestamp: old },
      },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'cm-young',
          namespace: 'default',
          labels: gcLabel,
          creationTimestamp: '2026-11-25T11:59:00Z',
        },
      },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'unlabelled', namespace: 'default', creationTimestamp: old },
      },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: {
          name: 'web',
          namespace: 'default',
          annotations: {
            'reference.resources.gardener.cloud/secret-3c5a6b25': 'secret-v1-abcd1234',
            'reference.resources.gardener.cloud/configmap-9e7f1c2d': 'cm-v1-12345678',
          },
        },
      },
    ],
    {
      'v1/Secret': true,
      'v1/ConfigMap': true,
      'apps/v1/Deployment': true,
    },
  );
}

function client(target: FakeTarget): GarbageCollectorOptions['client'] {
  const api = target.cluster.api;
  return {
    listAll: async <T extends KubernetesObject>(k: Kind<T>, opts?: ListOptions) => (await api.list(k, opts)).items,
    delete: api.delete,
  };
}

describe('garbage collector', () => {
  it('deletes unreferenced, labelled ConfigMaps and Secrets older than the minimum lifetime', async () => {
    const target = cluster();
    const result = await collectGarbage({ client: client(target), minimumObjectLifetimeMs: 10 * 60_000, log, now });
    expect(result.errors).toEqual([]);
    expect(result.deleted.map((d) => `${d.kind}/${d.name}`)).toEqual(['secret/secret-v0-deadbeef']);
    expect(target.find('v1', 'ConfigMap', 'default', 'cm-young')).toBeDefined();
    expect(target.find('v1', 'ConfigMap', 'default', 'unlabelled')).toBeDefined();
    expect(target.find('v1', 'Secret', 'default', 'secret-v1-abcd1234')).toBeDefined();
  });

  it('runs one collection per reconcile and comes back after the sync period', async () => {
    const target = cluster();
    const reconciler = new GarbageCollectorReconciler({
      client: client(target),
      minimumObjectLifetimeMs: 10 * 60_000,
      syncPeriodMs: 3_600_000,
      log,
      now,
    });
    expect(await reconciler.reconcile()).toEqual({ requeueAfter: 3_600_000 });
    expect(target.find('v1', 'Secret', 'default', 'secret-v0-deadbeef')).toBeUndefined();
  });
});
