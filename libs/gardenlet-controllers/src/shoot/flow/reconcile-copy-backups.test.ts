// The restore's copy of etcd's backups in the reconcile flow (Gardener's reconciler_reconcile.go): with a copy the
// source BackupEntry is reconciled before the shoot's entry moves to the new bucket, the EtcdCopyBackupsTask runs
// after both and succeeds before etcd is deployed, the task is removed after, and the source entry only once etcd is
// deployed; without a copy (a reconcile, or a restore that copied already) the copy tasks are skipped visibly — by
// Gardener's condition, not listed as missing — while a restore still cleans the source entry up.
import fc from 'fast-check';
import type { ProgressEvent } from '@gardener-ts/flow';
import { describe, expect, it } from 'vitest';
import { exampleSeed, exampleShoot } from '../../component/testdata/fixtures.js';
import { recordingOperation } from '../testing/recording-operation.js';
import { flowConditions, type FlowConditionOptions } from './conditions.js';
import type { ReconcileOperation } from './operation.js';
import { reconcileFlow } from './reconcile.js';

const CopyTasks = [
  'Deploying source backup entry',
  'Waiting until the source backup entry has been reconciled',
  "Copying etcd backups to new seed's backup bucket",
  'Waiting until etcd backups are copied',
  'Destroying copy etcd backups task resource',
];
const CleanupTasks = ['Destroying source backup entry', 'Waiting until source backup entry has been deleted'];

// Must-come-before pairs of a restore with a copy, by task name.
const mustComeBefore: [string, string][] = [
  ['Deploying source backup entry', 'Waiting until the source backup entry has been reconciled'],
  ['Waiting until the source backup entry has been reconciled', 'Deploying backup entry'],
  ['Waiting until the backup entry has been reconciled', "Copying etcd backups to new seed's backup bucket"],
  ['Waiting until the source backup entry has been reconciled', "Copying etcd backups to new seed's backup bucket"],
  ["Copying etcd backups to new seed's backup bucket", 'Waiting until etcd backups are copied'],
  ['Waiting until etcd backups are copied', 'Destroying copy etcd backups task resource'],
  ['Waiting until etcd backups are copied', 'Deploying main and events etcd'],
  ['Deploying main and events etcd', 'Destroying source backup entry'],
  ['Destroying source backup entry', 'Waiting until source backup entry has been deleted'],
];

async function run(options: FlowConditionOptions, delay?: (step: string) => number) {
  const { op, recording } = recordingOperation<ReconcileOperation>(delay ? { delay } : {});
  const { flow, skipped } = reconcileFlow(op, flowConditions(exampleShoot(), exampleSeed(), options), {
    retry: false,
  });
  const events: ProgressEvent[] = [];
  await flow.run({ reporter: { report: (e) => void events.push(e) } });
  const ids = (type: ProgressEvent['type']) =>
    events.filter((e) => e.type === type).map((e) => (e as { taskId: string }).taskId);
  return { recording, skipped, succeeded: ids('task-succeeded'), skippedEvents: ids('task-skipped') };
}

describe('copying etcd backups in the reconcile flow', () => {
  it("a restore with a copy runs every copy task in Gardener's order, whatever order steps finish in (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.func(fc.nat({ max: 3 })), async (delay) => {
        const { succeeded, skipped } = await run({ restoring: true, copyOfBackupsRequired: true }, (s) => delay(s));
        for (const task of [...CopyTasks, ...CleanupTasks]) expect(succeeded, task).toContain(task);
        for (const [before, after] of mustComeBefore)
          expect(succeeded.indexOf(before) < succeeded.indexOf(after), `${before} -> ${after}`).toBe(true);
        expect(skipped.map((s) => s.task)).not.toEqual(expect.arrayContaining([CopyTasks[0]]));
      }),
      { numRuns: 15 },
    );
  });

  it('calls the copy steps of the operation in order', async () => {
    const { recording } = await run({ restoring: true, copyOfBackupsRequired: true });
    const order = recording.finished.filter((s) =>
      [
        'deploySourceBackupEntry',
        'waitForSourceBackupEntry',
        'deployBackupEntry',
        'copyEtcdBackups',
        'waitForEtcdBackupsCopied',
        'deployEtcd',
        'destroySourceBackupEntry',
        'waitForSourceBackupEntryDeleted',
      ].includes(s),
    );
    expect(order).toEqual([
      'deploySourceBackupEntry',
      'waitForSourceBackupEntry',
      'deployBackupEntry',
      'copyEtcdBackups',
      'waitForEtcdBackupsCopied',
      'deployEtcd',
      'destroySourceBackupEntry',
      'waitForSourceBackupEntryDeleted',
    ]);
  });

  it('skips the copy visibly by its condition on a reconcile and on a restore without a copy', async () => {
    const reconcile = await run({});
    for (const task of [...CopyTasks, ...CleanupTasks]) expect(reconcile.skippedEvents).toContain(task);
    expect(reconcile.skipped.map((s) => s.task)).not.toEqual(expect.arrayContaining([CopyTasks[0]]));
    const restore = await run({ restoring: true, copyOfBackupsRequired: false });
    for (const task of CopyTasks) expect(restore.skippedEvents).toContain(task);
    for (const task of CleanupTasks) expect(restore.succeeded).toContain(task);
    expect(restore.recording.started).not.toContain('copyEtcdBackups');
  });
});
