// What the Shoot controller writes into `Shoot.status` around a flow (Gardener's `updateShootStatusOperationStart`,
// `...OperationSuccess` and `...OperationError`): pure functions of the Shoot, the operation and the flow's outcome.
// The start claims the shoot for this seed (seedName, technicalID, uid, gardener) and marks the operation
// Processing; success writes 100 % with the tasks the flow skipped named in the description; an error keeps the
// progress, lists the failed tasks in `lastErrors` (task ID, Gardener error codes) and becomes Failed once the
// retry cycle has passed.
import type { Shoot } from './kinds.js';
import type { SkippedTask } from './flow/operation.js';
import type { ShootOperationType } from './sync.js';

/** How long a shoot operation is retried before it is Failed (Gardener's `controllers.shoot.retryDuration`, 12 h). */
export const DefaultRetryDurationMs = 12 * 60 * 60_000;

const VERBS: Record<ShootOperationType, string> = {
  Create: 'Creation',
  Reconcile: 'Reconciliation',
  Delete: 'Deletion',
  Migrate: 'Migration',
  Restore: 'Restoration',
  LiveMigrate: 'Live migration',
};

const DONE: Record<ShootOperationType, string> = {
  Create: 'reconciled',
  Reconcile: 'reconciled',
  Delete: 'deleted',
  Migrate: 'migrated',
  Restore: 'restored',
  LiveMigrate: 'migrated',
};

/** The gardenlet that writes the status (`status.gardener`). */
export interface GardenerInfo {
  readonly id: string;
  readonly name: string;
  readonly version: string;
}

/** One failed task of a flow, as `status.lastErrors` lists it. */
export interface FailedTask {
  readonly taskID: string;
  readonly description: string;
  readonly codes: readonly string[];
}

const time = (now: Date) => now.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The status patch at the start of an operation. */
export function operationStartStatus(
  shoot: Shoot,
  operation: ShootOperationType,
  technicalID: string,
  gardener: GardenerInfo,
  now: Date,
): Record<string, unknown> {
  const previous = shoot.status?.lastOperation;
  // A retried operation of the same type continues from its progress; a new one starts at 0.
  const progress = previous && previous.type === operation && previous.state !== 'Succeeded' ? previous.progress : 0;
  const status: Record<string, unknown> = {
    gardener: { id: gardener.id, name: gardener.name, version: gardener.version },
    technicalID,
    uid: shoot.metadata?.uid,
    observedGeneration: shoot.metadata?.generation,
    // Required by the API (not omitempty in Gardener): whether the shoot is hibernated now.
    hibernated: shoot.status?.hibernated ?? false,
    lastOperation: {
      type: operation,
      state: 'Processing',
      progress,
      description: `${VERBS[operation]} of Shoot cluster in progress.`,
      lastUpdateTime: time(now),
    },
  };
  if (operation !== 'Delete' && operation !== 'Migrate') status.seedName = shoot.spec.seedName;
  if (!shoot.status?.retryCycleStartTime || previous?.state === 'Succeeded') status.retryCycleStartTime = time(now);
  return status;
}

/** The description of a successful operation: Gardener's sentence and the tasks the flow skipped, by reason. */
export function successDescription(operation: ShootOperationType, skipped: readonly SkippedTask[]): string {
  const done = `Shoot cluster has been successfully ${DONE[operation]}.`;
  if (skipped.length === 0) return done;
  const byReason = new Map<string, string[]>();
  for (const { task, reason } of skipped) byReason.set(reason, [...(byReason.get(reason) ?? []), task]);
  const parts = [...byReason].map(([reason, tasks]) => `${reason}: ${tasks.join(', ')}`);
  return `${done} ${skipped.length} tasks skipped — ${parts.join('; ')}`;
}

/** The status patch after a successful operation. */
export function operationSucceededStatus(
  operation: ShootOperationType,
  skipped: readonly SkippedTask[],
  now: Date,
): Record<string, unknown> {
  return {
    lastOperation: {
      type: operation,
      state: 'Succeeded',
      progress: 100,
      description: successDescription(operation, skipped),
      lastUpdateTime: time(now),
    },
    lastErrors: null,
    retryCycleStartTime: null,
  };
}

/** The status patch after a failed operation: Error while the retry cycle lasts, then Failed. */
export function operationErrorStatus(
  shoot: Shoot,
  operation: ShootOperationType,
  failed: readonly FailedTask[],
  progress: number,
  now: Date,
  retryDurationMs: number = DefaultRetryDurationMs,
): Record<string, unknown> {
  const started = Date.parse(shoot.status?.retryCycleStartTime ?? '');
  const exhausted = !Number.isNaN(started) && now.getTime() - started >= retryDurationMs;
  const description = failed.map((f) => f.description).join(', ') || `${VERBS[operation]} of Shoot cluster failed`;
  return {
    lastOperation: {
      type: operation,
      state: exhausted ? 'Failed' : 'Error',
      progress,
      description: exhausted ? description : `${description}. Operation will be retried.`,
      lastUpdateTime: time(now),
    },
    lastErrors: failed.map((f) => ({
      taskID: f.taskID,
      description: f.description,
      ...(f.codes.length > 0 ? { codes: [...f.codes] } : {}),
      lastUpdateTime: time(now),
    })),
  };
}
