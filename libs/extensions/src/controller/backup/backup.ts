// What the extension contract asks of every backup provider, so that extension authors write only the store part
// (Gardener's extensions/pkg/controller/backupbucket/util.go and backupentry/genericactuator):
// - a BackupBucket reports a generated Secret (`generated-bucket-<name>` in the seed's `garden` namespace), which
//   gardenlet copies back into the garden and hands to the bucket's BackupEntries;
// - a BackupEntry deploys the Secret etcd's backup sidecar reads, `etcd-backup` in the shoot's namespace (the entry's
//   name is `[source-]<technical ID>--<shoot UID>`; a `source-` entry deploys `source-etcd-backup`): the entry
//   Secret's data plus `bucketName`, completed by the provider, annotated with the entry that created it. It is not
//   deployed while that namespace is missing or being deleted; deleting the entry deletes it unless another entry
//   created it.
import { Kinds, isNotFound, type Secret } from '@gardener-ts/controller-runtime';
import type { Actuator, ActuatorContext, ActuatorResult } from '../generic/actuator.js';
import { shootTechnicalIDOfBackupEntry, type ExtensionObject } from '../generic/kinds.js';

/** The seed namespace of generated bucket Secrets. */
export const GeneratedSecretNamespace = 'garden';
/** Prefix of a bucket's generated Secret. */
export const GeneratedBackupBucketSecretPrefix = 'generated-bucket-';
/** The Secret etcd's backup sidecar reads in a shoot namespace. */
export const EtcdBackupSecretName = 'etcd-backup';
/** The `etcd-backup` key naming the bucket. */
export const BackupBucketNameKey = 'bucketName';
/** Annotation of the `etcd-backup` Secret naming the BackupEntry that created it. */
export const CreatedByBackupEntryAnnotation = 'backup.gardener.cloud/created-by';
/** Name prefix of the BackupEntry (and its `etcd-backup` Secret) of a shoot's source seed during a migration. */
export const BackupSourcePrefix = 'source';

/** Where a BackupEntry's etcd backup Secret lives: `[source-]etcd-backup` in the shoot namespace, if it has one. */
export function etcdBackupSecretRef(entryName: string): { name: string; namespace: string } | undefined {
  const namespace = shootTechnicalIDOfBackupEntry(entryName);
  if (namespace === undefined) return undefined;
  const source = entryName.startsWith(`${BackupSourcePrefix}-`);
  return { name: source ? `${BackupSourcePrefix}-${EtcdBackupSecretName}` : EtcdBackupSecretName, namespace };
}

const applySecret = (ctx: ActuatorContext, secret: Secret, fieldManager: string) =>
  ctx.client.patch(
    Kinds.Secret,
    { namespace: secret.metadata?.namespace, name: secret.metadata?.name ?? '' },
    { type: 'apply', patch: secret as Record<string, unknown>, fieldManager, force: true },
  );

/** Where a bucket's generated Secret lives. */
export function generatedBucketSecretRef(bucket: ExtensionObject): { name: string; namespace: string } {
  return {
    name: GeneratedBackupBucketSecretPrefix + (bucket.metadata?.name ?? ''),
    namespace: GeneratedSecretNamespace,
  };
}

/**
 * Ensures the bucket's generated Secret exists with `data` (base64 values, may be empty) and returns the status
 * fragment that reports it (`status.generatedSecretRef`).
 */
export async function ensureGeneratedBucketSecret(
  ctx: ActuatorContext,
  bucket: ExtensionObject,
  data: Record<string, string> = {},
  fieldManager = 'gardener-extension',
): Promise<ActuatorResult> {
  const ref = generatedBucketSecretRef(bucket);
  await applySecret(
    ctx,
    { apiVersion: 'v1', kind: 'Secret', metadata: { ...ref }, type: 'Opaque', data },
    fieldManager,
  );
  return { status: { generatedSecretRef: ref } };
}

