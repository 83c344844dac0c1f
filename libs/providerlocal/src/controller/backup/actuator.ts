// provider-local's BackupBucket and BackupEntry actuators (type `local`): a bucket is a directory
// `<backup root>/<bucket name>` on the host, a backup entry the directory `<bucket>/<entry name>` below it (the prefix
// etcd-backup-restore writes to). Deleting a BackupEntry removes its directory, deleting a BackupBucket the bucket's.
// The backup root is provider-local's `--local-backupbucket-dir` (Gardener's default /etc/gardener/local-backupbuckets).
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Actuator, ActuatorContext, ExtensionObject } from '@gardener-ts/extensions';

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

/** A BackupBucket is a directory. */
export class BackupBucketActuator implements Actuator {
  constructor(private readonly root: string = DefaultBackupBucketDir) {}

  async reconcile(_ctx: ActuatorContext, bucket: ExtensionObject): Promise<void> {
    await mkdir(bucketDirectory(this.root, bucket.metadata?.name), { recursive: true, mode: 0o755 });
  }

  async delete(_ctx: ActuatorContext, bucket: ExtensionObject): Promise<void> {
    await rm(bucketDirectory(this.root, bucket.metadata?.name), { recursive: true, force: true });
  }

  /** The directory stays on the host; the new seed's provider-local uses its own. */
  async migrate(): Promise<void> {}

  async restore(ctx: ActuatorContext, bucket: ExtensionObject): Promise<void> {
    await this.reconcile(ctx, bucket);
  }
}

/** A BackupEntry is a directory in its bucket. */
export class BackupEntryActuator implements Actuator {
  constructor(private readonly root: string = DefaultBackupBucketDir) {}

  async reconcile(_ctx: ActuatorContext, entry: ExtensionObject): Promise<void> {
    await mkdir(entryDirectory(this.root, entry.spec.bucketName as string | undefined, entry.metadata?.name), {
      recursive: true,
      mode: 0o755,
    });
  }

  async delete(_ctx: ActuatorContext, entry: ExtensionObject): Promise<void> {
    await rm(entryDirectory(this.root, entry.spec.bucketName as string | undefined, entry.metadata?.name), {
      recursive: true,
      force: true,
    });
  }

  async migrate(): Promise<void> {}

  async restore(ctx: ActuatorContext, entry: ExtensionObject): Promise<void> {
    await this.reconcile(ctx, entry);
  }
}
