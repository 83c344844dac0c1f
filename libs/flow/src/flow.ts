// The executor of a compiled flow (Gardener's `Flow.Run`): a thin shell over the pure scheduler that starts task
// functions, collects their outcomes, reports progress and turns failures into one `FlowFailedError` listing every
// failed task. Running tasks are always awaited, also after cancellation, so nothing keeps running after `run`.
import { FlowCanceledError, FlowFailedError, TaskError, type FlowError } from './errors.js';
import type { ProgressEvent, ProgressReporter } from './progress.js';
import { apply, decide, finish, initialState, stats, type Plan, type SchedulerState } from './scheduler.js';
import type { TaskFn, TaskId } from './task.js';

/** The log calls a flow makes; a pino logger fits. */
export interface FlowLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Options of one run. */
export interface RunOptions {
  /** Cancels the run: no task starts any more, running tasks see the signal aborted and are awaited. */
  readonly signal?: AbortSignal;
  /** At most this many tasks run at once; unbounded (Gardener's maximum parallelism) by default. */
  readonly maxParallel?: number;
  /** Receives the progress events. */
  readonly reporter?: ProgressReporter;
  readonly logger?: FlowLogger;
  /**
   * Tasks that failed in the previous run (their ids in `lastErrors[].taskID`); when one of them succeeds,
   * `onErrorCleared` is called with its id (Gardener's `ErrorContext` and `ErrorCleaner`).
   */
  readonly lastErrorTaskIds?: Iterable<TaskId>;
  readonly onErrorCleared?: (taskId: TaskId) => void | Promise<void>;
}

type Outcome = { id: TaskId; error?: undefined } | { id: TaskId; error: TaskError };

const neverAborted = new AbortController().signal;

/** A validated, executable flow (Gardener's `flow.Flow`); build it with `Graph.compile()`. Runs may repeat. */
export class Flow {
  /** @internal Use `Graph.compile()`. */
  constructor(
    /** The validated plan: tasks in topological order. */
    readonly plan: Plan,
    private readonly fns: ReadonlyMap<TaskId, TaskFn>,
  ) {}

  /** The flow's name. */
  get name(): string {
    return this.plan.name;
  }

  /** The number of tasks. */
  get size(): number {
    return this.plan.tasks.length;
  }

  /**
   * Runs the flow to the end: resolves when every task succeeded or was skipped; rejects with a
   * `FlowFailedError` listing every failed task once all independent branches have run, or with a
   * `FlowCanceledError` when the signal aborted before the flow was done.
   */
  async run(options: RunOptions = {}): Promise<void> {
    const signal = options.signal ?? neverAborted;
    const maxParallel = options.maxParallel ?? Infinity;
    if (!(maxParallel >= 1)) throw new RangeError(`maxParallel must be at least 1, got ${maxParallel}`);
    const log = options.logger;
    const lastErrors = new Set(options.lastErrorTaskIds ?? []);
    const taskErrors: TaskError[] = [];
    const completed: Outcome[] = [];
    let wake: (() => void) | undefined;
    let running = 0;
    let state: SchedulerState = initialState(this.plan);

    const report = (event: ProgressEvent): void => {
      if (!options.reporter) return;
      try {
        const result = options.reporter.report(event);
        if (result) result.catch((err) => log?.error({ err, event: event.type }, 'Progress reporter failed'));
      } catch (err) {
        log?.error({ err, event: event.type }, 'Progress reporter failed');
      }
    };

    const start = (id: TaskId): void => {
      running++;
      const ctx = {
        signal,
        taskId: id,
        flowName: this.name,
        reportRetry: (error: unknown, attempt: number) => {
          log?.info({ flow: this.name, task: id, attempt, err: error }, 'Retrying');
          report({ type: 'task-retrying', taskId: id, error, attempt, stats: stats(this.plan, state) });
        },
      };
      log?.debug({ flow: this.name, task: id }, 'Started');
      const fn = this.fns.get(id)!;
      void (async () => fn(ctx))()
        .then(
          () => completed.push({ id }),
          (err: unknown) => completed.push({ id, error: new TaskError(id, err) }),
        )
        .finally(() => wake?.());
    };

    log?.info({ flow: this.name }, 'Starting');
    report({ type: 'flow-started', stats: stats(this.plan, state) });
    for (;;) {
      const decision = decide(this.plan, state, { maxParallel, canceled: signal.aborted });
      state = apply(state, decision);
      for (const id of decision.skip) {
        log?.debug({ flow: this.name, task: id }, 'Skipped');
        report({ type: 'task-skipped', taskId: id, stats: stats(this.plan, state) });
      }
      for (const id of decision.start) {
        start(id);
        report({ type: 'task-started', taskId: id, stats: stats(this.plan, state) });
      }
      if (running === 0) break;
      if (completed.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      for (const outcome of completed.splice(0)) {
        running--;
        if (outcome.error) {
          log?.error({ flow: this.name, task: outcome.id, err: outcome.error.cause }, 'Error');
          taskErrors.push(outcome.error);
          state = finish(state, outcome.id, 'failed');
          report({
            type: 'task-failed',
            taskId: outcome.id,
            error: outcome.error.cause,
            stats: stats(this.plan, state),
          });
        } else {
          log?.info({ flow: this.name, task: outcome.id }, 'Succeeded');
          state = finish(state, outcome.id, 'succeeded');
          if (lastErrors.has(outcome.id) && options.onErrorCleared) {
            try {
              await options.onErrorCleared(outcome.id);
            } catch (err) {
              log?.error({ flow: this.name, task: outcome.id, err }, 'Could not clear the last error');
            }
          }
          report({ type: 'task-succeeded', taskId: outcome.id, stats: stats(this.plan, state) });
        }
      }
    }

    const final = stats(this.plan, state);
    let error: FlowError | undefined;
    const done = final.succeeded.length + final.skipped.length === final.all.length;
    if (signal.aborted && !done) error = new FlowCanceledError(this.name, taskErrors, signal.reason);
    else if (taskErrors.length > 0) error = new FlowFailedError(this.name, taskErrors);
    log?.info({ flow: this.name, progress: final.progressPercent }, 'Finished');
    if (options.reporter) {
      try {
        await options.reporter.report({ type: 'flow-finished', stats: final, error });
      } catch (err) {
        log?.error({ err, event: 'flow-finished' }, 'Progress reporter failed');
      }
    }
    if (error) throw error;
  }
}
