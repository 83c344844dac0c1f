// Copying etcd's backups on restore, over an in-memory garden and seed: when a copy is required (Gardener's
// IsCopyOfBackupsRequired, and its refusal of two entries on one bucket), the source BackupEntry written in the old
// bucket (kept on a retry) and waited for, the EtcdCopyBackupsTask created from the source extension entry and both
// `etcd-backup` Secrets (a leftover task removed first) and its wait ending on Succeeded or failing on Failed, and the
// source entry force-deleted.
import { describe, expect, it } from 'vitest';
import { FakeCluster } from '../../test/support/fake-cluster.js';
import { exampleValues } from '../component/testdata/fixtures.js';
import {
  copyOfBackupsRequired,
  copyTaskNotDone,
  EtcdCopyBackupsSteps,
  sourceBackupEntryName,
  type CopyOfBackupsFacts,
} from './etcd-copy-backups-steps.js';

const now = new Date('2026-11-30T01:00:00.000Z');
const wait = { interval: 10, timeout: 500 };
const signal = new AbortController().signal;
const PROJECT = 'garden-local';
const b64 = (s: string) => Buffer.from(s).toString('base64');

function setup() {
  const values = exampleValues();
  const seedBucket = values.seed.metadata!.uid!;
  const entryName = `${values.namespace}--${values.shoot.status?.uid || values.shoot.metadata?.uid}`;
  const garden = new FakeCluster();
  const seed = new FakeCluster();
  garden.put({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'BackupEntry',
    metadata: { name: entryName, namespace: PROJECT, generation: 1 },
    spec: { bucketName: 'old-bucket', seedName: 'local' },
  });
  const steps = new EtcdCopyBackupsSteps(garden as never, seed as never, values, {
    now: () => now,
    backupEntryWait: wait,
    copyWait: wait,
  });
  const source = () => garden.find('BackupEntry', sourceBackupEntryName(entryName), PROJECT);
  const task = () => seed.find('EtcdCopyBackupsTask', values.shoot.metadata!.name!, values.namespace);
  return { values, garden, seed, steps, entryName, seedBucket, source, task };
}

const facts = (f: Partial<CopyOfBackupsFacts>): CopyOfBackupsFacts => ({
  allowBackup: true,
  restoring: true,
  etcdMainExists: false,
  entryBucket: 'old-bucket',
  sourceEntryBucket: undefined,
  seedBucket: 'new-bucket',
  entryName: 'garden-local/entry',
  ...f,
});

describe('whether a restore copies etcd backups', () => {
  it("copies when the entry is in another bucket than the seed's, or was switched while the source entry is not", () => {
    expect(copyOfBackupsRequired(facts({}))).toBe(true);
    expect(copyOfBackupsRequired(facts({ entryBucket: 'new-bucket', sourceEntryBucket: 'old-bucket' }))).toBe(true);
  });

  it('does not copy on a reconcile, without backup, or once etcd-main exists', () => {
    expect(copyOfBackupsRequired(facts({ restoring: false }))).toBe(false);
    expect(copyOfBackupsRequired(facts({ allowBackup: false }))).toBe(false);
    expect(copyOfBackupsRequired(facts({ etcdMainExists: true }))).toBe(false);
  });

  it('refuses to go on when the backups would be lost', () => {
    expect(() => copyOfBackupsRequired(facts({ entryBucket: 'new-bucket', sourceEntryBucket: 'new-bucket' }))).toThrow(
      'backups have not been copied and source and target BackupEntry point to the same bucket new-bucket',
    );
    expect(() => copyOfBackupsRequired(facts({ entryBucket: 'new-bucket' }))).toThrow(
      /source BackupEntry garden-local\/source-entry not found/,
    );
    expect(() => copyOfBackupsRequired(facts({ entryBucket: undefined }))).toThrow(
      /BackupEntry garden-local\/entry not found/,
    );
  });

  it('reads the facts from the garden and the seed', async () => {
    const { steps, seed, values } = setup();
    expect(await steps.isCopyOfBackupsRequired(true)).toBe(true);
    expect(await steps.isCopyOfBackupsRequired(false)).toBe(false);
    seed.put({
      apiVersion: 'druid.gardener.cloud/v1alpha1',
      kind: 'Etcd',
      metadata: { name: 'etcd-main', namespace: values.namespace },
    });
    expect(await steps.isCopyOfBackupsRequired(true)).toBe(false);
  });
});

