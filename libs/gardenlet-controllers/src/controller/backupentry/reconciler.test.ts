// The BackupEntry reconciler over in-memory fakes of the garden and the seed (merge, apply and status patches,
// deletion with finalizers) and a fixed clock: the bucket gate, the seed Secret and extension entry, the mirrored
// success with the request removed, the grace period's Pending and the deletion in Gardener's order; control plane
// migration: the source seed's migration of the extension entry and the destination's restore with the ShootState.
import { describe, expect, it } from 'vitest';
import type { ReconcileContext } from '@gardener-ts/controller-runtime';
import { FakeCluster, type FakeObject } from '../../../test/support/fake-cluster.js';
import {
  RequeueWhileBucketNotReady,
  RequeueWhileDeleting,
  BackupEntryReconciler,
  shouldMigrate,
} from './reconciler.js';

const NAME = 'shoot--p--s--uid';
const now = new Date('2026-11-29T12:00:00.250Z');
const ctx = { log: { info: () => undefined } } as unknown as ReconcileContext;
const req = { namespace: 'garden-p', name: NAME };

function setup(
  options: {
    bucketState?: string;
    entry?: Partial<FakeObject['metadata']>;
    spec?: Record<string, unknown>;
    status?: Record<string, unknown>;
    seedName?: string;
  } = {},
) {
  const garden = new FakeCluster();
  const seed = new FakeCluster();
  garden.put({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'BackupEntry',
    metadata: { name: NAME, namespace: 'garden-p', generation: 1, ...options.entry },
    spec: { bucketName: 'bucket', seedName: 'local', ...options.spec },
    ...(options.status ? { status: options.status } : {}),
  });
  garden.put({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'BackupBucket',
    metadata: { name: 'bucket', generation: 1 },
    spec: {
      provider: { type: 'local', region: 'local' },
      credentialsRef: { kind: 'Secret', name: 'creds', namespace: 'garden' },
    },
    status: {
      observedGeneration: 1,
      lastOperation: {
        type: 'Create',
        state: options.bucketState ?? 'Succeeded',
        progress: 100,
        description: '',
        lastUpdateTime: '2026-11-29T11:00:00Z',
      },
    },
  });
  garden.put({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'creds', namespace: 'garden' },
    data: { key: 'dg==' },
  });
  const reconciler = new BackupEntryReconciler({
    garden: garden as never,
    seed: seed as never,
    seedName: options.seedName ?? 'local',
    config: { deletionGracePeriodHours: 24, deletionGracePeriodShootPurposes: ['production'] },
    now: () => now,
  });
  const entry = () => garden.find('BackupEntry', NAME, 'garden-p');
  return { garden, seed, reconciler, entry };
}

