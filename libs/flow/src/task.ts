// The unit of work of a flow, shaped after Gardener's flow.Task / flow.TaskFn / flow.TaskID: a named function
// with dependencies, an optional static skip and an optional retry-until-timeout.

/** The identifier of a task in a flow: its name (Gardener's `TaskID`). */
export type TaskId = string;

/** Dependencies as callers write them: single ids or the id lists a group or another helper returned. */
export type TaskIds = readonly (TaskId | readonly TaskId[])[];

/** What a task function receives (Gardener passes a `context.Context`; here an abort signal and the task's identity). */
export interface TaskContext {
  /** Aborted when the flow is canceled (or a `timeout` combinator's deadline passes). Long operations must honour it. */
  readonly signal: AbortSignal;
  /** The id of the running task. */
  readonly taskId: TaskId;
  /** The name of the flow the task runs in. */
  readonly flowName: string;
  /**
   * Reports that an attempt failed and will be retried (Gardener's `RetryReporter`); `retryUntilTimeout` calls it.
   * Custom retry loops inside a task may call it too.
   */
  readonly reportRetry: (error: unknown, attempt: number) => void;
}

/** The payload function of a task (Gardener's `TaskFn`). Throwing (or rejecting) fails the task. */
export type TaskFn = (ctx: TaskContext) => Promise<void> | void;

/** Options of a retry until a timeout (Gardener's `TaskFn.RetryUntilTimeout(interval, timeout)`), with optional back-off. */
export interface RetryOptions {
  /** Wait between two attempts, in milliseconds. */
  readonly interval: number;
  /** Overall deadline of all attempts, in milliseconds. */
  readonly timeout: number;
  /** Multiplies the wait after every failed attempt (1, the default, keeps Gardener's fixed interval). */
  readonly factor?: number;
  /** Upper bound of the wait when `factor` > 1, in milliseconds. */
  readonly maxInterval?: number;
}

/** A task as added to a `Graph` (Gardener's `flow.Task`). */
export interface Task {
  /** The task's name, which is also its id. Gardener's shoot flows use sentences ("Waiting until ..."). */
  readonly name: string;
  readonly fn: TaskFn;
  /** Tasks that must have succeeded (or been skipped) before this one starts. */
  readonly dependencies?: TaskIds;
  /** When true the task does not run and counts as done; its dependants still run (Gardener's `Task.SkipIf`). */
  readonly skipIf?: boolean;
  /** Retries the function until it succeeds or the timeout passes (Gardener's `TaskFn.RetryUntilTimeout`). */
  readonly retryUntilTimeout?: RetryOptions;
}

/** Flattens dependency lists into unique ids, keeping first-seen order. */
export function flattenTaskIds(ids: TaskIds | undefined): TaskId[] {
  const out = new Set<TaskId>();
  for (const id of ids ?? []) {
    if (typeof id === 'string') out.add(id);
    else for (const inner of id) out.add(inner);
  }
  return [...out];
}
