// provider-local's BackupBucket and BackupEntry actuators (type `local`): a bucket is a directory
// `<backup root>/<bucket name>` on the host, a backup entry the directory `<bucket>/<entry name>` below it (the prefix
// etcd-backup-restore writes to). Deleting a BackupEntry removes its directory, deleting a BackupBucket the bucket's.
// The backup root is provider-local's `--local-backupbucket-dir` (Gardener's default /etc/gardener/local-backupbuckets).
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  GenericBackupEntryActuator,
  deleteGeneratedBucketSecret,
  ensureGeneratedBucketSecret,
  type Actuator,
  type ActuatorContext,
  type ActuatorResult,
  type ExtensionObject,
} from '@gardener-ts/extensions';

const FieldOwner = 'provider-local';

/** Gardener's default directory of local backup buckets. */
export const DefaultBackupBucketDir = '/etc/gardener/local-backupbuckets';

const safeName = (kind: string, name: string | undefined): string => {
  if (!name || name.includes('/') || name === '.' || name === '..')
    throw new Error(`${kind} name ${JSON.stringify(name)} cannot name a directory`);
  return name;
};

/** The directory of a bucket. */
export function bucketDirectory(root: string, bucketName: string | undefined): string {
  return join(root, safeName('bucket', bucketName));
}

/** The directory of a backup entry. */
export function entryDirectory(root: string, bucketName: string | undefined, entryName: string | undefined): string {
  return join(bucketDirectory(root, bucketName), safeName('BackupEntry', entryName));
}

/** A BackupBucket is a directory; its generated Secret (empty: the directory needs no credentials) is reported. */
export class BackupBucketActuator implements Actuator {
  constructor(private readonly root: string = DefaultBackupBucketDir) {}

  async reconcile(ctx: ActuatorContext, bucket: ExtensionObject): Promise<ActuatorResult> {
    await mkdir(bucketDirectory(this.root, bucket.metadata?.name), { recursive: true, mode: 0o755 });
    return ensureGeneratedBucketSecret(ctx, bucket, {}, FieldOwner);
  }

  async delete(ctx: ActuatorContext, bucket: ExtensionObject): Promise<void> {
    await deleteGeneratedBucketSecret(ctx, bucket);
    await rm(bucketDirectory(this.root, bucket.metadata?.name), { recursive: true, force: true });
  }

  /** The directory stays on the host; the new seed's provider-local uses its own. */
  async migrate(): Promise<void> {}

  async restore(ctx: ActuatorContext, bucket: ExtensionObject): Promise<ActuatorResult> {
    return this.reconcile(ctx, bucket);
  }
}

/** The key of `etcd-backup` naming the backup root on the host (Gardener's provider-local: `hostPath`). */
export const EtcdBackupHostPathKey = 'hostPath';

/**
 * A BackupEntry is a directory in its bucket (created here, so that it exists before etcd writes to it); the SDK's
 * generic actuator deploys `etcd-backup` into the shoot namespace, completed with the backup root.
 */
export function backupEntryActuator(root: string = DefaultBackupBucketDir): Actuator {
  const entryDir = (entry: ExtensionObject) =>
    entryDirectory(
      root,
      entry.spec.bucketName as string | undefined,
      (entry.metadata?.name ?? '').replace(/^source-/, ''),
    );
  const generic = new GenericBackupEntryActuator(
    {
      etcdSecretData: async (_ctx, _entry, data) => ({
        ...data,
        [EtcdBackupHostPathKey]: Buffer.from(root).toString('base64'),
      }),
      delete: async (_ctx, entry) => rm(entryDir(entry), { recursive: true, force: true }),
    },
    FieldOwner,
  );
  return {
    async reconcile(ctx, entry) {
      await mkdir(entryDir(entry), { recursive: true, mode: 0o755 });
      await generic.reconcile(ctx, entry);
    },
    delete: (ctx, entry) => generic.delete(ctx, entry),
    migrate: () => generic.migrate(),
    async restore(ctx, entry) {
      await this.reconcile(ctx, entry);
    },
  };
}
