import { describe, expect, it } from 'vitest';
import { coreEntryOf, entriesInBucket, forSeed, lastOperationChanged, reconcileRequested } from './add.js';
import type { BackupBucket, BackupEntry, ExtensionBackupEntry } from './kinds.js';

const entry = (
  name: string,
  patch: Partial<BackupEntry['metadata']> = {},
  seedName = 'local',
  bucketName = 'b',
): BackupEntry => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'BackupEntry',
  metadata: { name, namespace: 'garden-p', generation: 1, ...patch },
  spec: { bucketName, seedName },
});

describe('the BackupEntry controller wiring', () => {
  it('takes entries wanted on or running on its seed', () => {
    expect(forSeed('local')({ object: entry('a') })).toBe(true);
    expect(forSeed('local')({ object: entry('a', {}, 'other') })).toBe(false);
    expect(forSeed('local')({ object: { ...entry('a', {}, 'other'), status: { seedName: 'local' } } })).toBe(true);
  });

  it('reconciles on creation, a new generation, the deletion and a new reconcile request, not on status writes', () => {
    const old = entry('a');
    const update = (object: BackupEntry) => reconcileRequested({ type: 'update', oldObject: old, object });
    expect(reconcileRequested({ type: 'create', object: old })).toBe(true);
    expect(update({ ...old, status: { observedGeneration: 1 } })).toBe(false);
    expect(update(entry('a', { generation: 2 }))).toBe(true);
    const deleted = entry('a', { deletionTimestamp: '2026-11-29T12:00:00Z' });
    expect(update(deleted)).toBe(true);
    const forced = entry('a', {
      deletionTimestamp: '2026-11-29T12:00:00Z',
      annotations: { 'backupentry.core.gardener.cloud/force-deletion': 'true' },
    });
    expect(reconcileRequested({ type: 'update', oldObject: deleted, object: forced })).toBe(true);
    expect(reconcileRequested({ type: 'update', oldObject: forced, object: forced })).toBe(false);
    const requested = entry('a', {
      annotations: { 'gardener.cloud/operation': 'reconcile', 'gardener.cloud/timestamp': '2026-11-29T12:00:00Z' },
    });
    expect(update(requested)).toBe(true);
    // The controller removing the request is no new request.
    expect(reconcileRequested({ type: 'update', oldObject: requested, object: old })).toBe(false);
    expect(reconcileRequested({ type: 'delete', object: old })).toBe(false);
  });

  it('follows lastOperation changes of buckets and extension entries, and their deletion', () => {
    const ext = { metadata: { name: 'a' }, spec: {} } as ExtensionBackupEntry;
    const done = {
      ...ext,
      status: {
        lastOperation: { type: 'Create', state: 'Succeeded', progress: 100, description: '', lastUpdateTime: 't' },
      },
    };
    expect(lastOperationChanged({ type: 'update', oldObject: ext, object: done })).toBe(true);
    expect(
      lastOperationChanged({
        type: 'update',
        oldObject: done,
        object: { ...done, metadata: { name: 'a', labels: { x: 'y' } } },
      }),
    ).toBe(false);
    expect(lastOperationChanged({ type: 'delete', object: done })).toBe(true);
  });

  it('maps a bucket to the entries of this seed in it, an extension entry to the core entry of its name', () => {
    const entries = [entry('a'), entry('b', {}, 'local', 'other'), entry('c', {}, 'other-seed'), entry('d')];
    const bucket = { metadata: { name: 'b' } } as BackupBucket;
    expect(entriesInBucket(entries, 'local', bucket)).toEqual([
      { namespace: 'garden-p', name: 'a' },
      { namespace: 'garden-p', name: 'd' },
    ]);
    const ext = (name: string) => ({ metadata: { name } }) as ExtensionBackupEntry;
    expect(coreEntryOf(entries, 'local', ext('d'))).toEqual([{ namespace: 'garden-p', name: 'd' }]);
    expect(coreEntryOf(entries, 'local', ext('c'))).toEqual([]);
  });
});
