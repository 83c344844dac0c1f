// The BackupBucket reconciler driven by in-memory fakes of the garden and the seed (get, merge and apply patches,
// deletes with finalizers), recording every write in order; the same controller against real API servers is in
// backupbucket.integration.test.ts.
import { describe, expect, it } from 'vitest';
import {
  applyMergePatch,
  ApiError,
  type Kind,
  type KubernetesObject,
  type ObjectKey,
  type Patch,
} from '@gardener-ts/controller-runtime';
import { BackupBucketReconciler } from './reconciler.js';

type Obj = KubernetesObject & Record<string, any>;

/** A cluster in memory: objects by `Kind/namespace/name`, and a log of the writes. */
function fakeCluster(label: string, log: string[], ...objects: Obj[]) {
  const store = new Map<string, Obj>();
  const keyOf = (kind: string, key: ObjectKey) => `${kind}/${key.namespace ?? ''}/${key.name}`;
  for (const o of objects)
    store.set(keyOf(o.kind!, { name: o.metadata!.name!, namespace: o.metadata!.namespace }), structuredClone(o));
  const notFound = (kind: string, key: ObjectKey) => new ApiError(404, 'NotFound', `${kind} ${key.name} not found`);
  const settle = (k: string, o: Obj) => {
    if (o.metadata?.deletionTimestamp && !o.metadata.finalizers?.length) store.delete(k);
    else store.set(k, o);
    return structuredClone(o);
  };
  return {
    store,
    find: (kind: string, name: string, namespace?: string) => store.get(keyOf(kind, { name, namespace })),
    async get<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey): Promise<T> {
      const o = store.get(keyOf(kind.kind, key));
      if (!o) throw notFound(kind.kind, key);
      return structuredClone(o) as T;
    },
    async patch<T extends KubernetesObject>(
      kind: Kind<T>,
      key: ObjectKey,
      patch: Patch,
      opts?: { subresource?: string },
    ): Promise<T> {
      const k = keyOf(kind.kind, key);
      const current = store.get(k);
      const body = structuredClone(patch.patch) as Obj;
      if (patch.type === 'apply') {
        log.push(`${label}: apply ${kind.kind} ${key.name}`);
        const metadata = { ...current?.metadata, ...body.metadata };
        return settle(k, { ...current, ...body, metadata, status: current?.status }) as T;
      }
      if (!current) throw notFound(kind.kind, key);
      delete body.metadata?.resourceVersion;
      const what = opts?.subresource === 'status' ? `status ${Object.keys(body.status).join(',')}` : 'patch';
      log.push(`${label}: ${what} ${kind.kind} ${key.name}`);
      const next =
        opts?.subresource === 'status'
          ? (applyMergePatch(current, { status: body.status }) as Obj)
          : ({ ...(applyMergePatch(current, { ...body, status: undefined }) as Obj), status: current.status } as Obj);
      return settle(k, next) as T;
    },
    async delete(kind: Kind, key: ObjectKey): Promise<void> {
      const k = keyOf(kind.kind, key);
      const current = store.get(k);
      if (!current) throw notFound(kind.kind, key);
      log.push(`${label}: delete ${kind.kind} ${key.name}`);
      settle(k, { ...current, metadata: { ...current.metadata, deletionTimestamp: '2026-11-29T12:00:00Z' } });
    },
  };
}

const bucket = (credentialsRef: Record<string, string>, more: Record<string, unknown> = {}): Obj => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'BackupBucket',
  metadata: { name: 'b', uid: 'uid-b', generation: 1, ...more },
  spec: { provider: { type: 'local', region: 'local' }, credentialsRef, seedName: 'local' },
});
const secretRef = { apiVersion: 'v1', kind: 'Secret', name: 'creds', namespace: 'garden' };
const credentials: Obj = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'creds', namespace: 'garden' },
  data: { key: 'dmFsdWU=' },
};
const clock = { now: () => new Date('2026-11-29T12:00:00Z') };

