import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BackupBucket } from '@gardener-ts/api';
import { initCondition, type WallClock } from '@gardener-ts/controller-runtime';
import { backupBucketsReadyCondition, judgeBackupBuckets } from './buckets.js';

const T = '2026-01-01T00:00:00Z';
const bucket = (
  name: string,
  error?: string,
  state: 'Succeeded' | 'Error' | 'Processing' = error ? 'Error' : 'Succeeded',
): BackupBucket => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'BackupBucket',
  metadata: { name },
  spec: { provider: { type: 'local', region: 'local' }, seedName: 'local' },
  status: {
    lastOperation: { type: 'Reconcile', state, progress: 100, description: '', lastUpdateTime: T },
    ...(error ? { lastError: { description: error } } : {}),
  },
});

describe('judgeBackupBuckets', () => {
  it('is True when no bucket has a lastError, Unknown when there is none, False naming the erroneous ones', () => {
    expect(judgeBackupBuckets([bucket('a'), bucket('b')])).toEqual({
      status: 'True',
      reason: 'BackupBucketsAvailable',
      message: 'Backup Buckets are available.',
    });
    expect(judgeBackupBuckets([])).toEqual({
      status: 'Unknown',
      reason: 'BackupBucketsGone',
      message: 'Backup Buckets are gone.',
    });
    expect(judgeBackupBuckets([bucket('z', 'access denied'), bucket('ok'), bucket('a', 'quota exceeded')])).toEqual({
      status: 'False',
      reason: 'BackupBucketsError',
      message:
        'The following BackupBuckets have issues:\n* Name: a, Error: quota exceeded\n* Name: z, Error: access denied',
    });
  });

  it('judges by lastError only, as Gardener does: a Processing bucket without error counts as available', () => {
    expect(judgeBackupBuckets([bucket('p', undefined, 'Processing')]).status).toBe('True');
  });

  it('is False exactly when some bucket has a lastError, and names each such bucket once (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: undefined }), { maxLength: 6 }),
        (errors) => {
          const buckets = errors.map((e, i) => bucket(`bb-${i}`, e));
          const verdict = judgeBackupBuckets(buckets);
          const failing = errors.filter((e) => e !== undefined).length;
          expect(verdict.status).toBe(failing > 0 ? 'False' : buckets.length === 0 ? 'Unknown' : 'True');
          if (failing > 0) expect(verdict.message.split('\n* ').length - 1).toBe(failing);
        },
      ),
    );
  });
});

describe('backupBucketsReadyCondition', () => {
  const minute = 60_000;
  let now = Date.parse(T);
  const clock: WallClock = { now: () => new Date(now) };

  it('goes Progressing, then False on errors and Unknown when the buckets are gone, once the threshold passed', () => {
    now = Date.parse(T);
    const available = backupBucketsReadyCondition(
      initCondition('BackupBucketsReady', clock),
      [bucket('a')],
      minute,
      clock,
    );
    expect(available).toMatchObject({ status: 'True', reason: 'BackupBucketsAvailable' });
    now += 1000;
    const failing = backupBucketsReadyCondition(available, [bucket('a', 'boom')], minute, clock);
    expect(failing).toMatchObject({ status: 'Progressing', reason: 'BackupBucketsError' });
    now += minute + 1000;
    expect(backupBucketsReadyCondition(failing, [bucket('a', 'boom')], minute, clock)).toMatchObject({
      status: 'False',
      message: 'The following BackupBuckets have issues:\n* Name: a, Error: boom',
    });
    const gone = backupBucketsReadyCondition(available, [], minute, clock);
    expect(gone).toMatchObject({ status: 'Progressing', reason: 'BackupBucketsGone' });
    now += minute + 1000;
    expect(backupBucketsReadyCondition(gone, [], minute, clock)).toMatchObject({
      status: 'Unknown',
      reason: 'BackupBucketsGone',
    });
    expect(backupBucketsReadyCondition(available, [], 0, clock).status).toBe('Unknown');
  });
});
