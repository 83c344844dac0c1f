// A shoot flow's progress events as NATS `OperationProgress` messages (gardener.v1.events.<seed>.shoot.<ns>.<name>):
// the operation, its percentage and description as `lastOperation` carries them, and the task whose phase changed
// with its error and Gardener error codes. Pure; the gardenlet publishes what this returns.
import { describeProgress, type ProgressEvent } from '@gardener-ts/flow';
import { determineErrorCodes, messageOf } from '@gardener-ts/controller-runtime';
import type { EventObject, MessageInput, OperationProgress, Payloads } from '@gardener-ts/messaging';
import type { Shoot } from './kinds.js';
import type { ShootOperationType } from './sync.js';

/** An `OperationProgress` message as the publisher takes it. */
export type ProgressInput = MessageInput<Payloads['operationProgress']>;
type Input = ProgressInput;

const TYPES: Record<ShootOperationType, OperationProgress['type']> = {
  Create: 'LAST_OPERATION_TYPE_CREATE',
  Reconcile: 'LAST_OPERATION_TYPE_RECONCILE',
  Delete: 'LAST_OPERATION_TYPE_DELETE',
  Migrate: 'LAST_OPERATION_TYPE_MIGRATE',
  Restore: 'LAST_OPERATION_TYPE_RESTORE',
  LiveMigrate: 'LAST_OPERATION_TYPE_MIGRATE',
};

const PHASES = {
  'task-started': 'TASK_PHASE_STARTED',
  'task-succeeded': 'TASK_PHASE_SUCCEEDED',
  'task-failed': 'TASK_PHASE_FAILED',
  'task-skipped': 'TASK_PHASE_SKIPPED',
} as const;

/** The object of a shoot's events. */
export function shootEventObject(shoot: Shoot): EventObject {
  return {
    kind: 'Shoot',
    namespace: shoot.metadata?.namespace ?? '',
    name: shoot.metadata?.name ?? '',
    ...(shoot.metadata?.uid ? { uid: shoot.metadata.uid } : {}),
    ...(shoot.metadata?.generation ? { generation: shoot.metadata.generation } : {}),
  };
}

/** The message of one progress event, or undefined for events not published (retries). */
export function progressMessage(operation: ShootOperationType, flow: string, event: ProgressEvent): Input | undefined {
  if (event.type === 'task-retrying') return undefined;
  const finished = event.type === 'flow-finished';
  const state: OperationProgress['state'] = !finished
    ? 'LAST_OPERATION_STATE_PROCESSING'
    : event.error
      ? 'LAST_OPERATION_STATE_ERROR'
      : 'LAST_OPERATION_STATE_SUCCEEDED';
  const message: Input = {
    type: TYPES[operation],
    state,
    progress: event.stats.progressPercent,
    description: describeProgress(event.stats),
    flow,
  };
  if (event.type in PHASES) {
    const phase = PHASES[event.type as keyof typeof PHASES];
    const id = String((event as { taskId: unknown }).taskId);
    message.task =
      event.type === 'task-failed'
        ? { id, phase, error: messageOf(event.error), errorCodes: determineErrorCodes(event.error) }
        : { id, phase };
  }
  return message;
}
