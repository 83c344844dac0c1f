// The shoot's core BackupEntry in a control plane migration (Gardener's `component/garden/backupentry` Migrate,
// WaitMigrate and Restore, and `botanist.DeployBackupEntry` in the restore phase). In the source seed's migrate flow,
// "Migrating BackupEntry to new seed" moves the entry's `spec.seedName` to the destination with a `migrate` request,
// and "Waiting for BackupEntry to be migrated to new seed" polls it until the source's BackupEntry controller reports
// Migrate Succeeded and has released it (`status.seedName` cleared, the request removed). In the destination's restore,
// "Deploying backup entry" writes the entry with a `restore` request (in the destination seed's bucket when the
// botanist names it: etcd's backups are copied there by etcd-copy-backups-steps) and "Waiting until the backup entry
// has been reconciled" waits for the destination's controller to report that request Succeeded.
import { Annotations, corev1beta1, LastOperationType, Operations } from '@gardener-ts/api';
import { ignoreNotFound, kindFrom, type Client } from '@gardener-ts/controller-runtime';
import { renderBackupEntry } from '../component/extensions.js';
import type { ShootValues } from '../component/values.js';
import { backupBucketName, backupEntryNotReady, DefaultBackupEntryWait } from './backupentry-steps.js';
import { pollUntil, type BotanistWait } from './poll.js';

const BackupEntryKind = kindFrom<corev1beta1.BackupEntry>(corev1beta1.BackupEntryKind);

/** Whether the entry is on its way to or arrived at `destination` and no seed runs it any longer (pure). */
export function isMigratedTo(entry: corev1beta1.BackupEntry, destination: string): boolean {
  return entry.spec.seedName === destination && !entry.status?.seedName;
}

/**
 * Why the core BackupEntry is not migrated to `destination` for the request of `timestamp` yet, or undefined when it
 * is (pure): `spec.seedName` is the destination, the source released it (`status.seedName` cleared), the request was
 * acted on, the generation observed and the last operation a Migrate Succeeded no older than the request; the
 * entry's lastError appended.
 */
export function backupEntryNotMigrated(
  entry: corev1beta1.BackupEntry,
  destination: string,
  timestamp?: string,
): string | undefined {
  const name = `BackupEntry ${entry.metadata?.namespace}/${entry.metadata?.name}`;
  if (entry.spec.seedName !== destination)
    return `${name}: spec.seedName is ${entry.spec.seedName}, not ${destination}`;
  const notReady = backupEntryNotReady(entry, timestamp);
  if (notReady) return notReady;
  const last = entry.status?.lastOperation;
  if (last?.type !== LastOperationType.Migrate) return `${name}: last operation is ${last?.type}, not Migrate`;
  if (entry.status?.seedName) return `${name}: still runs on seed ${entry.status.seedName}`;
  return undefined;
}

/** The BackupEntry steps of a migration (they remember the request they made). */
export class BackupEntryMigrationSteps {
  private requested: string | undefined;

  constructor(
    private readonly garden: Pick<Client, 'get' | 'create' | 'patch'>,
    private readonly values: ShootValues,
    private readonly options: { now?: () => Date; wait?: BotanistWait } = {},
  ) {}

  private now(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }

  // The entry rendered for this shoot and seed; undefined when the seed has no backup (then there is no entry).
  private render(bucketName: string, now?: string): corev1beta1.BackupEntry | undefined {
    return renderBackupEntry(this.values, { bucketName, ...(now ? { now } : {}) });
  }

  private key(): { namespace: string | undefined; name: string } | undefined {
    const entry = this.render('');
    return entry ? { namespace: entry.metadata?.namespace, name: entry.metadata?.name ?? '' } : undefined;
  }

  private destination(): string {
    const destination = this.values.shoot.spec.seedName;
    if (!destination) throw new Error(`shoot ${this.values.namespace} has no spec.seedName to migrate to`);
    return destination;
  }

  /**
   * "Migrating BackupEntry to new seed": sets the entry's `spec.seedName` to the shoot's and asks to `migrate`. Nothing
   * to do without an entry or when it is migrated already (a migration that is retried).
   */
  async migrate(): Promise<void> {
    const key = this.key();
    const entry = key && (await this.garden.get(BackupEntryKind, key).catch(ignoreNotFound));
    const destination = this.destination();
    if (!key || !entry || isMigratedTo(entry, destination)) return;
    const now = this.now();
    await this.garden.patch(BackupEntryKind, key, {
      type: 'merge',
      patch: {
        metadata: {
          annotations: {
            [Annotations.GardenerOperation]: Operations.OperationMigrate,
            [Annotations.GardenerTimestamp]: now,
          },
        },
        spec: { seedName: destination },
      },
    });
    this.requested = now;
  }

  /** "Waiting for BackupEntry to be migrated to new seed": Migrate Succeeded and released, or gone. */
  async waitUntilMigrated(signal: AbortSignal): Promise<void> {
    const key = this.key();
    if (!key) return;
    const destination = this.destination();
    const timestamp = this.requested;
    await pollUntil(
      `BackupEntry ${key.namespace}/${key.name}`,
      async () => {
        const entry = await this.garden.get(BackupEntryKind, key).catch(ignoreNotFound);
        // Without a request of this run the entry was migrated before (or never existed): released is enough.
        if (!entry || (timestamp === undefined && isMigratedTo(entry, destination))) return undefined;
        return backupEntryNotMigrated(entry, destination, timestamp);
      },
      this.options.wait ?? DefaultBackupEntryWait,
      signal,
    );
  }

  /**
   * "Deploying backup entry" of a restore: creates the entry, or updates it, for this seed with a `restore` request
   * (Gardener's `Restore`) — in `bucketName` when given (the destination seed's bucket, etcd's backups copied there by
   * etcd-copy-backups-steps), else keeping its bucket.
   */
  async restore(bucketName?: string): Promise<void> {
    const key = this.key();
    if (!key) throw new Error(`seed ${this.values.seed.metadata?.name} has no backup (spec.backup)`);
    const existing = await this.garden.get(BackupEntryKind, key).catch(ignoreNotFound);
    const now = this.now();
    const entry = this.render(bucketName ?? existing?.spec.bucketName ?? backupBucketName(this.values.seed), now)!;
    entry.metadata!.annotations = {
      ...entry.metadata?.annotations,
      [Annotations.GardenerOperation]: Operations.OperationRestore,
    };
    if (!existing) {
      await this.garden.create(entry);
    } else {
      await this.garden.patch(BackupEntryKind, key, {
        type: 'merge',
        patch: {
          metadata: { annotations: entry.metadata?.annotations, ownerReferences: entry.metadata?.ownerReferences },
          spec: entry.spec,
        },
      });
    }
    this.requested = now;
  }

  /** "Waiting until the backup entry has been reconciled" after a restore: Succeeded for this run's request. */
  async waitUntilRestored(signal: AbortSignal): Promise<void> {
    const key = this.key();
    if (!key) return;
    const timestamp = this.requested;
    await pollUntil(
      `BackupEntry ${key.namespace}/${key.name}`,
      async () => {
        const entry = await this.garden.get(BackupEntryKind, key).catch(ignoreNotFound);
        if (!entry) return 'does not exist';
        return backupEntryNotReady(entry, timestamp);
      },
      this.options.wait ?? DefaultBackupEntryWait,
      signal,
    );
  }
}
