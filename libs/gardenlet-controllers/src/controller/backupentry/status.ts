// The status of a core BackupEntry as Gardener's BackupEntry controller writes it (pure): the operation type
// (`v1beta1helper.ComputeOperationType`), `lastOperation` Processing at the start (with `observedGeneration` and
// `status.seedName`), Error with `lastError` (progress 50), Succeeded (lastError cleared; a Migrate also clears
// `status.seedName`, handing the entry to `spec.seedName`), Pending while the deletion waits for its grace period; and
// the readiness checks of the referenced BackupBucket and of the extension BackupEntry, in a reconcile and a migration.
import { isDeepStrictEqual } from 'node:util';
import { Annotations, LastOperationState, LastOperationType, Operations } from '@gardener-ts/api';
import { buildLastError, buildLastOperation } from '@gardener-ts/controller-runtime';
import type { BackupBucket, BackupEntry, ExtensionBackupEntry } from './kinds.js';

type OperationType = (typeof LastOperationType)[keyof typeof LastOperationType];
type LastOperationView = { type?: string; state?: string } | undefined;

/** The operation an entry asks for (Gardener's `ComputeOperationType`). */
export function operationType(entry: BackupEntry): OperationType {
  const annotation = entry.metadata?.annotations?.[Annotations.GardenerOperation];
  const last: LastOperationView = entry.status?.lastOperation;
  if (annotation === Operations.OperationMigrate) return LastOperationType.Migrate;
  if (annotation === Operations.OperationRestore) return LastOperationType.Restore;
  if (entry.metadata?.deletionTimestamp) return LastOperationType.Delete;
  if (!last) return LastOperationType.Create;
  if (last.state !== LastOperationState.Succeeded) {
    if (last.type === LastOperationType.Create) return LastOperationType.Create;
    if (last.type === LastOperationType.Migrate) return LastOperationType.Migrate;
    if (last.type === LastOperationType.Restore) return LastOperationType.Restore;
  }
  return LastOperationType.Reconcile;
}

const Verb: Record<OperationType, string> = {
  Create: 'Reconciliation',
  Reconcile: 'Reconciliation',
  Delete: 'Deletion',
  Migrate: 'Migration',
  Restore: 'Restoration',
  LiveMigrate: 'Migration',
};

/** A `lastError` as the controller writes it: a description and Gardener error codes. */
export interface EntryError {
  readonly description: string;
  readonly codes?: readonly string[];
}

/** The status at the start of an operation: Processing, the generation observed, the seed it runs on. */
export function operationStartStatus(entry: BackupEntry, type: OperationType, now: Date): Record<string, unknown> {
  return {
    lastOperation: buildLastOperation(
      type,
      LastOperationState.Processing,
      0,
      `${Verb[type]} of BackupEntry state initialized.`,
      now,
    ),
    observedGeneration: entry.metadata?.generation ?? 0,
    ...(entry.status?.seedName || !entry.spec.seedName ? {} : { seedName: entry.spec.seedName }),
  };
}

/** The status of a failed operation: Error at 50 % with `description`, and `lastError`. */
export function errorStatus(type: OperationType, error: EntryError, now: Date, description = error.description) {
  return {
    lastOperation: buildLastOperation(type, LastOperationState.Error, 50, description, now),
    lastError: buildLastError(error.description, error.codes ?? [], undefined, now),
  };
}

/**
 * The status of a succeeded operation: Succeeded at 100 %, `lastError` cleared; a succeeded Migrate clears
 * `status.seedName`, so the seed of `spec.seedName` becomes responsible for the entry.
 */
export function succeededStatus(type: OperationType, now: Date): Record<string, unknown> {
  return {
    ...(type === LastOperationType.Migrate ? { seedName: null } : {}),
    lastOperation: buildLastOperation(
      type,
      LastOperationState.Succeeded,
      100,
      `${Verb[type]} of BackupEntry succeeded.`,
      now,
    ),
    lastError: null,
  };
}

/** The status while the deletion waits for the grace period: Pending, saying when it is due. */
export function pendingDeletionStatus(entry: BackupEntry, at: Date, now: Date): Record<string, unknown> {
  return {
    observedGeneration: entry.metadata?.generation ?? 0,
    lastOperation: buildLastOperation(
      operationType(entry),
      LastOperationState.Pending,
      0,
      `Deletion of backup entry is scheduled for ${at.toISOString()}`,
      now,
    ),
  };
}

/**
 * Why the entry's BackupBucket cannot be used yet, or undefined when it is reconciled (Gardener's
 * `checkIfBackupBucketIsHealthy`), each reason naming the bucket; a bucket's own lastError keeps its codes.
 */
export function bucketNotReady(name: string, bucket: BackupBucket | undefined): EntryError | undefined {
  const prefix = `associated BackupBucket "${name}"`;
  if (!bucket) return { description: `${prefix} does not exist` };
  const status = bucket.status;
  if (status?.lastError) {
    return {
      description: `${prefix}: error during reconciliation: ${status.lastError.description}`,
      ...(status.lastError.codes?.length ? { codes: status.lastError.codes } : {}),
    };
  }
  const generation = bucket.metadata?.generation ?? 0;
  if ((status?.observedGeneration ?? 0) !== generation) {
    return {
      description: `${prefix}: observed generation outdated (${status?.observedGeneration ?? 0}/${generation})`,
    };
  }
  if (!status?.lastOperation) return { description: `${prefix} did not record a last operation yet` };
  if (status.lastOperation.state !== LastOperationState.Succeeded) {
    return { description: `${prefix}: state is not Succeeded but ${status.lastOperation.state}` };
  }
  return undefined;
}

