// The BackupBucket reconciler (Gardener pkg/gardenlet/controller/backupbucket): for the core BackupBuckets of this
// seed, the `gardener` finalizer on the bucket and `gardener.cloud/gardener` on its credentials Secret, the credentials
// copied into the seed as `garden/bucket-<name>`, the extension BackupBucket of the same name with a reconcile request,
// its last operation mirrored to the core bucket's status, and once it succeeded its generated Secret copied back to
// `garden/generated-bucket-<name>` in the garden and its providerStatus. Deletion in Gardener's order: the generated
// Secret, the extension BackupBucket (confirmed, waited for until gone), the seed Secret, the credentials' finalizer,
// the bucket's finalizer.
import { Annotations, Finalizers } from '@gardener-ts/api';
import {
  addFinalizer,
  CodedError,
  hasFinalizer,
  ignoreNotFound,
  isNotFound,
  Kinds,
  removeFinalizer,
  systemClock,
  wrapError,
  type Client,
  type ReconcileResult,
  type Request,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { FIELD_MANAGER, GARDEN_NAMESPACE } from '../../constants.js';
import {
  BackupBucketKind,
  ExtensionBackupBucketKind,
  type CoreBackupBucket,
  type ExtensionBackupBucket,
} from './kinds.js';
import {
  credentialsSecretKey,
  extensionBackupBucketSpec,
  extensionSecretName,
  GENERATED_SECRET_FINALIZER,
  generatedSecretName,
  parseRequestTimestamp,
  renderExtensionBackupBucket,
  renderExtensionSecret,
  renderGeneratedSecret,
  sameData,
  type SecretData,
  type SecretObject,
} from './objects.js';
import {
  bucketOperationType,
  errorStatus,
  observeExtension,
  operationStartStatus,
  succeededStatus,
  type BucketError,
  type BucketOperationType,
} from './status.js';

/** How long a deletion waits before it looks at the extension BackupBucket again (Gardener: 5 s). */
export const DELETION_REQUEUE_MS = 5_000;

export interface BackupBucketReconcilerDeps {
  /** Garden client: the core BackupBuckets, their credentials and generated Secrets. */
  garden: Pick<Client, 'get' | 'patch' | 'delete'>;
  /** Seed client: the extension BackupBuckets and the Secrets in the seed's garden namespace. */
  seed: Pick<Client, 'get' | 'patch' | 'delete'>;
  seedName: string;
  /** The namespace of the copied Secrets, in garden and seed (default `garden`). */
  gardenNamespace?: string;
  clock?: WallClock;
}

type SecretWithData = SecretObject & { data?: SecretData };

/** Reconciles this seed's core BackupBuckets into extension BackupBuckets in the seed. */
export class BackupBucketReconciler {
  constructor(private readonly deps: BackupBucketReconcilerDeps) {}

  private get namespace(): string {
    return this.deps.gardenNamespace ?? GARDEN_NAMESPACE;
  }

  private now(): Date {
    return (this.deps.clock ?? systemClock).now();
  }

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const bucket = await this.deps.garden.get(BackupBucketKind, { name: req.name }).catch(ignoreNotFound);
    if (!bucket || bucket.spec.seedName !== this.deps.seedName) return;
    if (bucket.metadata?.deletionTimestamp) return this.delete(bucket);
    await this.reconcileBucket(bucket);
  }

  private async reconcileBucket(original: CoreBackupBucket): Promise<void> {
    const { garden, seed } = this.deps;
    const name = original.metadata!.name!;
    let bucket = await addFinalizer(garden, original, Finalizers.GardenerFinalizer);
    const type = bucketOperationType(bucket);
    bucket = await this.patchStatus(bucket, operationStartStatus(bucket, type, this.now()));

    const credentials = await this.credentials(bucket, type);
    await addFinalizer(garden, credentials, Finalizers.ExternalGardenerFinalizer);

    // The credentials in the seed are rewritten only when they changed: their timestamp tells whether the extension
    // acted on the current ones.
    const seedSecretKey = { namespace: this.namespace, name: extensionSecretName(name) };
    let seedSecret = (await seed.get(Kinds.Secret, seedSecretKey).catch(ignoreNotFound)) as SecretWithData | undefined;
    const secretDataChanged = seedSecret !== undefined && !sameData(seedSecret.data, credentials.data);
    if (!seedSecret || secretDataChanged || !seedSecret.metadata?.annotations?.[Annotations.GardenerTimestamp]) {
      seedSecret = await this.writeSeedSecret(name, credentials.data);
    }
    const secretTimestamp = parseRequestTimestamp(seedSecret.metadata?.annotations?.[Annotations.GardenerTimestamp]);
    if (!secretTimestamp) {
      throw new Error(`Secret ${seedSecretKey.namespace}/${seedSecretKey.name} in the seed has no valid timestamp`);
    }

    const extension = await seed.get(ExtensionBackupBucketKind, { name }).catch(ignoreNotFound);
    const observation = observeExtension({
      name,
      extension,
      desiredSpec: extensionBackupBucketSpec(bucket, this.namespace),
      secretTimestamp,
      secretDataChanged,
    });
    if (observation.succeeded && extension) bucket = await this.syncGeneratedSecret(bucket, extension);
    if (observation.error) {
      bucket = await this.patchStatus(
        bucket,
        errorStatus(type, observation.error.description, observation.error, this.now()),
      );
    }
    if (observation.reconcile) {
      // The core bucket's status follows when the extension reports (its status change triggers a reconcile).
      await this.apply(seed, renderExtensionBackupBucket(bucket, this.namespace, this.now()));
      return;
    }
    if (observation.succeeded) {
      await this.patchStatus(
        bucket,
        succeededStatus(bucket, type, 'Backup Bucket has been successfully reconciled.', this.now()),
      );
    }
  }

  private async delete(bucket: CoreBackupBucket): Promise<ReconcileResult | void> {
    const { garden, seed } = this.deps;
    if (!hasFinalizer(bucket, Finalizers.GardenerFinalizer)) return;
    const name = bucket.metadata!.name!;
    const type = bucketOperationType(bucket);
    let current = await this.patchStatus(bucket, operationStartStatus(bucket, type, this.now()));

    await this.deleteGeneratedSecret(current);
    // The extension needs the credentials to delete the bucket: they are synced once more (if they are still there).
    const read = await this.readCredentials(current);
    const credentials = 'reason' in read ? undefined : read;
    if (credentials) await this.writeSeedSecret(name, credentials.data);

    await this.destroyExtension(name);
    const extension = await seed.get(ExtensionBackupBucketKind, { name }).catch(ignoreNotFound);
    if (extension) {
      const lastError = extension.status?.lastError;
      if (!lastError) return { requeueAfter: DELETION_REQUEUE_MS };
      const error: BucketError = { description: lastError.description, codes: lastError.codes };
      await this.patchStatus(
        current,
        errorStatus(type, `${lastError.description} Operation will be retried.`, error, this.now()),
      );
      throw new CodedError(`extension BackupBucket ${name}: ${lastError.description}`, lastError.codes ?? []);
    }

    await seed
      .delete(Kinds.Secret, { namespace: this.namespace, name: extensionSecretName(name) })
      .catch(ignoreNotFound);
    current = await this.patchStatus(
      current,
      succeededStatus(current, type, 'Backup Bucket has been successfully deleted.', this.now()),
    );
    if (credentials) await removeFinalizer(garden, credentials, Finalizers.ExternalGardenerFinalizer);
    await removeFinalizer(garden, current, Finalizers.GardenerFinalizer);
  }

  /** The credentials Secret of `spec.credentialsRef`, or why it cannot be read (naming the field). */
  private async readCredentials(bucket: CoreBackupBucket): Promise<SecretWithData | { reason: string }> {
    const key = credentialsSecretKey(bucket);
    if ('reason' in key) return key;
    const secret = await this.deps.garden.get(Kinds.Secret, key).catch(ignoreNotFound);
    return secret
      ? (secret as SecretWithData)
      : { reason: `Secret ${key.namespace}/${key.name} of spec.credentialsRef not found` };
  }

  /**
   * The credentials Secret; a reference that is not a Secret or a Secret that is missing is reported as lastError and
   * thrown (retried with back-off).
   */
  private async credentials(bucket: CoreBackupBucket, type: BucketOperationType): Promise<SecretWithData> {
    const credentials = await this.readCredentials(bucket);
    if (!('reason' in credentials)) return credentials;
    const description = `BackupBucket ${bucket.metadata!.name}: ${credentials.reason}`;
    await this.patchStatus(bucket, errorStatus(type, description, { description }, this.now()));
    throw new Error(description);
  }

  /** Copies the extension's generated Secret to `garden/generated-bucket-<name>` and its providerStatus. */
  private async syncGeneratedSecret(
    bucket: CoreBackupBucket,
    extension: ExtensionBackupBucket,
  ): Promise<CoreBackupBucket> {
    let current = bucket;
    const ref = extension.status?.generatedSecretRef;
    if (ref?.name) {
      const target = { name: generatedSecretName(bucket.metadata!.name!), namespace: this.namespace };
      // The reference is written first: it is what lets the gardenlet reach the Secret (Gardener issue 7705).
      current = await this.patchStatus(current, { generatedSecretRef: target });
      const generated = (await this.deps.seed.get(Kinds.Secret, {
        name: ref.name,
        namespace: ref.namespace ?? this.namespace,
      })) as SecretWithData;
      await this.apply(this.deps.garden, renderGeneratedSecret(current, this.namespace, generated.data));
    }
    if (extension.status?.providerStatus) {
      current = await this.patchStatus(current, { providerStatus: extension.status.providerStatus });
    }
    return current;
  }

  private async deleteGeneratedSecret(bucket: CoreBackupBucket): Promise<void> {
    const ref = bucket.status?.generatedSecretRef;
    if (!ref?.name) return;
    const key = { name: ref.name, namespace: ref.namespace ?? this.namespace };
    const secret = await this.deps.garden.get(Kinds.Secret, key).catch(ignoreNotFound);
    if (!secret) return;
    await removeFinalizer(this.deps.garden, secret, GENERATED_SECRET_FINALIZER);
    await this.deps.garden.delete(Kinds.Secret, key).catch(ignoreNotFound);
  }

  /** Confirms the deletion of the extension BackupBucket (the seed's webhook demands it) and deletes it. */
  private async destroyExtension(name: string): Promise<void> {
    const { seed } = this.deps;
    try {
      await seed.patch(
        ExtensionBackupBucketKind,
        { name },
        { type: 'merge', patch: { metadata: { annotations: { [Annotations.ConfirmationDeletion]: 'true' } } } },
      );
      await seed.delete(ExtensionBackupBucketKind, { name });
    } catch (err) {
      if (isNotFound(err)) return;
      throw wrapError(err, `deleting extension BackupBucket ${name}`);
    }
  }

  private writeSeedSecret(bucketName: string, data: SecretData | undefined): Promise<SecretWithData> {
    return this.apply(this.deps.seed, renderExtensionSecret(bucketName, this.namespace, data, this.now()));
  }

  /** Server-side applies `obj` as the gardenlet. */
  private async apply<T extends SecretObject>(client: Pick<Client, 'patch'>, obj: T): Promise<T> {
    const kind = obj.kind === 'Secret' ? Kinds.Secret : ExtensionBackupBucketKind;
    try {
      return (await client.patch(
        kind,
        { name: obj.metadata!.name!, namespace: obj.metadata?.namespace },
        { type: 'apply', patch: obj as unknown as Record<string, unknown>, fieldManager: FIELD_MANAGER, force: true },
      )) as unknown as T;
    } catch (err) {
      throw wrapError(
        err,
        `writing ${obj.kind} ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name}`,
      );
    }
  }

  private async patchStatus(bucket: CoreBackupBucket, status: Record<string, unknown>): Promise<CoreBackupBucket> {
    try {
      return await this.deps.garden.patch(
        BackupBucketKind,
        { name: bucket.metadata!.name! },
        { type: 'merge', patch: { status } },
        { subresource: 'status' },
      );
    } catch (err) {
      throw wrapError(err, `updating the status of BackupBucket ${bucket.metadata?.name}`);
    }
  }
}
