// The BackupEntry reconciler (Gardener pkg/gardenlet/controller/backupentry/reconciler.go): for the core BackupEntries
// of this seed, the `gardener` finalizer; the referenced BackupBucket must be reconciled (else lastError names it);
// the bucket's credentials copied into the seed as `garden/entry-<name>` and the extension BackupEntry deployed with a
// reconcile request; its lastOperation/lastError mirrored to the core entry, and the entry's own
// `gardener.cloud/operation` request removed once it succeeded. A deleted entry waits for its grace period
// (`controllers.backupEntry.deletionGracePeriodHours`, per shoot purpose), then the extension BackupEntry is deleted
// (confirmed) and waited for, the seed Secret deleted and the finalizer released. Control plane migration: in the
// source seed (`status.seedName`) an entry whose `spec.seedName` moved away or that asks to `migrate` has its extension
// BackupEntry migrated (annotated `migrate`, its Migrate Succeeded waited for, then deleted — the extension keeps the
// backups) and the seed Secret dropped; Migrate Succeeded clears `status.seedName`, handing the entry to the seed of
// `spec.seedName`, which restores it on the `restore` request: the extension BackupEntry written with `wait-for-state`,
// its state from the shoot's ShootState (if it holds one), then annotated `restore`.
import { isDeepStrictEqual } from 'node:util';
import { Annotations, Finalizers, LastOperationType, Operations } from '@gardener-ts/api';
import {
  addFinalizer,
  determineErrorCodes,
  hasFinalizer,
  ignoreNotFound,
  isConflict,
  isNotFound,
  Kinds,
  MAX_CONFLICT_RETRIES,
  messageOf,
  operationOf,
  patchStatus,
  removeFinalizer,
  type Client,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ExtensionResources, GardenletFieldManager } from '../../shoot/extension-resources.js';
import { migrateRequest } from '../../shoot/migrate-steps.js';
import { extensionStateFor } from '../../shoot/shootstate.js';
import { ShootStateKind } from '../../shoot/shootstate-writer.js';
import { deletionSchedule, type GracePeriodConfig } from './grace-period.js';
import {
  BackupBucketKind,
  BackupEntryKind,
  ExtensionBackupEntryKind,
  type BackupBucket,
  type BackupEntry,
} from './kinds.js';
import {
  bucketSecretRef,
  extensionSpec,
  renderExtensionBackupEntry,
  renderSeedSecret,
  SeedSecretNamespace,
  seedSecretName,
  secretUpdatedAt,
} from './objects.js';
import {
  bucketNotReady,
  errorStatus,
  extensionVerdict,
  migrationVerdict,
  operationStartStatus,
  pendingDeletionStatus,
  succeededStatus,
  operationType,
} from './status.js';

/** How long until a deletion still in progress is looked at again (Gardener's 5 s). */
export const RequeueWhileDeleting = 5_000;
/** How long until an entry whose BackupBucket is not ready is looked at again (the bucket's watch is faster). */
export const RequeueWhileBucketNotReady = 30_000;

/** What the reconciler needs. */
export interface BackupEntryReconcilerDeps {
  garden: Pick<Client, 'get' | 'patch'>;
  seed: Pick<Client, 'get' | 'patch' | 'delete'>;
  seedName: string;
  config: GracePeriodConfig;
  now?: () => Date;
}

const keyOf = (entry: BackupEntry) => ({ namespace: entry.metadata?.namespace, name: entry.metadata?.name ?? '' });

/** The seed responsible for an entry (Gardener's `GetResponsibleSeedName`): the one it runs on, else the one wanted. */
export function responsibleSeed(entry: BackupEntry): string | undefined {
  if (!entry.spec.seedName) return undefined;
  return entry.status?.seedName || entry.spec.seedName;
}

/**
 * Whether the entry is to be migrated away from the seed it runs on (pure): it runs on a seed (`status.seedName`) and
 * `spec.seedName` names another one (Gardener's `shouldMigrateBackupEntry`) or it asks to `migrate`.
 */
export function shouldMigrate(entry: BackupEntry): boolean {
  const running = entry.status?.seedName;
  if (!running || !entry.spec.seedName) return false;
  return entry.spec.seedName !== running || operationOf(entry) === Operations.OperationMigrate;
}