/** What the reconcile branch makes of the extension BackupEntry it found (Gardener's reconcileBackupEntry). */
export type ExtensionVerdict =
  /** Deploy (again): missing, outdated spec, not reconciled since its secret changed, failed, or never requested. */
  | { readonly deploy: true; readonly error?: EntryError }
  /** Wait for the extension: an error to report meanwhile, if any. */
  | { readonly deploy: false; readonly succeeded: false; readonly error?: EntryError }
  /** The extension reconciled it. */
  | { readonly deploy: false; readonly succeeded: true; readonly error?: undefined };

/**
 * The verdict on the extension BackupEntry `current` for the wanted `spec` (pure): deploy when it is missing, its spec
 * differs, its last operation predates the secret's `gardener.cloud/timestamp` (`secretUpdatedAt`), it failed
 * (`Failed`), or it has no last operation and no pending request; report its lastError (with the extension's codes)
 * or its non-Succeeded state; succeeded when its last operation is Succeeded.
 */
export function extensionVerdict(
  current: ExtensionBackupEntry | undefined,
  spec: ExtensionBackupEntry['spec'],
  secretUpdatedAt: Date | undefined,
): ExtensionVerdict {
  if (!current) return { deploy: true };
  if (!isDeepStrictEqual(current.spec, spec)) return { deploy: true };
  const status = current.status;
  const last = status?.lastOperation;
  if (last && secretUpdatedAt && Date.parse(last.lastUpdateTime) < Math.floor(secretUpdatedAt.getTime() / 1000) * 1000)
    return { deploy: true };
  if (!last) {
    const error = { description: 'extension did not record a last operation yet' };
    return current.metadata?.annotations?.[Annotations.GardenerOperation] === undefined
      ? { deploy: true, error }
      : { deploy: false, succeeded: false, error };
  }
  if (status?.lastError || last.state === LastOperationState.Error || last.state === LastOperationState.Failed) {
    const error: EntryError = status?.lastError
      ? {
          description: `error during reconciliation: ${status.lastError.description}`,
          ...(status.lastError.codes?.length ? { codes: status.lastError.codes } : {}),
        }
      : { description: `extension state is not Succeeded but ${last.state}` };
    return last.state === LastOperationState.Failed
      ? { deploy: true, error }
      : { deploy: false, succeeded: false, error };
  }
  if (last.state === LastOperationState.Succeeded) return { deploy: false, succeeded: true };
  return { deploy: false, succeeded: false };
}

/** What the migration branch does about the extension BackupEntry it found (Gardener's migrateBackupEntry). */
export type MigrationVerdict =
  /** Gone (never deployed, or deleted after its migration): drop the seed Secret, the migration succeeded. */
  | { readonly action: 'done' }
  /** Ask the extension to migrate it (`gardener.cloud/operation=migrate`). */
  | { readonly action: 'request' }
  /** The extension is migrating it: wait for its answer (its status update brings the entry back). */
  | { readonly action: 'wait' }
  /** Migrated: delete it (its extension keeps the backups) and look again. */
  | { readonly action: 'delete' }
  /** Being deleted: look again. */
  | { readonly action: 'deleting' }
  /** The extension reports an error; `retry` when the reconcile should fail (and back off) rather than wait. */
  | { readonly action: 'error'; readonly type: OperationType; readonly error: EntryError; readonly retry: boolean };

/**
 * The verdict on the extension BackupEntry `current` during a migration (pure): gone → done; no last operation yet →
 * an error to retry; a Migrate that failed (lastError, Error or Failed; Failed is retried) → its error; a Migrate
 * Succeeded → delete; a Migrate still in progress → wait (Gardener would carry on and report the migration succeeded
 * while the extension still works on it); a Delete → its lastError, else wait for the deletion; any other last
 * operation → request the migration.
 */
export function migrationVerdict(current: ExtensionBackupEntry | undefined): MigrationVerdict {
  if (!current) return { action: 'done' };
  const status = current.status;
  const last = status?.lastOperation;
  if (!last) {
    return {
      action: 'error',
      type: LastOperationType.Migrate,
      error: { description: 'extension object did not record a lastOperation yet' },
      retry: true,
    };
  }
  if (last.type === LastOperationType.Migrate) {
    if (status?.lastError || last.state === LastOperationState.Error || last.state === LastOperationState.Failed) {
      const error: EntryError = status?.lastError
        ? {
            description: `error during reconciliation: ${status.lastError.description}`,
            ...(status.lastError.codes?.length ? { codes: status.lastError.codes } : {}),
          }
        : { description: `extension state is not Succeeded but ${last.state}` };
      return {
        action: 'error',
        type: LastOperationType.Migrate,
        error,
        retry: last.state === LastOperationState.Failed,
      };
    }
    return last.state === LastOperationState.Succeeded ? { action: 'delete' } : { action: 'wait' };
  }
  if (last.type === LastOperationType.Delete) {
    const lastError = status?.lastError;
    if (!lastError) return { action: 'deleting' };
    return {
      action: 'error',
      type: LastOperationType.Delete,
      error: { description: lastError.description, ...(lastError.codes?.length ? { codes: lastError.codes } : {}) },
      retry: true,
    };
  }
  return { action: 'request' };
}
