// The status of a core Bastion as Gardener's gardenlet Bastion controller writes it (pure): what the extension Bastion
// it found means (deploy it again, an error to report, success), and the `BastionReady` condition — False
// `FailedReconciling` naming the extension Bastion and the error, False `DeletionInProgress` while it is deleted, True
// `SuccessfullyReconciled` with the extension's `status.ingress` and the observed generation once it succeeded.
import { isDeepStrictEqual } from 'node:util';
import { BastionConditionType, LastOperationState } from '@gardener-ts/api';
import {
  getOrInitCondition,
  mergeConditions,
  updatedCondition,
  type Condition,
  type ConditionStatus,
} from '@gardener-ts/controller-runtime';
import type { CoreBastion, ExtensionBastion } from './kinds.js';

/** The reasons of the `BastionReady` condition (Gardener's). */
export const BastionReadyReason = {
  Succeeded: 'SuccessfullyReconciled',
  Failed: 'FailedReconciling',
  Deleting: 'DeletionInProgress',
} as const;

/** The messages of the `BastionReady` condition that do not depend on an error (Gardener's). */
export const BastionReadyMessage = {
  Succeeded: 'The bastion has been reconciled successfully.',
  Deleting: 'The bastion is being deleted.',
} as const;

/** An error the extension reported: its description and Gardener error codes. */
export interface ExtensionError {
  readonly description: string;
  readonly codes?: readonly string[];
}

/** What the reconcile branch makes of the extension Bastion it found (Gardener's `reconcileBastion`). */
export interface ExtensionVerdict {
  /** Create or update it with a new reconcile request: missing, outdated spec, or Failed. */
  readonly deploy: boolean;
  /** What to report in `BastionReady` meanwhile, if anything. */
  readonly error?: ExtensionError;
  /** Its last operation Succeeded: mirror it. */
  readonly succeeded: boolean;
}

/**
 * The verdict on the extension Bastion `current` for the wanted `spec` (pure): deploy when it is missing or its spec
 * differs; an error when it has no last operation yet, or reports a lastError or an Error/Failed state (Failed is
 * deployed again); succeeded when its last operation Succeeded.
 */
export function extensionVerdict(
  current: ExtensionBastion | undefined,
  spec: ExtensionBastion['spec'],
): ExtensionVerdict {
  if (!current || !isDeepStrictEqual(withoutUndefined(current.spec), withoutUndefined(spec))) {
    return { deploy: true, succeeded: false };
  }
  const status = current.status;
  const last = status?.lastOperation;
  if (!last) {
    return { deploy: false, succeeded: false, error: { description: 'extension did not record a last operation yet' } };
  }
  const failed = last.state === LastOperationState.Failed;
  if (status?.lastError || last.state === LastOperationState.Error || failed) {
    const error: ExtensionError = status?.lastError
      ? {
          description: `error during reconciliation: ${status.lastError.description}`,
          ...(status.lastError.codes?.length ? { codes: status.lastError.codes } : {}),
        }
      : { description: `extension state is not Succeeded but ${last.state}` };
    return { deploy: failed, succeeded: false, error };
  }
  return { deploy: false, succeeded: last.state === LastOperationState.Succeeded };
}

// JSON objects compare without keys whose value is undefined (they are not on the wire).
function withoutUndefined(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null)) as unknown;
}

/** The Bastion's conditions with `BastionReady` set to `status`, `reason` and `message` at `now`. */
export function readyConditions(
  bastion: CoreBastion,
  status: ConditionStatus,
  reason: string,
  message: string,
  now: Date,
): Condition[] {
  const clock = { now: () => now };
  const existing = bastion.status?.conditions as Condition[] | undefined;
  const condition = getOrInitCondition(existing, BastionConditionType.Ready, clock);
  return mergeConditions(existing, updatedCondition(condition, status, reason, message, { clock }));
}

/** The message of a failure around extension Bastion `namespace/name` (Gardener's wording). */
export function failedMessage(key: { namespace: string; name: string }, error: string): string {
  return `Error while waiting for Bastion ${key.namespace}/${key.name} to become ready: ${error}`;
}

/** The status of a Bastion whose extension Bastion failed or is not ready: `BastionReady` False `FailedReconciling`. */
export function failedStatus(bastion: CoreBastion, message: string, now: Date): Record<string, unknown> {
  return { conditions: readyConditions(bastion, 'False', BastionReadyReason.Failed, message, now) };
}

/** The status of a Bastion being deleted: `BastionReady` False `DeletionInProgress`. */
export function deletingStatus(bastion: CoreBastion, now: Date): Record<string, unknown> {
  return {
    conditions: readyConditions(bastion, 'False', BastionReadyReason.Deleting, BastionReadyMessage.Deleting, now),
  };
}

/**
 * The status of a Bastion whose extension Bastion succeeded: `BastionReady` True `SuccessfullyReconciled`, the
 * extension's `status.ingress` (removed when it has none) and the Bastion's generation as observed.
 */
export function succeededStatus(bastion: CoreBastion, extension: ExtensionBastion, now: Date): Record<string, unknown> {
  return {
    conditions: readyConditions(bastion, 'True', BastionReadyReason.Succeeded, BastionReadyMessage.Succeeded, now),
    ingress: extension.status?.ingress ? structuredClone(extension.status.ingress) : null,
    observedGeneration: bastion.metadata?.generation ?? 0,
  };
}