/** The name of the Shoot owning the entry (its owner reference of kind Shoot), if any. */
function shootNameOf(entry: BackupEntry): string | undefined {
  return entry.metadata?.ownerReferences?.find((ref) => ref.kind === 'Shoot')?.name;
}

/** Reconciles this seed's core BackupEntries into extension BackupEntries. */
export class BackupEntryReconciler {
  private readonly resources: ExtensionResources;

  constructor(private readonly deps: BackupEntryReconcilerDeps) {
    this.resources = new ExtensionResources(deps.seed);
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const entry = await this.deps.garden
      .get(BackupEntryKind, { namespace: req.namespace, name: req.name })
      .catch(ignoreNotFound);
    if (!entry || responsibleSeed(entry) !== this.deps.seedName) return;
    if (entry.metadata?.deletionTimestamp) return this.delete(entry, ctx);
    if (shouldMigrate(entry)) return this.migrate(entry, ctx);
    return this.apply(entry);
  }

  // The reconcile branch: finalizer, Processing, the bucket, the seed Secret, the extension BackupEntry and its state.
  private async apply(original: BackupEntry): Promise<ReconcileResult | void> {
    const { garden } = this.deps;
    let entry = await addFinalizer(garden, original, Finalizers.GardenerFinalizer);
    // A `migrate` request on an entry no seed runs (nothing to migrate here) is reconciled: its Migrate Succeeded
    // would hand the entry on (clear status.seedName).
    const computed = operationType(entry);
    const type = computed === LastOperationType.Migrate ? LastOperationType.Reconcile : computed;
    entry = await patchStatus(garden, entry, operationStartStatus(entry, type, this.now()));
    try {
      const bucket = await this.readyBucket(entry, type);
      if (!bucket) return { requeueAfter: RequeueWhileBucketNotReady };
      const { updatedAt, dataChanged } = await this.ensureSeedSecret(entry, bucket);
      const current = await this.deps.seed
        .get(ExtensionBackupEntryKind, { name: entry.metadata?.name ?? '' })
        .catch(ignoreNotFound);
      const verdict = extensionVerdict(current, extensionSpec(entry, bucket), updatedAt);
      if (verdict.error) entry = await patchStatus(garden, entry, errorStatus(type, verdict.error, this.now()));
      if (dataChanged || verdict.deploy) {
        // The extension's status update brings the entry back here (the controller watches the extension resource).
        if (type === LastOperationType.Restore) await this.restoreExtension(entry, bucket);
        else await this.resources.deploy(renderExtensionBackupEntry(entry, bucket, this.now()));
        return;
      }
      if (!verdict.succeeded) return;
      entry = await patchStatus(garden, entry, succeededStatus(type, this.now()));
      // The request is done: without gardener-apiserver's strategy (which drops `reconcile` and bumps the generation)
      // the controller removes it, as it removes `restore` in Gardener.
      const operation = operationOf(entry);
      if (
        operation === Operations.OperationReconcile ||
        operation === Operations.OperationRestore ||
        operation === Operations.OperationMigrate
      ) {
        await this.removeRequest(entry);
      }
    } catch (err) {
      await this.reportError(entry, type, err);
      throw err;
    }
  }

  // The deletion branch: Pending until the grace period passed, then the extension BackupEntry, the Secret, the finalizer.
  private async delete(original: BackupEntry, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const { garden, seed } = this.deps;
    if (!hasFinalizer(original, Finalizers.GardenerFinalizer)) return;
    const schedule = deletionSchedule(original, this.deps.config, this.now());
    if (!schedule.due) {
      await patchStatus(garden, original, pendingDeletionStatus(original, schedule.at, this.now()));
      return { requeueAfter: schedule.requeueAfterMs };
    }
    const type = operationType(original);
    let entry = await patchStatus(garden, original, operationStartStatus(original, type, this.now()));
    const name = entry.metadata?.name ?? '';
    try {
      const bucket = await this.readyBucket(entry, type);
      if (!bucket) return { requeueAfter: RequeueWhileBucketNotReady };
      // The extension needs the credentials to delete the backups.
      await this.ensureSeedSecret(entry, bucket);
      const key = { apiVersion: 'extensions.gardener.cloud/v1alpha1', kind: 'BackupEntry', name };
      await this.resources.destroy(key);
      const current = await seed.get(ExtensionBackupEntryKind, { name }).catch(ignoreNotFound);
      if (current) {
        const lastError = current.status?.lastError;
        if (lastError) {
          const error = { description: lastError.description, ...(lastError.codes ? { codes: lastError.codes } : {}) };
          entry = await patchStatus(garden, entry, errorStatus(type, error, this.now()));
          throw new Error(`extension BackupEntry ${name}: ${lastError.description}`);
        }
        ctx.log.info({ extensionBackupEntry: name }, 'extension BackupEntry not yet deleted');
        return { requeueAfter: RequeueWhileDeleting };
      }
      await seed
        .delete(Kinds.Secret, { namespace: SeedSecretNamespace, name: seedSecretName(entry) })
        .catch(ignoreNotFound);
      entry = await patchStatus(garden, entry, succeededStatus(type, this.now()));
    } catch (err) {
      await this.reportError(entry, type, err);
      throw err;
    }
    await removeFinalizer(garden, entry, Finalizers.GardenerFinalizer);
  }

