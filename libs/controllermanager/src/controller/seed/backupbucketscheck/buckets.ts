// The BackupBucketsReady condition of a Seed from the core BackupBuckets whose `spec.seedName` is the seed, as
// Gardener computes it (ComputeBackupBucketsCondition in pkg/api/core/v1beta1/helper, applied with thresholds by
// pkg/controllermanager/controller/seed/backupbucketscheck): a bucket with `status.lastError` is erroneous.
import { SeedConditionType, type BackupBucket } from '@gardener-ts/api';
import { updatedCondition, type Condition, type WallClock } from '@gardener-ts/controller-runtime';
import { setToProgressingOr } from '../utils.js';

export const BackupBucketsAvailableReason = 'BackupBucketsAvailable';
export const BackupBucketsAvailableMessage = 'Backup Buckets are available.';
export const BackupBucketsErrorReason = 'BackupBucketsError';
export const BackupBucketsGoneReason = 'BackupBucketsGone';
export const BackupBucketsGoneMessage = 'Backup Buckets are gone.';

/** The bucket's error description when it has a `lastError` (Gardener's BackupBucketIsErroneous). */
export function backupBucketError(bucket: BackupBucket): string | undefined {
  const lastError = bucket.status?.lastError;
  return lastError ? (lastError.description ?? '') : undefined;
}

/**
 * What the buckets say, before thresholds: False naming every erroneous bucket, Unknown when there are none, else
 * True. Buckets are listed by name.
 */
export function judgeBackupBuckets(buckets: readonly BackupBucket[]): {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
} {
  const name = (bucket: BackupBucket) => bucket.metadata?.name ?? '';
  const erroneous = [...buckets]
    .sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0))
    .flatMap((bucket) => {
      const error = backupBucketError(bucket);
      return error === undefined ? [] : [`Name: ${name(bucket)}, Error: ${error}`];
    });
  if (erroneous.length > 0) {
    return {
      status: 'False',
      reason: BackupBucketsErrorReason,
      message: `The following BackupBuckets have issues:\n* ${erroneous.join('\n* ')}`,
    };
  }
  if (buckets.length === 0)
    return { status: 'Unknown', reason: BackupBucketsGoneReason, message: BackupBucketsGoneMessage };
  return { status: 'True', reason: BackupBucketsAvailableReason, message: BackupBucketsAvailableMessage };
}

/**
 * The seed's new BackupBucketsReady condition from its current one (or the initialised Unknown one): True when every
 * bucket is fine; an error turns a True condition Progressing within `thresholdMs`, then False; no buckets at all
 * likewise Progressing, then Unknown.
 */
export function backupBucketsReadyCondition(
  current: Condition,
  buckets: readonly BackupBucket[],
  thresholdMs: number,
  clock: WallClock,
): Condition {
  if (current.type !== SeedConditionType.BackupBucketsReady) throw new Error('not a BackupBucketsReady condition');
  const verdict = judgeBackupBuckets(buckets);
  return verdict.status === 'True'
    ? updatedCondition(current, 'True', verdict.reason, verdict.message, { clock })
    : setToProgressingOr(verdict.status, current, thresholdMs, verdict.reason, verdict.message, clock);
}
