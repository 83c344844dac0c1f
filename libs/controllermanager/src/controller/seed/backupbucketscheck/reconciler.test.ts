import { describe, expect, it } from 'vitest';
import type { BackupBucket } from '@gardener-ts/api';
import { bucket, ctx, FakeSeedClient, manualClock, seed, T } from '../testing/fake-seed-client.js';
import { SeedBackupBucketsCheckReconciler } from './reconciler.js';

const request = { namespace: '', name: 'local' };

describe('SeedBackupBucketsCheckReconciler', () => {
  it('sets BackupBucketsReady from the buckets of the seed only, and follows errors and their removal', async () => {
    const fake = new FakeSeedClient(new Map([['local', seed('local')]]), [
      bucket('mine', 'local'),
      bucket('theirs', 'other', 'not mine'),
    ]);
    const r = new SeedBackupBucketsCheckReconciler({
      client: fake,
      syncPeriodMs: 30_000,
      thresholds: {},
      clock: manualClock(),
    });
    expect(await r.reconcile(request, ctx)).toEqual({ requeueAfter: 30_000 });
    expect(fake.patches.at(-1)!.conditions).toEqual([
      {
        type: 'BackupBucketsReady',
        status: 'True',
        reason: 'BackupBucketsAvailable',
        message: 'Backup Buckets are available.',
        lastTransitionTime: T,
        lastUpdateTime: T,
      },
    ]);

    (fake.items[0] as BackupBucket).status = { lastError: { description: 'access denied' } };
    await r.reconcile(request, ctx);
    expect(fake.patches.at(-1)!.conditions[0]).toMatchObject({
      status: 'False',
      reason: 'BackupBucketsError',
      message: 'The following BackupBuckets have issues:\n* Name: mine, Error: access denied',
    });

    fake.items.splice(0, 1);
    await r.reconcile(request, ctx);
    expect(fake.patches.at(-1)!.conditions[0]).toMatchObject({ status: 'Unknown', reason: 'BackupBucketsGone' });
  });

  it('is done for a seed that is gone', async () => {
    const fake = new FakeSeedClient(new Map(), [bucket('mine', 'local')]);
    const r = new SeedBackupBucketsCheckReconciler({ client: fake, syncPeriodMs: 30_000, thresholds: {} });
    expect(await r.reconcile(request, ctx)).toBeUndefined();
    expect(fake.patches).toEqual([]);
  });
});