  // The migration branch in the source seed: the extension BackupEntry migrated and deleted, the Secret, Migrate Succeeded.
  private async migrate(original: BackupEntry, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const { garden, seed } = this.deps;
    if (!hasFinalizer(original, Finalizers.GardenerFinalizer)) return;
    const type = LastOperationType.Migrate;
    let entry = await patchStatus(garden, original, operationStartStatus(original, type, this.now()));
    const name = entry.metadata?.name ?? '';
    let failure: Error | undefined;
    try {
      const verdict = migrationVerdict(await seed.get(ExtensionBackupEntryKind, { name }).catch(ignoreNotFound));
      switch (verdict.action) {
        case 'request':
          // The extension's answer (lastOperation Migrate) brings the entry back here.
          await seed.patch(ExtensionBackupEntryKind, { name }, { type: 'merge', patch: migrateRequest(this.now()) });
          return;
        case 'wait':
          return;
        case 'delete':
          await this.resources.destroy({ apiVersion: 'extensions.gardener.cloud/v1alpha1', kind: 'BackupEntry', name });
          return { requeueAfter: RequeueWhileDeleting };
        case 'deleting':
          ctx.log.info({ extensionBackupEntry: name }, 'extension BackupEntry not yet deleted');
          return { requeueAfter: RequeueWhileDeleting };
        case 'error':
          entry = await patchStatus(garden, entry, errorStatus(verdict.type, verdict.error, this.now()));
          if (!verdict.retry) return;
          failure = new Error(`extension BackupEntry ${name}: ${verdict.error.description}`);
          break;
        case 'done':
          await seed
            .delete(Kinds.Secret, { namespace: SeedSecretNamespace, name: seedSecretName(entry) })
            .catch(ignoreNotFound);
          entry = await patchStatus(garden, entry, succeededStatus(type, this.now()));
          // The request is done; the seed of spec.seedName is responsible from now on.
          if (operationOf(entry) === Operations.OperationMigrate) await this.removeRequest(entry);
          return;
      }
    } catch (err) {
      await this.reportError(entry, type, err);
      throw err;
    }
    throw failure;
  }

  /**
   * Deploys the extension BackupEntry of a restore (Gardener's `RestoreExtensionWithDeployFunction`): written with
   * `wait-for-state` (its extension leaves it alone), its `status.state`/`status.resources` from the ShootState of the
   * entry's Shoot when that holds one, then annotated `restore` keeping the timestamp.
   */
  private async restoreExtension(entry: BackupEntry, bucket: BackupBucket): Promise<void> {
    const shootName = shootNameOf(entry);
    const namespace = entry.metadata?.namespace ?? '';
    if (!shootName)
      throw new Error(`BackupEntry ${namespace}/${entry.metadata?.name} has no Shoot owner to restore from`);
    const shootState = await this.deps.garden
      .get(ShootStateKind, { namespace, name: shootName })
      .catch((err: unknown) => {
        throw new Error(`reading ShootState ${namespace}/${shootName} to restore the BackupEntry failed`, {
          cause: err,
        });
      });
    const name = entry.metadata?.name ?? '';
    await this.resources.deploy(
      renderExtensionBackupEntry(entry, bucket, this.now(), Operations.OperationWaitForState),
    );
    const state = extensionStateFor(shootState.spec, 'BackupEntry', name);
    if (state) {
      await this.deps.seed.patch(
        ExtensionBackupEntryKind,
        { name },
        { type: 'merge', patch: { status: { state: state.state ?? null, resources: state.resources ?? null } } },
        { subresource: 'status' },
      );
    }
    await this.deps.seed.patch(
      ExtensionBackupEntryKind,
      { name },
      {
        type: 'merge',
        patch: { metadata: { annotations: { [Annotations.GardenerOperation]: Operations.OperationRestore } } },
      },
    );
  }