describe('BackupBucketReconciler', () => {
  it('finalizes the bucket and its credentials, copies them to the seed and asks the extension', async () => {
    const log: string[] = [];
    const garden = fakeCluster('garden', log, bucket(secretRef), credentials);
    const seed = fakeCluster('seed', log);
    const r = new BackupBucketReconciler({ garden, seed, seedName: 'local', clock });
    expect(await r.reconcile({ namespace: '', name: 'b' })).toBeUndefined();
    expect(log).toEqual([
      'garden: patch BackupBucket b',
      'garden: status lastOperation,observedGeneration BackupBucket b',
      'garden: patch Secret creds',
      'seed: apply Secret bucket-b',
      'seed: apply BackupBucket b',
    ]);
    expect(garden.find('BackupBucket', 'b')!.metadata!.finalizers).toEqual(['gardener']);
    expect(garden.find('Secret', 'creds', 'garden')!.metadata!.finalizers).toEqual(['gardener.cloud/gardener']);
    expect(seed.find('Secret', 'bucket-b', 'garden')!.data).toEqual({ key: 'dmFsdWU=' });
    expect(seed.find('BackupBucket', 'b')!.metadata!.annotations).toEqual({
      'gardener.cloud/operation': 'reconcile',
      'gardener.cloud/timestamp': '2026-11-29T12:00:00.000Z',
    });

    // Reconciled again before the extension acted: no new request, the missing last operation is reported.
    log.length = 0;
    await r.reconcile({ namespace: '', name: 'b' });
    expect(log).toEqual([
      'garden: status lastOperation,observedGeneration BackupBucket b',
      'garden: status lastOperation,lastError BackupBucket b',
    ]);
    expect(garden.find('BackupBucket', 'b')!.status.lastError.description).toBe(
      'extension BackupBucket b: extension did not record a last operation yet',
    );
  });

  it('reports credentials that are not a Secret on the bucket and retries', async () => {
    const log: string[] = [];
    const workloadIdentity = {
      apiVersion: 'security.gardener.cloud/v1alpha1',
      kind: 'WorkloadIdentity',
      name: 'wi',
      namespace: 'garden',
    };
    const garden = fakeCluster('garden', log, bucket(workloadIdentity));
    const seed = fakeCluster('seed', log);
    const r = new BackupBucketReconciler({ garden, seed, seedName: 'local', clock });
    await expect(r.reconcile({ namespace: '', name: 'b' })).rejects.toThrow(/only Secrets \(v1\) are supported/);
    expect(garden.find('BackupBucket', 'b')!.status).toMatchObject({
      lastOperation: { type: 'Create', state: 'Error' },
      lastError: {
        description:
          'BackupBucket b: spec.credentialsRef refers to security.gardener.cloud/v1alpha1/WorkloadIdentity garden/wi: only Secrets (v1) are supported',
      },
    });
    expect(seed.store.size).toBe(0);
  });

  it('keeps every finalizer while the extension fails to delete, and reports its error for a retry', async () => {
    const log: string[] = [];
    const deleting = bucket(secretRef, {
      deletionTimestamp: '2026-11-29T11:00:00Z',
      finalizers: ['gardener'],
    });
    const garden = fakeCluster('garden', log, deleting, {
      ...credentials,
      metadata: { ...credentials.metadata, finalizers: ['gardener.cloud/gardener'] },
    });
    const extension: Obj = {
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'BackupBucket',
      metadata: { name: 'b', finalizers: ['extensions.gardener.cloud/local'] },
      spec: {},
      status: { lastError: { description: 'bucket not empty', codes: ['ERR_INFRA_DEPENDENCIES'] } },
    };
    const seed = fakeCluster('seed', log, extension);
    const r = new BackupBucketReconciler({ garden, seed, seedName: 'local', clock });
    await expect(r.reconcile({ namespace: '', name: 'b' })).rejects.toThrow(
      'extension BackupBucket b: bucket not empty',
    );
    expect(log).toEqual([
      'garden: status lastOperation,observedGeneration BackupBucket b',
      'seed: apply Secret bucket-b',
      'seed: patch BackupBucket b',
      'seed: delete BackupBucket b',
      'garden: status lastOperation,lastError BackupBucket b',
    ]);
    expect(seed.find('BackupBucket', 'b')!.metadata!.annotations).toEqual({
      'confirmation.gardener.cloud/deletion': 'true',
    });
    expect(garden.find('BackupBucket', 'b')!.status).toMatchObject({
      lastOperation: { type: 'Delete', state: 'Error', description: 'bucket not empty Operation will be retried.' },
      lastError: { description: 'bucket not empty', codes: ['ERR_INFRA_DEPENDENCIES'] },
    });
    expect(garden.find('BackupBucket', 'b')!.metadata!.finalizers).toEqual(['gardener']);

    // Once the extension released it: the seed Secret, then the credentials' finalizer, then the bucket's.
    seed.store.delete('BackupBucket//b');
    log.length = 0;
    expect(await r.reconcile({ namespace: '', name: 'b' })).toBeUndefined();
    expect(log).toEqual([
      'garden: status lastOperation,observedGeneration BackupBucket b',
      'seed: apply Secret bucket-b',
      'seed: delete Secret bucket-b',
      'garden: status lastError,lastOperation,observedGeneration BackupBucket b',
      'garden: patch Secret creds',
      'garden: patch BackupBucket b',
    ]);
    expect(garden.find('BackupBucket', 'b')).toBeUndefined();
    expect(garden.find('Secret', 'creds', 'garden')!.metadata!.finalizers).toEqual([]);
  });
});