/** Deletes the bucket's generated Secret (named by its status, else by the rule). */
export async function deleteGeneratedBucketSecret(ctx: ActuatorContext, bucket: ExtensionObject): Promise<void> {
  const ref = (bucket.status?.generatedSecretRef as { name?: string; namespace?: string } | undefined) ?? {};
  const fallback = generatedBucketSecretRef(bucket);
  await ctx.client
    .delete(Kinds.Secret, { name: ref.name ?? fallback.name, namespace: ref.namespace ?? fallback.namespace })
    .catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
}

/** The provider's part of a BackupEntry (Gardener's `BackupEntryDelegate`). */
export interface BackupEntryDelegate {
  /** Completes the `etcd-backup` data (base64 values): the entry Secret's data plus `bucketName`. */
  etcdSecretData(
    ctx: ActuatorContext,
    entry: ExtensionObject,
    data: Record<string, string>,
  ): Promise<Record<string, string>>;
  /** Deletes the entry's data in the store. */
  delete(ctx: ActuatorContext, entry: ExtensionObject): Promise<void>;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/**
 * The BackupEntry actuator every provider shares (Gardener's generic actuator): reconcile deploys `etcd-backup`,
 * delete removes it (unless another entry created it) and calls the delegate, migrate keeps everything, restore
 * reconciles.
 */
export class GenericBackupEntryActuator implements Actuator {
  constructor(
    private readonly delegate: BackupEntryDelegate,
    private readonly fieldManager = 'gardener-extension',
  ) {}

  async reconcile(ctx: ActuatorContext, entry: ExtensionObject): Promise<void> {
    const entryName = entry.metadata?.name ?? '';
    const target = etcdBackupSecretRef(entryName);
    if (target === undefined) return;
    const namespace = target.namespace;
    const ns = await ctx.client.get(Kinds.Namespace, { name: namespace }).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (ns === undefined || ns.metadata?.deletionTimestamp) {
      ctx.log.info({ namespace }, 'shoot namespace missing or terminating: etcd backup secret not deployed');
      return;
    }
    const ref = entry.spec.secretRef as { name?: string; namespace?: string } | undefined;
    if (!ref?.name) throw new Error(`BackupEntry ${entry.metadata?.name} has no spec.secretRef`);
    const secret = await ctx.client.get(Kinds.Secret, { name: ref.name, namespace: ref.namespace });
    const data = await this.delegate.etcdSecretData(ctx, entry, {
      ...(secret.data ?? {}),
      [BackupBucketNameKey]: b64(String(entry.spec.bucketName ?? '')),
    });
    await applySecret(
      ctx,
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { ...target, annotations: { [CreatedByBackupEntryAnnotation]: entryName } },
        type: 'Opaque',
        data,
      },
      this.fieldManager,
    );
  }

  async delete(ctx: ActuatorContext, entry: ExtensionObject): Promise<void> {
    await this.deleteEtcdBackupSecret(ctx, entry.metadata?.name ?? '');
    await this.delegate.delete(ctx, entry);
  }

  /** Deletes the entry's `etcd-backup` Secret, unless it is gone or was created by another entry. */
  private async deleteEtcdBackupSecret(ctx: ActuatorContext, entryName: string): Promise<void> {
    const target = etcdBackupSecretRef(entryName);
    if (target === undefined) return;
    const secret = await ctx.client.get(Kinds.Secret, target).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (secret === undefined) return;
    const createdBy = secret.metadata?.annotations?.[CreatedByBackupEntryAnnotation];
    if (createdBy !== undefined && createdBy !== entryName) {
      ctx.log.info({ createdBy }, 'etcd backup secret was created by another BackupEntry: not deleted');
      return;
    }
    await ctx.client.delete(Kinds.Secret, target).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }

  async migrate(): Promise<void> {}

  async restore(ctx: ActuatorContext, entry: ExtensionObject): Promise<void> {
    await this.reconcile(ctx, entry);
  }
}