  // The entry's BackupBucket when it is reconciled; otherwise the reason written as lastError and undefined.
  private async readyBucket(
    entry: BackupEntry,
    type: ReturnType<typeof operationType>,
  ): Promise<BackupBucket | undefined> {
    const name = entry.spec.bucketName;
    const bucket = await this.deps.garden.get(BackupBucketKind, { name }).catch(ignoreNotFound);
    const notReady = bucketNotReady(name, bucket);
    if (!notReady) return bucket;
    await patchStatus(this.deps.garden, entry, errorStatus(type, notReady, this.now()));
    return undefined;
  }

  /**
   * Writes the entry's Secret in the seed when it is missing, has no timestamp or holds other data than the bucket's
   * credentials; returns when its data was written and whether it changed (then the extension reconciles again).
   */
  private async ensureSeedSecret(
    entry: BackupEntry,
    bucket: BackupBucket,
  ): Promise<{ updatedAt: Date | undefined; dataChanged: boolean }> {
    const ref = bucketSecretRef(bucket);
    const credentials = await this.deps.garden.get(Kinds.Secret, ref).catch((err: unknown) => {
      throw new Error(`could not get secret ${ref.namespace}/${ref.name} of BackupBucket ${bucket.metadata?.name}`, {
        cause: err,
      });
    });
    const name = seedSecretName(entry);
    const existing = await this.deps.seed
      .get(Kinds.Secret, { namespace: SeedSecretNamespace, name })
      .catch(ignoreNotFound);
    const dataChanged = existing !== undefined && !isDeepStrictEqual(existing.data ?? {}, credentials.data ?? {});
    const updatedAt = secretUpdatedAt(existing);
    if (existing && !dataChanged && updatedAt) return { updatedAt, dataChanged };
    const now = this.now();
    const secret = renderSeedSecret(entry, credentials.data, now);
    await this.deps.seed.patch(
      Kinds.Secret,
      { namespace: SeedSecretNamespace, name },
      {
        type: 'apply',
        patch: secret as unknown as Record<string, unknown>,
        fieldManager: GardenletFieldManager,
        force: true,
      },
    );
    return { updatedAt: now, dataChanged };
  }

  /**
   * Removes the `gardener.cloud/operation` request this reconcile acted on: only while the request (value and
   * timestamp) is unchanged — a newer request, written meanwhile, stays for the reconcile its update triggers.
   */
  private async removeRequest(entry: BackupEntry): Promise<void> {
    const request = (e: BackupEntry) =>
      `${operationOf(e)}@${e.metadata?.annotations?.[Annotations.GardenerTimestamp] ?? ''}`;
    const acted = request(entry);
    let current = entry;
    for (let attempt = 0; attempt <= MAX_CONFLICT_RETRIES; attempt++) {
      if (request(current) !== acted) return;
      try {
        await this.deps.garden.patch(BackupEntryKind, keyOf(current), {
          type: 'merge',
          patch: {
            metadata: {
              resourceVersion: current.metadata?.resourceVersion,
              annotations: { [Annotations.GardenerOperation]: null },
            },
          },
        });
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err)) throw err;
        const fresh = await this.deps.garden.get(BackupEntryKind, keyOf(current)).catch(ignoreNotFound);
        if (!fresh) return;
        current = fresh;
      }
    }
  }

  private async reportError(entry: BackupEntry, type: ReturnType<typeof operationType>, err: unknown): Promise<void> {
    // The message with its causes, as Go's wrapped errors read.
    const messages: string[] = [];
    for (let e: unknown = err; e !== undefined; e = e instanceof Error ? e.cause : undefined)
      messages.push(messageOf(e));
    const error = { description: messages.join(': '), codes: determineErrorCodes(err) };
    await patchStatus(this.deps.garden, entry, errorStatus(type, error, this.now())).catch(ignoreNotFound);
  }
}
