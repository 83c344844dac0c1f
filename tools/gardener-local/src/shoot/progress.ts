// What `gardener-local shoot` shows of a running operation: a pure state folded from the flow's progress events (NATS)
// and from the Shoot itself (`status.lastOperation`, `status.lastErrors`, conditions), the outcome that ends a watch,
// and the text of one frame. No I/O here; shoot-command.ts feeds it and draws it.
import type { OperationProgress } from '@gardener-ts/messaging';

/** A Shoot as far as the CLI reads it. */
export interface ShootView {
  metadata: { name: string; namespace?: string; generation?: number; deletionTimestamp?: string };
  spec?: { hibernation?: { enabled?: boolean } };
  status?: {
    observedGeneration?: number;
    hibernated?: boolean;
    lastOperation?: { type?: string; state?: string; progress?: number; description?: string };
    lastErrors?: { description?: string; taskID?: string; codes?: string[] }[];
    conditions?: { type: string; status: string }[];
  };
}

export interface OperationState {
  /** Gardener's lastOperation type and state names: Create, Reconcile, Delete, ...; Processing, Succeeded, ... */
  type?: string;
  state?: string;
  progress: number;
  description?: string;
  running: string[];
  done: string[];
  failed: { task: string; error: string; codes: string[] }[];
  skipped: string[];
  lastError?: { description: string; codes: string[] };
}

export const initialState = (): OperationState => ({ progress: 0, running: [], done: [], failed: [], skipped: [] });

const TYPE_NAMES: Record<string, string> = {
  LAST_OPERATION_TYPE_CREATE: 'Create',
  LAST_OPERATION_TYPE_RECONCILE: 'Reconcile',
  LAST_OPERATION_TYPE_DELETE: 'Delete',
  LAST_OPERATION_TYPE_MIGRATE: 'Migrate',
  LAST_OPERATION_TYPE_RESTORE: 'Restore',
};
const STATE_NAMES: Record<string, string> = {
  LAST_OPERATION_STATE_PROCESSING: 'Processing',
  LAST_OPERATION_STATE_SUCCEEDED: 'Succeeded',
  LAST_OPERATION_STATE_ERROR: 'Error',
  LAST_OPERATION_STATE_FAILED: 'Failed',
  LAST_OPERATION_STATE_PENDING: 'Pending',
  LAST_OPERATION_STATE_ABORTED: 'Aborted',
};

const without = (list: string[], item: string) => list.filter((x) => x !== item);

/**
 * Folds one progress event into the state. A new operation (another type) starts a fresh task list; progress never
 * goes backwards within one operation, since events can arrive late.
 */
export function applyProgress(state: OperationState, event: OperationProgress): OperationState {
  const type = TYPE_NAMES[event.type] ?? state.type;
  const base = type !== state.type && state.type !== undefined ? initialState() : state;
  const next: OperationState = {
    ...base,
    type,
    state: STATE_NAMES[event.state] ?? base.state,
    progress: Math.max(base.progress, Math.min(100, Math.max(0, event.progress))),
    description: event.description || base.description,
  };
  const task = event.task;
  if (!task?.id) return next;
  const others = {
    running: without(next.running, task.id),
    done: without(next.done, task.id),
    skipped: without(next.skipped, task.id),
  };
  switch (task.phase) {
    case 'TASK_PHASE_STARTED':
      return { ...next, ...others, running: [...others.running, task.id] };
    case 'TASK_PHASE_SUCCEEDED':
      return { ...next, ...others, done: [...others.done, task.id] };
    case 'TASK_PHASE_SKIPPED':
      return { ...next, ...others, skipped: [...others.skipped, task.id] };
    case 'TASK_PHASE_FAILED':
      return {
        ...next,
        ...others,
        failed: [
          ...next.failed.filter((f) => f.task !== task.id),
          { task: task.id, error: task.error, codes: task.errorCodes },
        ],
        lastError: { description: `${task.id}: ${task.error}`, codes: task.errorCodes },
      };
    default:
      return next;
  }
}

/** Takes what the Shoot says (the API is the truth; events only add detail between reads). */
export function applyShoot(state: OperationState, shoot: ShootView): OperationState {
  const op = shoot.status?.lastOperation;
  if (!op) return state;
  const fresh = op.type !== undefined && state.type !== undefined && op.type !== state.type;
  const base = fresh ? initialState() : state;
  const lastError = shoot.status?.lastErrors?.[0];
  return {
    ...base,
    type: op.type ?? base.type,
    state: op.state ?? base.state,
    progress: op.state === 'Succeeded' ? 100 : Math.max(base.progress, op.progress ?? 0),
    description: op.description ?? base.description,
    ...(lastError?.description
      ? { lastError: { description: lastError.description, codes: lastError.codes ?? [] } }
      : {}),
  };
}

export type Outcome = 'ready' | 'hibernated' | 'failed' | 'deleted' | 'progressing';

/** What the user waits for: the operation on the current generation done (ready, or hibernated), failed, or gone. */
export function outcomeOf(shoot: ShootView | undefined, waitingFor: 'ready' | 'deleted'): Outcome {
  if (!shoot) return 'deleted';
  const op = shoot.status?.lastOperation;
  if (op?.state === 'Failed') return 'failed';
  if (waitingFor === 'deleted') return 'progressing';
  const current = (shoot.status?.observedGeneration ?? -1) >= (shoot.metadata.generation ?? 0);
  if (!current || op?.state !== 'Succeeded' || op.type === 'Delete') return 'progressing';
  if (shoot.spec?.hibernation?.enabled) return shoot.status?.hibernated ? 'hibernated' : 'progressing';
  const conditions = shoot.status?.conditions ?? [];
  return conditions.every((c) => c.status === 'True') ? 'ready' : 'progressing';
}

const BAR_WIDTH = 30;

/** The progress bar: filled blocks for the percentage. */
export function bar(progress: number, width = BAR_WIDTH): string {
  const filled = Math.round((Math.max(0, Math.min(100, progress)) / 100) * width);
  return '█'.repeat(filled) + '░'.repeat(width - filled);
}

/** A list of names cut to `max` with "+N". */
function names(list: string[], max = 3): string {
  return list.length <= max ? list.join(', ') : `${list.slice(0, max).join(', ')} +${list.length - max}`;
}

/** One frame: the bar line, the running tasks, and the last error with its codes. */
export function renderFrame(shoot: string, state: OperationState): string {
  const head = `${shoot} ${bar(state.progress)} ${String(state.progress).padStart(3)}% ${state.type ?? '-'} ${state.state ?? 'Pending'}`;
  const counts = `done ${state.done.length}, failed ${state.failed.length}${state.skipped.length ? `, skipped ${state.skipped.length}` : ''}`;
  const lines = [
    head,
    state.running.length
      ? `  running: ${names(state.running)} | ${counts}`
      : `  ${state.description ?? 'waiting for the operation to start'} | ${counts}`,
  ];
  if (state.lastError)
    lines.push(
      `  last error: ${state.lastError.description}${state.lastError.codes.length ? ` [${state.lastError.codes.join(', ')}]` : ''}`,
    );
  return lines.join('\n');
}
