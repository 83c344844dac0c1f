// The decisions of the BackupBucket controller as pure functions (Gardener's pkg/gardenlet/controller/backupbucket
// reconciler): which operation the core bucket is in, whether the extension BackupBucket needs a new reconcile request,
// what its status means for the core bucket, and the core bucket's status fields for start, success and error.
import { Annotations, LastOperationState, LastOperationType, Operations } from '@gardener-ts/api';
import { buildLastOperation } from '@gardener-ts/controller-runtime';
import { sameJSON } from './objects.js';
import type { CoreBackupBucket, ExtensionBackupBucket } from './kinds.js';

/** The lastOperation types of a core BackupBucket. */
export type BucketOperationType = 'Create' | 'Reconcile' | 'Delete' | 'Migrate' | 'Restore';

/**
 * Gardener's ComputeOperationType on the bucket's metadata and last operation: the migrate/restore annotations, then
 * deletion, then Create until a Create succeeded, an unfinished Migrate or Restore continues, else Reconcile.
 */
export function bucketOperationType(bucket: CoreBackupBucket): BucketOperationType {
  const annotation = bucket.metadata?.annotations?.[Annotations.GardenerOperation];
  const last = bucket.status?.lastOperation;
  if (annotation === Operations.OperationMigrate) return LastOperationType.Migrate;
  if (annotation === Operations.OperationRestore) return LastOperationType.Restore;
  if (bucket.metadata?.deletionTimestamp) return LastOperationType.Delete;
  if (!last) return LastOperationType.Create;
  const unfinished = last.state !== LastOperationState.Succeeded;
  if (last.type === LastOperationType.Create && unfinished) return LastOperationType.Create;
  if (last.type === LastOperationType.Migrate && unfinished) return LastOperationType.Migrate;
  if (last.type === LastOperationType.Restore && unfinished) return LastOperationType.Restore;
  return LastOperationType.Reconcile;
}

const startDescriptions: Record<BucketOperationType, string> = {
  Create: 'Reconciliation of BackupBucket state initialized.',
  Reconcile: 'Reconciliation of BackupBucket state initialized.',
  Restore: 'Restoration of BackupBucket state initialized.',
  Migrate: 'Migration of BackupBucket state initialized.',
  Delete: 'Deletion of BackupBucket state initialized.',
};

/** The status when an operation starts: Processing at 0 %, the generation observed. */
export function operationStartStatus(
  bucket: CoreBackupBucket,
  type: BucketOperationType,
  now: Date,
): Record<string, unknown> {
  return {
    lastOperation: buildLastOperation(type, LastOperationState.Processing, 0, startDescriptions[type], now),
    observedGeneration: bucket.metadata?.generation,
  };
}

/** The status of a finished operation: Succeeded at 100 %, `lastError` cleared, the generation observed. */
export function succeededStatus(
  bucket: CoreBackupBucket,
  type: BucketOperationType,
  description: string,
  now: Date,
): Record<string, unknown> {
  return {
    lastError: null,
    lastOperation: buildLastOperation(type, LastOperationState.Succeeded, 100, description, now),
    observedGeneration: bucket.metadata?.generation,
  };
}

/** A failure to report: Gardener's `lastError` description and codes. */
export interface BucketError {
  description: string;
  codes?: string[];
}

/**
 * The status of a failed operation: Error at 50 % with `description`, and `lastError`. Written as a merge patch, so
 * fields of an earlier lastError this one has not (codes, taskID) are cleared with null.
 */
export function errorStatus(
  type: BucketOperationType,
  description: string,
  error: BucketError,
  now: Date,
): Record<string, unknown> {
  const lastOperation = buildLastOperation(type, LastOperationState.Error, 50, description, now);
  return {
    lastOperation,
    lastError: {
      description: error.description,
      codes: error.codes?.length ? [...error.codes] : null,
      taskID: null,
      lastUpdateTime: lastOperation.lastUpdateTime,
    },
  };
}

/** What the extension BackupBucket's state means for the core bucket. */
export interface ExtensionObservation {
  /** Write the extension BackupBucket with a new reconcile request. */
  reconcile: boolean;
  /** The extension reported Succeeded and nothing changed since: copy its generated Secret and providerStatus. */
  succeeded: boolean;
  /** The core bucket's lastError. */
  error?: BucketError;
}

/** What `observeExtension` compares. */
export interface ExtensionObservationInput {
  name: string;
  /** The extension BackupBucket in the seed; undefined when it does not exist. */
  extension: ExtensionBackupBucket | undefined;
  /** The spec it must have. */
  desiredSpec: ExtensionBackupBucket['spec'];
  /** When the credentials in the seed were last written (whole seconds). */
  secretTimestamp: Date;
  /** The credentials in the seed differed from the garden's and were rewritten. */
  secretDataChanged: boolean;
}

/**
 * Gardener's decision on the extension BackupBucket: a new reconcile request when it is missing, its spec or the
 * credentials changed, it has not acted since the credentials were written, it failed (`Failed` is retried), or it
 * recorded no last operation and has no pending request; a lastError when it has no last operation yet or reports an
 * error (its description and codes); success when its last operation Succeeded without error.
 */
export function observeExtension(input: ExtensionObservationInput): ExtensionObservation {
  const { extension, name } = input;
  const nothing: ExtensionObservation = { reconcile: false, succeeded: false };
  if (!extension) return { ...nothing, reconcile: true };
  const last = extension.status?.lastOperation;
  const lastUpdate = last?.lastUpdateTime ? Date.parse(last.lastUpdateTime) : undefined;
  if (
    input.secretDataChanged ||
    !sameJSON(specView(extension.spec), specView(input.desiredSpec)) ||
    (lastUpdate !== undefined && lastUpdate < input.secretTimestamp.getTime())
  ) {
    return { ...nothing, reconcile: true };
  }
  const prefix = `extension BackupBucket ${name}`;
  if (!last) {
    return {
      reconcile: extension.metadata?.annotations?.[Annotations.GardenerOperation] === undefined,
      succeeded: false,
      error: { description: `${prefix}: extension did not record a last operation yet` },
    };
  }
  const lastError = extension.status?.lastError;
  if (lastError || last.state === LastOperationState.Error || last.state === LastOperationState.Failed) {
    return {
      reconcile: last.state === LastOperationState.Failed,
      succeeded: false,
      error: lastError
        ? {
            description: `${prefix}: error during reconciliation: ${lastError.description}`,
            ...(lastError.codes?.length ? { codes: [...lastError.codes] } : {}),
          }
        : { description: `${prefix}: extension state is not Succeeded but ${last.state}` },
    };
  }
  return { ...nothing, succeeded: last.state === LastOperationState.Succeeded };
}

/** The spec fields the gardenlet owns (an extension's own defaults, like `class`, are not compared). */
function specView(spec: ExtensionBackupBucket['spec']) {
  return {
    type: spec.type,
    region: spec.region,
    providerConfig: spec.providerConfig,
    secretRef: { name: spec.secretRef?.name, namespace: spec.secretRef?.namespace },
  };
}
