import { describe, expect, it } from 'vitest';
import type { CoreBackupBucket, ExtensionBackupBucket } from './kinds.js';
import { extensionLastOperationChanged, forSeed, mapExtensionToCoreBucket, specChangedOrDeleting } from './add.js';

const bucket = (seedName: string, generation = 1, deletionTimestamp?: string) =>
  ({
    metadata: { name: 'b', generation, ...(deletionTimestamp ? { deletionTimestamp } : {}) },
    spec: { provider: { type: 'local', region: 'local' }, seedName },
  }) as CoreBackupBucket;
const extension = (
  state?: string,
  lastUpdateTime = '2026-11-29T12:00:00Z',
  pending = false,
): ExtensionBackupBucket => ({
  metadata: { name: 'b', ...(pending ? { annotations: { 'gardener.cloud/operation': 'reconcile' } } : {}) },
  spec: { type: 'local', region: 'local', secretRef: { name: 'bucket-b', namespace: 'garden' } },
  ...(state
    ? { status: { lastOperation: { type: 'Create', state, progress: 0, description: '', lastUpdateTime } } }
    : {}),
});

describe('the BackupBucket controller wiring', () => {
  it('takes the buckets of its seed, on spec changes and when their deletion starts', () => {
    expect(forSeed('local')({ type: 'create', object: bucket('local') })).toBe(true);
    expect(forSeed('local')({ type: 'create', object: bucket('other') })).toBe(false);
    expect(specChangedOrDeleting({ type: 'update', oldObject: bucket('local'), object: bucket('local') })).toBe(false);
    expect(specChangedOrDeleting({ type: 'update', oldObject: bucket('local'), object: bucket('local', 2) })).toBe(
      true,
    );
    expect(
      specChangedOrDeleting({
        type: 'update',
        oldObject: bucket('local'),
        object: bucket('local', 1, '2026-11-29T12:00:00Z'),
      }),
    ).toBe(true);
    expect(specChangedOrDeleting({ type: 'create', object: bucket('local') })).toBe(true);
  });

  it('wakes the core bucket when the extension reports, not while a request is pending', () => {
    const update = (a: ExtensionBackupBucket, b: ExtensionBackupBucket) =>
      extensionLastOperationChanged({ type: 'update', oldObject: a, object: b });
    expect(update(extension(), extension('Succeeded'))).toBe(true);
    expect(update(extension('Processing'), extension('Succeeded'))).toBe(true);
    expect(update(extension('Succeeded'), extension('Succeeded', '2026-11-29T12:01:00Z'))).toBe(true);
    expect(update(extension('Succeeded'), extension('Succeeded'))).toBe(false);
    expect(update(extension('Processing'), extension('Succeeded', undefined, true))).toBe(false);
    expect(extensionLastOperationChanged({ type: 'create', object: extension('Succeeded') })).toBe(true);
    expect(extensionLastOperationChanged({ type: 'create', object: extension() })).toBe(false);
    expect(extensionLastOperationChanged({ type: 'delete', object: extension('Succeeded') })).toBe(true);
    expect(mapExtensionToCoreBucket(extension())).toEqual([{ namespace: '', name: 'b' }]);
  });
});
