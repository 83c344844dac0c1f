// Copying etcd's backups into the new seed's bucket during the restore of a control plane migration (Gardener's
// `botanist.IsCopyOfBackupsRequired`, `DeploySourceBackupEntry`/`DestroySourceBackupEntry` over
// `component/garden/backupentry`, and `DeployEtcdCopyBackupsTask` over `component/etcd/copybackupstask`):
// - a copy is required when the seed has backup, the operation is a Restore, etcd-main's Etcd does not exist yet (it
//   is deployed only after the copy) and the shoot's core BackupEntry still points to another bucket than the seed's —
//   or already points to it while the source BackupEntry still points to the old one (a restore retried after the
//   switch); both on one bucket with the source entry present is an error (the backups would be lost);
// - "Deploying source backup entry" writes `source-<entry>` in the project namespace on this seed, in the bucket the
//   entry had (an existing source entry keeps its bucket), with a reconcile request, and its wait polls it like the
//   entry's; the gardenlet's BackupEntry controller deploys its extension entry, whose actuator writes
//   `source-etcd-backup` into the control plane namespace;
// - "Copying etcd backups to new seed's backup bucket" deletes a task left from an earlier attempt (and waits for it to
//   go), then creates the EtcdCopyBackupsTask named after the shoot: the source store from the source extension
//   entry's type and `source-etcd-backup`'s bucketName, the target from the seed's backup provider and `etcd-backup`'s,
//   both prefixed `<entry>/etcd-main`, waiting up to 5 min for the final full snapshot; its wait polls the task until
//   its generation is observed and it reports Succeeded (Failed, or a lastError once the wait is over, fails it);
// - "Destroying copy etcd backups task resource" deletes the task; "Destroying source backup entry" marks the source
//   entry for immediate deletion (`backupentry.core.gardener.cloud/force-deletion`) and deletes it, and its wait polls
//   until it is gone.
import { corev1beta1 } from '@gardener-ts/api';
import { ignoreNotFound, Kinds, kindFrom, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { etcdName } from '../component/etcd.js';
import { renderBackupEntry } from '../component/extensions.js';
import type { ShootValues } from '../component/values.js';
import { ExtensionBackupEntryKind } from '../controller/backupentry/kinds.js';
import { ForceDeletionAnnotation } from '../controller/backupentry/grace-period.js';
import {
  EtcdCopyBackupsTaskConditions,
  EtcdCopyBackupsTaskKind,
  type EtcdCopyBackupsTaskResource,
} from '../controller/etcdcopybackupstask/kinds.js';
import { backupBucketName, backupEntryNotReady, DefaultBackupEntryWait } from './backupentry-steps.js';
import type { ReconcileSteps } from './flow/operation.js';
import { EtcdKind } from './kinds.js';
import { pollUntil, type BotanistWait } from './poll.js';

const BackupEntryKind = kindFrom<corev1beta1.BackupEntry>(corev1beta1.BackupEntryKind);

/** The name prefix of the source BackupEntry and its Secret (Gardener's `BackupSourcePrefix`). */
export const BackupSourcePrefix = 'source';
/** The Secret etcd's backup sidecar reads (Gardener's `BackupSecretName`). */
export const EtcdBackupSecretName = 'etcd-backup';
/** How long the flow waits for the copy (Gardener's copybackupstask DefaultTimeout, polled every 5 s at most). */
export const DefaultEtcdCopyBackupsTaskWait: BotanistWait = { interval: 5_000, timeout: 5 * 60_000 };
/** How long the copy waits for the source's final full snapshot (Gardener's: the task's DefaultTimeout). */
export const FinalSnapshotTimeout = '5m0s';

/** The source BackupEntry's name of a shoot's entry. */
export const sourceBackupEntryName = (entryName: string) => `${BackupSourcePrefix}-${entryName}`;

/** What {@link copyOfBackupsRequired} decides on. */
export interface CopyOfBackupsFacts {
  /** The seed has backup (`spec.backup`). */
  readonly allowBackup: boolean;
  /** The operation is a Restore. */
  readonly restoring: boolean;
  /** etcd-main's Etcd exists in the control plane namespace. */
  readonly etcdMainExists: boolean;
  /** The shoot's core BackupEntry's bucket (undefined: the entry does not exist). */
  readonly entryBucket: string | undefined;
  /** The source BackupEntry's bucket (undefined: it does not exist). */
  readonly sourceEntryBucket: string | undefined;
  /** This seed's BackupBucket (its UID). */
  readonly seedBucket: string;
  /** The core BackupEntry's name, for the errors. */
  readonly entryName: string;
}

// `<namespace>/source-<name>` of `<namespace>/<name>`.
const sourceOf = (qualified: string) => {
  const slash = qualified.lastIndexOf('/');
  return qualified.slice(0, slash + 1) + sourceBackupEntryName(qualified.slice(slash + 1));
};

/** Whether etcd's backups are to be copied to this seed's bucket (Gardener's `IsCopyOfBackupsRequired`; pure). */
export function copyOfBackupsRequired(f: CopyOfBackupsFacts): boolean {
  if (!f.allowBackup || !f.restoring || f.etcdMainExists) return false;
  if (f.entryBucket === undefined)
    throw new Error(`BackupEntry ${f.entryName} not found: cannot tell whether etcd's backups are to be copied`);
  if (f.entryBucket !== f.seedBucket) return true;
  if (f.sourceEntryBucket === undefined)
    throw new Error(
      `source BackupEntry ${sourceOf(f.entryName)} not found although BackupEntry ${f.entryName} points to this seed's bucket ${f.seedBucket} already: cannot copy etcd's backups`,
    );
  if (f.sourceEntryBucket === f.entryBucket)
    throw new Error(
      `backups have not been copied and source and target BackupEntry point to the same bucket ${f.entryBucket}`,
    );
  return true;
}

/** The stores of a copy: provider and container (bucket) of each, and the common prefix. */
export interface CopyStores {
  readonly sourceProvider: string;
  readonly sourceContainer: string;
  readonly targetProvider: string;
  readonly targetContainer: string;
  readonly prefix: string;
}

/** The EtcdCopyBackupsTask of a shoot (Gardener's copybackupstask component; pure). */
export function renderEtcdCopyBackupsTask(values: ShootValues, stores: CopyStores): EtcdCopyBackupsTaskResource {
  return {
    apiVersion: 'druid.gardener.cloud/v1alpha1',
    kind: 'EtcdCopyBackupsTask',
    metadata: { name: values.shoot.metadata?.name ?? '', namespace: values.namespace },
    spec: {
      sourceStore: {
        provider: stores.sourceProvider,
        secretRef: { name: `${BackupSourcePrefix}-${EtcdBackupSecretName}` },
        prefix: stores.prefix,
        container: stores.sourceContainer,
      },
      targetStore: {
        provider: stores.targetProvider,
        secretRef: { name: EtcdBackupSecretName },
        prefix: stores.prefix,
        container: stores.targetContainer,
      },
      waitForFinalSnapshot: { enabled: true, timeout: FinalSnapshotTimeout },
      podLabels: {
        'networking.gardener.cloud/to-dns': 'allowed',
        'networking.gardener.cloud/to-public-networks': 'allowed',
      },
    },
  };
}

/**
 * Why the task is not done yet, or undefined when it Succeeded (pure; Gardener's wait for its conditions). A Failed
 * condition throws: the copy is over and did not succeed.
 */
export function copyTaskNotDone(task: EtcdCopyBackupsTaskResource | undefined): string | undefined {
  if (!task) return 'does not exist';
  if (task.metadata?.deletionTimestamp) return 'has a deletion timestamp';
  const observed = task.status?.observedGeneration;
  if (observed === undefined) return 'observed generation not recorded';
  if (observed !== task.metadata?.generation)
    return `observed generation outdated (${observed}/${task.metadata?.generation})`;
  const conditions = task.status?.conditions ?? [];
  const failed = conditions.find((c) => c.type === EtcdCopyBackupsTaskConditions.failed && c.status === 'True');
  if (failed) throw new Error(`condition ${failed.type} has status ${failed.status}: ${failed.message}`);
  if (task.status?.lastError) return `error during reconciliation: ${task.status.lastError}`;
  if (conditions.some((c) => c.type === EtcdCopyBackupsTaskConditions.succeeded && c.status === 'True'))
    return undefined;
  return `expected condition ${EtcdCopyBackupsTaskConditions.succeeded} has not been reported yet`;
}

type Garden = Pick<Client, 'get' | 'create' | 'patch' | 'delete'>;
type Seed = Pick<Client, 'get' | 'create' | 'delete'>;

/** Options of {@link EtcdCopyBackupsSteps}. */
export interface EtcdCopyBackupsStepsOptions {
  now?: () => Date;
  /** Polling of the source BackupEntry's waits (default: the BackupEntry's). */
  backupEntryWait?: BotanistWait;
  /** Polling of the copy's wait (default {@link DefaultEtcdCopyBackupsTaskWait}). */
  copyWait?: BotanistWait;
}

/** The steps of one flow run that copy etcd's backups (they remember the source entry's request). */
export class EtcdCopyBackupsSteps {
  private requested: string | undefined;

  constructor(
    private readonly garden: Garden,
    private readonly seed: Seed,
    private readonly values: ShootValues,
    private readonly options: EtcdCopyBackupsStepsOptions = {},
  ) {}

  // The shoot's core BackupEntry as rendered (its name and namespace); undefined when the seed has no backup.
  private entry(bucketName = ''): corev1beta1.BackupEntry | undefined {
    return renderBackupEntry(this.values, { bucketName });
  }

  private entryKey(): { namespace: string | undefined; name: string } {
    const entry = this.entry();
    if (!entry) throw new Error(`seed ${this.values.seed.metadata?.name} has no backup (spec.backup)`);
    return { namespace: entry.metadata?.namespace, name: entry.metadata?.name ?? '' };
  }

  private sourceKey() {
    const key = this.entryKey();
    return { namespace: key.namespace, name: sourceBackupEntryName(key.name) };
  }

  private get taskKey() {
    return { namespace: this.values.namespace, name: this.values.shoot.metadata?.name ?? '' };
  }

  /** Whether the restore copies etcd's backups (see {@link copyOfBackupsRequired}). */
  async isCopyOfBackupsRequired(restoring: boolean): Promise<boolean> {
    if (!this.values.seed.spec.backup || !restoring) return false;
    const etcd = await this.seed
      .get(EtcdKind, { namespace: this.values.namespace, name: etcdName('main') })
      .catch(ignoreNotFound);
    if (etcd) return false;
    const key = this.entryKey();
    const entry = await this.garden.get(BackupEntryKind, key).catch(ignoreNotFound);
    const source = entry ? await this.garden.get(BackupEntryKind, this.sourceKey()).catch(ignoreNotFound) : undefined;
    return copyOfBackupsRequired({
      allowBackup: true,
      restoring,
      etcdMainExists: false,
      entryBucket: entry?.spec.bucketName,
      sourceEntryBucket: source?.spec.bucketName,
      seedBucket: backupBucketName(this.values.seed),
      entryName: `${key.namespace}/${key.name}`,
    });
  }

  /**
   * "Deploying source backup entry": `source-<entry>` on this seed in the bucket the shoot's entry had (an existing
   * source entry keeps its own), with a reconcile request.
   */
  async deploySourceBackupEntry(): Promise<void> {
    const key = this.sourceKey();
    const existing = await this.garden.get(BackupEntryKind, key).catch(ignoreNotFound);
    let bucket = existing?.spec.bucketName;
    if (bucket === undefined) {
      const entry = await this.garden.get(BackupEntryKind, this.entryKey());
      bucket = entry.spec.bucketName;
    }
    const now = (this.options.now?.() ?? new Date()).toISOString();
    const rendered = renderBackupEntry(this.values, { bucketName: bucket, now })!;
    const source = { ...rendered, metadata: { ...rendered.metadata, name: key.name } } as corev1beta1.BackupEntry;
    if (!existing) await this.garden.create(source);
    else
      await this.garden.patch(BackupEntryKind, key, {
        type: 'merge',
        patch: {
          metadata: { annotations: source.metadata?.annotations, ownerReferences: source.metadata?.ownerReferences },
          spec: source.spec,
        },
      });
    this.requested = now;
  }

  /** "Waiting until the source backup entry has been reconciled": Succeeded for this run's request. */
  async waitForSourceBackupEntry(signal: AbortSignal): Promise<void> {
    const key = this.sourceKey();
    const timestamp = this.requested;
    await pollUntil(
      `BackupEntry ${key.namespace}/${key.name}`,
      async () => {
        const entry = await this.garden.get(BackupEntryKind, key).catch(ignoreNotFound);
        return entry ? backupEntryNotReady(entry, timestamp) : 'does not exist';
      },
      this.options.backupEntryWait ?? DefaultBackupEntryWait,
      signal,
    );
  }

  /** "Destroying source backup entry": marked for immediate deletion, then deleted (nothing to do when gone). */
  async destroySourceBackupEntry(): Promise<void> {
    const key = this.sourceKey();
    const existing = await this.garden.get(BackupEntryKind, key).catch(ignoreNotFound);
    if (!existing) return;
    await this.garden
      .patch(BackupEntryKind, key, {
        type: 'merge',
        patch: { metadata: { annotations: { [ForceDeletionAnnotation]: 'true' } } },
      })
      .catch(ignoreNotFound);
    await this.garden.delete(BackupEntryKind, key).catch(ignoreNotFound);
  }

  /** "Waiting until source backup entry has been deleted". */
  async waitForSourceBackupEntryDeleted(signal: AbortSignal): Promise<void> {
    const key = this.sourceKey();
    await pollUntil(
      `BackupEntry ${key.namespace}/${key.name}`,
      async () => ((await this.garden.get(BackupEntryKind, key).catch(ignoreNotFound)) ? 'still exists' : undefined),
      this.options.backupEntryWait ?? DefaultBackupEntryWait,
      signal,
    );
  }

  // A Secret's base64 `bucketName`; throws naming the Secret when it is missing or has none.
  private async bucketOf(name: string): Promise<string> {
    const secret = await this.seed.get(Kinds.Secret, { namespace: this.values.namespace, name });
    const bucket = (secret as { data?: Record<string, string> }).data?.bucketName;
    if (!bucket) throw new Error(`Secret ${this.values.namespace}/${name} has no bucketName`);
    return Buffer.from(bucket, 'base64').toString('utf8');
  }

  /**
   * "Copying etcd backups to new seed's backup bucket": a task of an earlier attempt deleted and waited for, then the
   * task created from the source extension BackupEntry and both `etcd-backup` Secrets.
   */
  async deployCopyTask(signal: AbortSignal): Promise<void> {
    await this.destroyCopyTask();
    await pollUntil(
      `EtcdCopyBackupsTask ${this.taskKey.namespace}/${this.taskKey.name}`,
      async () =>
        (await this.seed.get(EtcdCopyBackupsTaskKind, this.taskKey).catch(ignoreNotFound)) ? 'still exists' : undefined,
      this.options.copyWait ?? DefaultEtcdCopyBackupsTaskWait,
      signal,
    );
    const entryName = this.entryKey().name;
    const sourceExtension = await this.seed.get(ExtensionBackupEntryKind, { name: sourceBackupEntryName(entryName) });
    const seedBackup = this.values.seed.spec.backup!;
    const task = renderEtcdCopyBackupsTask(this.values, {
      sourceProvider: String(sourceExtension.spec.type ?? ''),
      sourceContainer: await this.bucketOf(`${BackupSourcePrefix}-${EtcdBackupSecretName}`),
      targetProvider: seedBackup.provider,
      targetContainer: await this.bucketOf(EtcdBackupSecretName),
      prefix: `${entryName}/${etcdName('main')}`,
    });
    await this.seed.create(task as KubernetesObject);
  }

  /** "Waiting until etcd backups are copied": the task Succeeded (Failed fails the wait at once). */
  async waitForCopyTask(signal: AbortSignal): Promise<void> {
    await pollUntil(
      `EtcdCopyBackupsTask ${this.taskKey.namespace}/${this.taskKey.name}`,
      async () => copyTaskNotDone(await this.seed.get(EtcdCopyBackupsTaskKind, this.taskKey).catch(ignoreNotFound)),
      this.options.copyWait ?? DefaultEtcdCopyBackupsTaskWait,
      signal,
    );
  }

  /** "Destroying copy etcd backups task resource". */
  async destroyCopyTask(): Promise<void> {
    await this.seed.delete(EtcdCopyBackupsTaskKind, this.taskKey).catch(ignoreNotFound);
  }
}

/** The reconcile flow's copy steps over one {@link EtcdCopyBackupsSteps}. */
export function etcdCopyBackupsReconcileSteps(
  s: EtcdCopyBackupsSteps,
): Pick<
  ReconcileSteps,
  | 'deploySourceBackupEntry'
  | 'waitForSourceBackupEntry'
  | 'copyEtcdBackups'
  | 'waitForEtcdBackupsCopied'
  | 'destroyEtcdCopyBackupsTask'
  | 'destroySourceBackupEntry'
  | 'waitForSourceBackupEntryDeleted'
> {
  return {
    deploySourceBackupEntry: () => s.deploySourceBackupEntry(),
    waitForSourceBackupEntry: (signal) => s.waitForSourceBackupEntry(signal),
    copyEtcdBackups: (signal) => s.deployCopyTask(signal),
    waitForEtcdBackupsCopied: (signal) => s.waitForCopyTask(signal),
    destroyEtcdCopyBackupsTask: () => s.destroyCopyTask(),
    destroySourceBackupEntry: () => s.destroySourceBackupEntry(),
    waitForSourceBackupEntryDeleted: (signal) => s.waitForSourceBackupEntryDeleted(signal),
  };
}