describe('the copy steps', () => {
  it('write the source BackupEntry in the old bucket on this seed, keep its bucket on a retry, and wait for it', async () => {
    const { steps, garden, source, entryName } = setup();
    await steps.deploySourceBackupEntry();
    expect(source()).toMatchObject({
      metadata: {
        name: `source-${entryName}`,
        annotations: { 'gardener.cloud/operation': 'reconcile', 'gardener.cloud/timestamp': now.toISOString() },
        ownerReferences: [{ kind: 'Shoot', name: 'local' }],
      },
      spec: { bucketName: 'old-bucket', seedName: 'local' },
    });
    // The shoot's entry moved to the new bucket meanwhile: the source entry stays in the old one.
    garden.find('BackupEntry', entryName, PROJECT)!.spec.bucketName = 'new-bucket';
    await steps.deploySourceBackupEntry();
    expect(source()?.spec.bucketName).toBe('old-bucket');
    await expect(steps.waitForSourceBackupEntry(signal)).rejects.toThrow(/source-/);
    // The BackupEntry controller reconciled it and removed the request.
    garden.put({
      ...source()!,
      metadata: { ...source()!.metadata, annotations: { 'gardener.cloud/timestamp': now.toISOString() } },
      status: {
        observedGeneration: source()!.metadata.generation,
        lastOperation: { type: 'Reconcile', state: 'Succeeded', progress: 100, lastUpdateTime: '2026-11-30T01:00:01Z' },
      },
    });
    await steps.waitForSourceBackupEntry(signal);
  });

  it('create the EtcdCopyBackupsTask from both etcd-backup Secrets, after removing a leftover one', async () => {
    const { steps, seed, values, task, entryName } = setup();
    await expect(steps.deployCopyTask(signal)).rejects.toThrow(/ExtensionBackupEntry|BackupEntry source-.* not found/);
    seed.put({
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'BackupEntry',
      metadata: { name: `source-${entryName}` },
      spec: { type: 'local', bucketName: 'old-bucket' },
    });
    for (const [name, bucket] of [
      ['source-etcd-backup', 'old-bucket'],
      ['etcd-backup', 'new-bucket'],
    ])
      seed.put({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name, namespace: values.namespace },
        data: { bucketName: b64(bucket!) },
      });
    seed.put({
      apiVersion: 'druid.gardener.cloud/v1alpha1',
      kind: 'EtcdCopyBackupsTask',
      metadata: { name: 'local', namespace: values.namespace },
      spec: { stale: true },
    });
    await steps.deployCopyTask(signal);
    expect(seed.calls).toContain('delete EtcdCopyBackupsTask local');
    expect(task()?.spec).toEqual({
      sourceStore: {
        provider: 'local',
        secretRef: { name: 'source-etcd-backup' },
        prefix: `${entryName}/etcd-main`,
        container: 'old-bucket',
      },
      targetStore: {
        provider: 'local',
        secretRef: { name: 'etcd-backup' },
        prefix: `${entryName}/etcd-main`,
        container: 'new-bucket',
      },
      waitForFinalSnapshot: { enabled: true, timeout: '5m0s' },
      podLabels: {
        'networking.gardener.cloud/to-dns': 'allowed',
        'networking.gardener.cloud/to-public-networks': 'allowed',
      },
    });
  });

  it('wait for the task: Succeeded ends it, Failed fails it at once, lastError is reported on timeout', async () => {
    const task = (status: Record<string, unknown>, generation = 1) =>
      ({ metadata: { name: 't', generation }, spec: {}, status }) as never;
    expect(copyTaskNotDone(undefined)).toBe('does not exist');
    expect(copyTaskNotDone(task({}))).toBe('observed generation not recorded');
    expect(copyTaskNotDone(task({ observedGeneration: 1 }, 2))).toBe('observed generation outdated (1/2)');
    expect(copyTaskNotDone(task({ observedGeneration: 1, lastError: 'no Secret' }))).toBe(
      'error during reconciliation: no Secret',
    );
    expect(copyTaskNotDone(task({ observedGeneration: 1 }))).toMatch(/condition Succeeded has not been reported yet/);
    expect(
      copyTaskNotDone(task({ observedGeneration: 1, conditions: [{ type: 'Succeeded', status: 'True' }] })),
    ).toBeUndefined();
    expect(() =>
      copyTaskNotDone(
        task({
          observedGeneration: 1,
          conditions: [{ type: 'Failed', status: 'True', message: 'BackoffLimitExceeded' }],
        }),
      ),
    ).toThrow('condition Failed has status True: BackoffLimitExceeded');

    const { steps, seed, values } = setup();
    seed.put({
      apiVersion: 'druid.gardener.cloud/v1alpha1',
      kind: 'EtcdCopyBackupsTask',
      metadata: { name: 'local', namespace: values.namespace, generation: 1 },
      spec: {},
      status: { observedGeneration: 1, lastError: 'reading the source store Secret source-etcd-backup' },
    });
    await expect(steps.waitForCopyTask(signal)).rejects.toThrow(
      `EtcdCopyBackupsTask ${values.namespace}/local: error during reconciliation: reading the source store Secret source-etcd-backup`,
    );
    await steps.destroyCopyTask();
    expect(seed.find('EtcdCopyBackupsTask', 'local', values.namespace)).toBeUndefined();
  });

  it('force-delete the source BackupEntry and wait until it is gone (nothing to do when it is)', async () => {
    const { steps, garden, source } = setup();
    await steps.destroySourceBackupEntry();
    await steps.deploySourceBackupEntry();
    source()!.metadata.finalizers = ['gardener'];
    await steps.destroySourceBackupEntry();
    expect(source()?.metadata.annotations['backupentry.core.gardener.cloud/force-deletion']).toBe('true');
    expect(source()?.metadata.deletionTimestamp).toBeDefined();
    await expect(steps.waitForSourceBackupEntryDeleted(signal)).rejects.toThrow(/still exists/);
    source()!.metadata.finalizers = [];
    await garden.delete({ kind: 'BackupEntry' }, { namespace: PROJECT, name: source()!.metadata.name });
    await steps.waitForSourceBackupEntryDeleted(signal);
  });
});
