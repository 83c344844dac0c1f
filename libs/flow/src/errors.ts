// Errors of a flow run, as Gardener reports them: every task error carries its task id (Gardener's
// `errors.WithID`), a failed run lists all of them (`flowFailed`), a canceled run keeps the cause and the task
// errors seen so far (`flowCanceled`), and graph validation names the offending tasks.
import type { TaskId } from './task.js';

/** A task's failure: `task "<id>" failed: <cause>`, the cause kept in `cause`. */
export class TaskError extends Error {
  override readonly name = 'TaskError';
  constructor(
    /** The id of the failed task. */
    readonly taskId: TaskId,
    cause: unknown,
  ) {
    super(`task "${taskId}" failed: ${messageOf(cause)}`, { cause });
  }
}

/** The error of a flow run that did not complete: the task errors in `errors` (an `AggregateError`). */
export abstract class FlowError extends AggregateError {
  declare readonly errors: TaskError[];
  protected constructor(
    /** The name of the flow. */
    readonly flowName: string,
    taskErrors: readonly TaskError[],
    message: string,
    options?: ErrorOptions,
  ) {
    super([...taskErrors], message, options);
  }

  /** The ids of the failed tasks, in the order they failed. */
  get failedTaskIds(): TaskId[] {
    return this.errors.map((e) => e.taskId);
  }

  /** The task errors' causes (Gardener's `flow.Causes`). */
  get causes(): unknown[] {
    return this.errors.map((e) => e.cause);
  }
}

/** One or more tasks failed (Gardener's `flowFailed`): `flow "<name>" encountered task errors: [...]`. */
export class FlowFailedError extends FlowError {
  override readonly name = 'FlowFailedError';
  constructor(flowName: string, taskErrors: readonly TaskError[]) {
    super(flowName, taskErrors, `flow "${flowName}" encountered task errors: [${listMessages(taskErrors)}]`);
  }
}

/** The run was canceled through its signal (Gardener's `flowCanceled`); `cause` is the abort reason. */
export class FlowCanceledError extends FlowError {
  override readonly name = 'FlowCanceledError';
  constructor(flowName: string, taskErrors: readonly TaskError[], cause: unknown) {
    const base = `flow "${flowName}" was canceled: ${messageOf(cause)}`;
    const message = taskErrors.length === 0 ? base : `${base}. Encountered task errors: [${listMessages(taskErrors)}]`;
    super(flowName, taskErrors, message, { cause });
  }
}

/** A graph that cannot be compiled: a duplicate task, an unknown dependency or a dependency cycle. */
export class GraphValidationError extends Error {
  override readonly name = 'GraphValidationError';
  constructor(
    message: string,
    /** The tasks involved (the duplicate, the dependant and its missing dependency, or the cycle in order). */
    readonly taskIds: readonly TaskId[],
  ) {
    super(message);
  }
}

/** The task errors of a flow error (Gardener's `flow.Errors`); empty for any other error. */
export function flowErrors(err: unknown): TaskError[] {
  return err instanceof FlowError ? [...err.errors] : [];
}

/** The causes of the task errors of a flow error (Gardener's `flow.Causes`). */
export function flowCauses(err: unknown): unknown[] {
  return err instanceof FlowError ? err.causes : [];
}

/** Whether the flow error was caused by cancellation (Gardener's `flow.WasCanceled`). */
export function wasCanceled(err: unknown): boolean {
  return err instanceof FlowCanceledError;
}

/** The message of anything thrown. */
export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

function listMessages(errors: readonly Error[]): string {
  return errors.map((e) => e.message).join('; ');
}
