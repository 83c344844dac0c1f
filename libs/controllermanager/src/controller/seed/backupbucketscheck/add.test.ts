import { describe, expect, it } from 'vitest';
import type { BackupBucket } from '@gardener-ts/api';
import { backupBucketPredicate, mapBackupBucketToSeed } from './add.js';

const bucket = (seedName: string | undefined, lastError?: string): BackupBucket => ({
  metadata: { name: 'bb' },
  spec: { provider: { type: 'local', region: 'local' }, ...(seedName ? { seedName } : {}) },
  status: lastError ? { lastError: { description: lastError } } : {},
});

describe('mapBackupBucketToSeed', () => {
  it('maps to spec.seedName, and to nothing without one', () => {
    expect(mapBackupBucketToSeed(bucket('local'))).toEqual([{ namespace: '', name: 'local' }]);
    expect(mapBackupBucketToSeed(bucket(undefined))).toEqual([]);
  });
});

describe('backupBucketPredicate', () => {
  const update = (a: BackupBucket, b: BackupBucket) =>
    backupBucketPredicate({ type: 'update', oldObject: a, object: b });

  it('passes creations of buckets with a seed, never deletions or generic events', () => {
    expect(backupBucketPredicate({ type: 'create', object: bucket('local') })).toBe(true);
    expect(backupBucketPredicate({ type: 'create', object: bucket(undefined) })).toBe(false);
    expect(backupBucketPredicate({ type: 'delete', object: bucket('local') })).toBe(false);
    expect(backupBucketPredicate({ type: 'generic', object: bucket('local') })).toBe(false);
  });

  it('passes updates only when lastError appeared, went or changed its description', () => {
    expect(update(bucket('local'), bucket('local'))).toBe(false);
    expect(update(bucket('local'), bucket('local', 'boom'))).toBe(true);
    expect(update(bucket('local', 'boom'), bucket('local'))).toBe(true);
    expect(update(bucket('local', 'boom'), bucket('local', 'bang'))).toBe(true);
    expect(update(bucket('local', 'boom'), bucket('local', 'boom'))).toBe(false);
    expect(update(bucket(undefined), bucket(undefined, 'boom'))).toBe(false);
  });
});