describe('BackupEntryReconciler', () => {
  it('leaves entries of other seeds alone', async () => {
    const { garden, reconciler, entry } = setup();
    garden.put({ ...entry()!, spec: { bucketName: 'bucket', seedName: 'other' } });
    expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
    expect(garden.calls).toEqual([]);
  });

  it('waits for a bucket that is not reconciled, naming it in lastError', async () => {
    const { reconciler, entry, seed } = setup({ bucketState: 'Error' });
    expect(await reconciler.reconcile(req, ctx)).toEqual({ requeueAfter: RequeueWhileBucketNotReady });
    expect(entry()!.metadata.finalizers).toEqual(['gardener']);
    expect(entry()!.status).toMatchObject({
      observedGeneration: 1,
      seedName: 'local',
      lastOperation: { type: 'Create', state: 'Error', progress: 50 },
      lastError: { description: 'associated BackupBucket "bucket": state is not Succeeded but Error' },
    });
    expect(seed.objects.size).toBe(0);
  });

  it('copies the credentials and deploys the extension entry, then mirrors its success and drops the request', async () => {
    const { reconciler, entry, seed, garden } = setup({
      entry: {
        annotations: { 'gardener.cloud/operation': 'reconcile', 'gardener.cloud/timestamp': '2026-11-29T11:59:59Z' },
      },
    });
    await reconciler.reconcile(req, ctx);
    expect(seed.find('Secret', `entry-${NAME}`, 'garden')).toMatchObject({
      data: { key: 'dg==' },
      metadata: { annotations: { 'gardener.cloud/timestamp': now.toISOString() } },
    });
    const extension = seed.find('BackupEntry', NAME)!;
    expect(extension.metadata.annotations['gardener.cloud/operation']).toBe('reconcile');
    expect(entry()!.status.lastOperation.state).toBe('Processing');

    // The extension's part.
    seed.put({
      ...extension,
      metadata: { ...extension.metadata, annotations: {} },
      status: {
        lastOperation: {
          type: 'Create',
          state: 'Succeeded',
          progress: 100,
          description: '',
          lastUpdateTime: '2026-11-29T12:00:00Z',
        },
      },
    });
    garden.calls.length = 0;
    await reconciler.reconcile(req, ctx);
    expect(entry()!.status).toMatchObject({
      lastOperation: { type: 'Create', state: 'Succeeded', description: 'Reconciliation of BackupEntry succeeded.' },
    });
    expect(entry()!.metadata.annotations).toEqual({ 'gardener.cloud/timestamp': '2026-11-29T11:59:59Z' });
    // Not deployed again.
    expect(seed.calls.filter((c) => c.startsWith('apply BackupEntry'))).toHaveLength(1);
  });

  it('keeps a reconcile request written while it acted on the previous one', async () => {
    const request = (timestamp: string) => ({
      annotations: { 'gardener.cloud/operation': 'reconcile', 'gardener.cloud/timestamp': timestamp },
    });
    const { reconciler, entry, seed, garden } = setup({ entry: request('2026-11-29T11:59:59Z') });
    await reconciler.reconcile(req, ctx);
    const extension = seed.find('BackupEntry', NAME)!;
    seed.put({
      ...extension,
      metadata: { ...extension.metadata, annotations: {} },
      status: {
        lastOperation: {
          type: 'Create',
          state: 'Succeeded',
          progress: 100,
          description: '',
          lastUpdateTime: '2026-11-29T12:00:00Z',
        },
      },
    });
    let raced = false;
    garden.beforePatch = (body) => {
      if (raced || body.metadata?.annotations?.['gardener.cloud/operation'] !== null) return;
      raced = true;
      const current = entry()!;
      garden.put({ ...current, metadata: { ...current.metadata, ...request('2026-11-29T12:00:00.100Z') } });
    };
    await reconciler.reconcile(req, ctx);
    expect(raced).toBe(true);
    expect(entry()!.metadata.annotations).toEqual(request('2026-11-29T12:00:00.100Z').annotations);
  });

  it('keeps a deleted production entry for the grace period, Pending until then', async () => {
    const { reconciler, entry, seed } = setup({
      entry: {
        finalizers: ['gardener'],
        deletionTimestamp: '2026-11-29T10:00:00Z',
        annotations: { 'shoot.gardener.cloud/purpose': 'production' },
      },
    });
    const result = await reconciler.reconcile(req, ctx);
    expect(result).toEqual({ requeueAfter: Date.parse('2026-11-30T10:00:00Z') - now.getTime() });
    expect(entry()!.status.lastOperation).toMatchObject({
      type: 'Delete',
      state: 'Pending',
      description: 'Deletion of backup entry is scheduled for 2026-11-30T10:00:00.000Z',
    });
    expect(seed.calls).toEqual([]);
  });

  it('deletes a due entry: extension entry confirmed and waited for, then the Secret and the finalizer', async () => {
    const { reconciler, entry, seed } = setup({
      entry: {
        finalizers: ['gardener'],
        deletionTimestamp: '2026-11-29T10:00:00Z',
        annotations: { 'shoot.gardener.cloud/purpose': 'evaluation' },
      },
    });
    seed.put({
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'BackupEntry',
      metadata: { name: NAME, finalizers: ['extensions.gardener.cloud/local'] },
      spec: {},
    });
    expect(await reconciler.reconcile(req, ctx)).toEqual({ requeueAfter: RequeueWhileDeleting });
    const deleting = seed.find('BackupEntry', NAME)!;
    expect(deleting.metadata.annotations['confirmation.gardener.cloud/deletion']).toBe('true');
    expect(deleting.metadata.deletionTimestamp).toBeDefined();
    expect(seed.find('Secret', `entry-${NAME}`, 'garden')).toBeDefined();
    expect(entry()).toBeDefined();

    seed.objects.delete(`BackupEntry//${NAME}`); // the extension released it
    expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
    expect(seed.find('Secret', `entry-${NAME}`, 'garden')).toBeUndefined();
    expect(entry()).toBeUndefined();
  });

  describe('in a control plane migration', () => {
    const lastOperation = (type: string, state: string) => ({
      type,
      state,
      progress: state === 'Succeeded' ? 100 : 50,
      description: '',
      lastUpdateTime: '2026-11-29T12:00:00Z',
    });
    const extensionEntry = (status: Record<string, unknown>, annotations: Record<string, string> = {}) => ({
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'BackupEntry',
      metadata: { name: NAME, annotations },
      spec: {},
      status,
    });
    const migrating = (seedName = 'local') =>
      setup({
        seedName,
        entry: {
          finalizers: ['gardener'],
          generation: 2,
          annotations: { 'gardener.cloud/operation': 'migrate', 'gardener.cloud/timestamp': '2026-11-29T11:59:59Z' },
        },
        spec: { seedName: 'other' },
        status: { seedName: 'local', lastOperation: lastOperation('Reconcile', 'Succeeded') },
      });

    it('migrates entries running here whose spec.seedName moved away or that ask to migrate', () => {
      const entry = (spec: string, status?: string, operation?: string) =>
        ({
          metadata: operation ? { annotations: { 'gardener.cloud/operation': operation } } : {},
          spec: { bucketName: 'b', seedName: spec },
          ...(status ? { status: { seedName: status } } : {}),
        }) as never;
      expect(shouldMigrate(entry('other', 'local'))).toBe(true);
      expect(shouldMigrate(entry('local', 'local', 'migrate'))).toBe(true);
      expect(shouldMigrate(entry('local', 'local'))).toBe(false);
      expect(shouldMigrate(entry('other', undefined, 'migrate'))).toBe(false);
    });

    it('reconciles a migrate request on an entry no seed runs, keeping it on its seed', async () => {
      const { reconciler, entry, seed } = setup({
        entry: { annotations: { 'gardener.cloud/operation': 'migrate' } },
      });
      await reconciler.reconcile(req, ctx);
      expect(entry()!.status).toMatchObject({ seedName: 'local', lastOperation: { type: 'Reconcile' } });
      expect(seed.find('BackupEntry', NAME)!.metadata.annotations['gardener.cloud/operation']).toBe('reconcile');
    });

    it('leaves an entry to the seed it runs on until that seed released it', async () => {
      const { reconciler, garden, seed } = migrating('other');
      expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
      expect(garden.calls).toEqual([]);
      expect(seed.calls).toEqual([]);
    });

    it('in the source seed: asks the extension to migrate, deletes the migrated entry, drops the Secret, Succeeded', async () => {
      const { reconciler, entry, seed } = migrating();
      seed.put(extensionEntry({ lastOperation: lastOperation('Reconcile', 'Succeeded') }));
      seed.put({ apiVersion: 'v1', kind: 'Secret', metadata: { name: `entry-${NAME}`, namespace: 'garden' } });

      expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
      expect(seed.find('BackupEntry', NAME)!.metadata.annotations).toEqual({
        'gardener.cloud/operation': 'migrate',
        'gardener.cloud/timestamp': now.toISOString(),
      });
      expect(entry()!.status).toMatchObject({
        observedGeneration: 2,
        seedName: 'local',
        lastOperation: {
          type: 'Migrate',
          state: 'Processing',
          description: 'Migration of BackupEntry state initialized.',
        },
      });

      // Still migrating: nothing else happens.
      seed.put(
        extensionEntry(
          { lastOperation: lastOperation('Migrate', 'Processing') },
          { 'gardener.cloud/operation': 'migrate' },
        ),
      );
      seed.calls.length = 0;
      expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
      expect(seed.calls).toEqual([]);

      // The extension migrated it (and forgot it): deleted with confirmation, the backups stay.
      seed.put(extensionEntry({ lastOperation: lastOperation('Migrate', 'Succeeded') }));
      expect(await reconciler.reconcile(req, ctx)).toEqual({ requeueAfter: RequeueWhileDeleting });
      expect(seed.calls).toContain(`delete BackupEntry ${NAME}`);
      expect(seed.find('BackupEntry', NAME)).toBeUndefined();
      expect(seed.find('Secret', `entry-${NAME}`, 'garden')).toBeDefined();

      expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
      expect(seed.find('Secret', `entry-${NAME}`, 'garden')).toBeUndefined();
      expect(entry()!.status.seedName).toBeUndefined();
      expect(entry()!.status.lastOperation).toMatchObject({
        type: 'Migrate',
        state: 'Succeeded',
        description: 'Migration of BackupEntry succeeded.',
      });
      expect(entry()!.metadata.annotations).toEqual({ 'gardener.cloud/timestamp': '2026-11-29T11:59:59Z' });
      expect(entry()!.metadata.finalizers).toEqual(['gardener']);
    });

    it("reports the extension's failed migration, and fails the reconcile when it is Failed", async () => {
      const { reconciler, entry, seed } = migrating();
      seed.put(
        extensionEntry({
          lastOperation: lastOperation('Migrate', 'Error'),
          lastError: { description: 'bucket unreachable', codes: ['ERR_INFRA_UNAVAILABLE'] },
        }),
      );
      expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
      expect(entry()!.status).toMatchObject({
        seedName: 'local',
        lastOperation: { type: 'Migrate', state: 'Error' },
        lastError: { description: 'error during reconciliation: bucket unreachable', codes: ['ERR_INFRA_UNAVAILABLE'] },
      });
      seed.put(extensionEntry({ lastOperation: lastOperation('Migrate', 'Failed') }));
      await expect(reconciler.reconcile(req, ctx)).rejects.toThrow('extension state is not Succeeded but Failed');
      expect(entry()!.status.lastError.description).toBe('extension state is not Succeeded but Failed');
      expect(seed.find('BackupEntry', NAME)).toBeDefined();
    });

    const restoring = (shootState?: FakeObject) => {
      const env = setup({
        entry: {
          finalizers: ['gardener'],
          annotations: { 'gardener.cloud/operation': 'restore', 'gardener.cloud/timestamp': '2026-11-29T11:59:59Z' },
          ownerReferences: [{ apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Shoot', name: 's', uid: 'u' }],
        },
        status: { lastOperation: lastOperation('Migrate', 'Succeeded') },
      });
      if (shootState) env.garden.put(shootState);
      return env;
    };

    it('in the destination seed: restores the extension entry with its state from the ShootState', async () => {
      const { reconciler, entry, seed } = restoring({
        apiVersion: 'core.gardener.cloud/v1beta1',
        kind: 'ShootState',
        metadata: { name: 's', namespace: 'garden-p' },
        spec: { extensions: [{ kind: 'BackupEntry', name: NAME, state: { snapshots: 3 } }] },
      });
      expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
      // Written with wait-for-state, given its state, then asked to restore.
      expect(seed.calls.filter((c) => c.includes(`BackupEntry ${NAME}`))).toEqual([
        `apply BackupEntry ${NAME}`,
        `merge/status BackupEntry ${NAME}`,
        `merge BackupEntry ${NAME}`,
      ]);
      const restored = seed.find('BackupEntry', NAME)!;
      expect(restored.metadata.annotations).toEqual({
        'gardener.cloud/operation': 'restore',
        'gardener.cloud/timestamp': now.toISOString(),
      });
      expect(restored.status).toEqual({ state: { snapshots: 3 } });
      expect(seed.find('Secret', `entry-${NAME}`, 'garden')).toBeDefined();
      expect(entry()!.status).toMatchObject({
        seedName: 'local',
        lastOperation: { type: 'Restore', state: 'Processing' },
      });

      // The extension's answer: Restore Succeeded, its request removed.
      seed.put({
        ...restored,
        metadata: { ...restored.metadata, annotations: {} },
        status: {
          ...restored.status,
          lastOperation: { ...lastOperation('Restore', 'Succeeded'), lastUpdateTime: '2026-11-29T12:00:01Z' },
        },
      });
      expect(await reconciler.reconcile(req, ctx)).toBeUndefined();
      expect(entry()!.status.lastOperation).toMatchObject({
        type: 'Restore',
        state: 'Succeeded',
        description: 'Restoration of BackupEntry succeeded.',
      });
      expect(entry()!.metadata.annotations).toEqual({ 'gardener.cloud/timestamp': '2026-11-29T11:59:59Z' });
    });

    it('does not restore without the ShootState of its shoot', async () => {
      const { reconciler, entry, seed } = restoring();
      await expect(reconciler.reconcile(req, ctx)).rejects.toThrow(
        'reading ShootState garden-p/s to restore the BackupEntry failed',
      );
      expect(entry()!.status).toMatchObject({
        lastOperation: { type: 'Restore', state: 'Error' },
        lastError: {
          description: expect.stringMatching(/^reading ShootState garden-p\/s .*: ShootState s not found$/),
        },
      });
      expect(seed.find('BackupEntry', NAME)).toBeUndefined();
    });
  });
});
