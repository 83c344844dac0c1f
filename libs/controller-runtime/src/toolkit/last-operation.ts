// Gardener's `status.lastOperation` / `status.lastError` / `status.observedGeneration` (and, when given, conditions):
// pure builders for the status fields and one writer, so a reconciler reports progress, success and failure (with
// error codes) in one call.
import { LastOperationState, type LastOperationType } from '@gardener-ts/api';
import type { Client } from '../client/client.js';
import { gvkOf, type Kind } from '../client/gvk.js';
import type { KubernetesObject } from '../client/types.js';
import { mergeConditions } from '../conditions/helpers.js';
import type { Condition } from '../conditions/types.js';
import { determineErrorCodes, messageOf } from './errors.js';

/** `status.lastOperation` as Gardener writes it (core and extensions API). */
export interface LastOperation {
  type: LastOperationType | string;
  state: LastOperationState | string;
  /** 0–100. */
  progress: number;
  description: string;
  /** RFC 3339. */
  lastUpdateTime: string;
}

/** `status.lastError` as Gardener writes it. */
export interface LastError {
  description: string;
  taskID?: string;
  /** Gardener error codes (`ERR_*`). */
  codes?: string[];
  lastUpdateTime: string;
}

/** What to report with `updateLastOperation`. */
export interface LastOperationUpdate {
  type: LastOperationType | string;
  state: LastOperationState | string;
  /** Defaults: 100 when Succeeded, 1 when Processing, 50 otherwise (what Gardener's generic reconcilers write). */
  progress?: number;
  description: string;
  /** The failure: becomes `lastError` (its message, codes from `determineErrorCodes`). */
  error?: unknown;
  /** `lastError.taskID` (the flow task that failed). */
  taskID?: string;
  /**
   * Conditions to write in the same patch: merged by type into the object's `status.conditions` (others kept), so a
   * reconciler reports a condition and the operation's outcome in one write.
   */
  conditions?: readonly Condition[];
}

/** Builds a `LastOperation` stamped `now`. */
export function buildLastOperation(
  type: LastOperation['type'],
  state: LastOperation['state'],
  progress: number,
  description: string,
  now: Date = new Date(),
): LastOperation {
  return { type, state, progress: clampProgress(progress), description, lastUpdateTime: rfc3339(now) };
}

/** Builds a `LastError` stamped `now`; `codes` are left out when empty. */
export function buildLastError(
  description: string,
  codes: readonly string[] = [],
  taskID?: string,
  now: Date = new Date(),
): LastError {
  return {
    description,
    ...(taskID ? { taskID } : {}),
    ...(codes.length ? { codes: [...codes] } : {}),
    lastUpdateTime: rfc3339(now),
  };
}

/**
 * The status fields an update writes (pure): `lastOperation` always; on Succeeded `lastError` cleared (`null` in the
 * merge patch) and `observedGeneration` set to the object's generation; with an `error`, `lastError` with the error's
 * message and codes. Other states leave `lastError` alone. `conditions`, when given, are merged into the object's
 * conditions (a merge patch replaces the whole list, so the result holds the others too).
 */
export function lastOperationStatus(
  obj: KubernetesObject,
  update: LastOperationUpdate,
  now: Date = new Date(),
): Record<string, unknown> {
  const progress = update.progress ?? defaultProgress(update.state);
  const status: Record<string, unknown> = {
    lastOperation: buildLastOperation(update.type, update.state, progress, update.description, now),
  };
  if (update.error !== undefined) {
    status.lastError = buildLastError(messageOf(update.error), determineErrorCodes(update.error), update.taskID, now);
  } else if (update.state === LastOperationState.Succeeded) {
    status.lastError = null;
  }
  if (update.state === LastOperationState.Succeeded && obj.metadata?.generation !== undefined) {
    status.observedGeneration = obj.metadata.generation;
  }
  if (update.conditions?.length) {
    const current = (obj as { status?: { conditions?: Condition[] } }).status?.conditions;
    status.conditions = mergeConditions(current, ...update.conditions);
  }
  return status;
}

/** Merge-patches `status` of `obj` through its status subresource and returns the object as written. */
export function patchStatus<T extends KubernetesObject>(
  client: Pick<Client, 'patch'>,
  obj: T,
  status: Record<string, unknown>,
): Promise<T> {
  const kind = gvkOf(obj) as Kind<T>;
  return client.patch(
    kind,
    { namespace: obj.metadata?.namespace, name: obj.metadata?.name ?? '' },
    { type: 'merge', patch: { status } },
    { subresource: 'status' },
  );
}

/**
 * Writes `status.lastOperation` (and `lastError`, `observedGeneration` as `lastOperationStatus` says) in one status
 * merge patch. `now` is injectable for tests.
 */
export function updateLastOperation<T extends KubernetesObject>(
  client: Pick<Client, 'patch'>,
  obj: T,
  update: LastOperationUpdate,
  now: Date = new Date(),
): Promise<T> {
  return patchStatus(client, obj, lastOperationStatus(obj, update, now));
}

function defaultProgress(state: string): number {
  if (state === LastOperationState.Succeeded) return 100;
  if (state === LastOperationState.Processing) return 1;
  return 50;
}

function clampProgress(progress: number): number {
  if (!Number.isFinite(progress)) return 0;
  return Math.min(100, Math.max(0, Math.round(progress)));
}

/** RFC 3339 without fractional seconds, as Kubernetes serializes `metav1.Time`. */
function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
