// Progress reporting of a flow run: events for the flow and every task (started, succeeded, failed, skipped,
// retrying, finished) carrying a stats snapshot, and the adapter that turns them into Gardener's
// `lastOperation.progress` / `description` ("Starting <flow>", the running tasks, "<flow> finished", as
// Gardener's `flow.MakeDescription`). Publishing the events on NATS stays with the caller.
import type { FlowError } from './errors.js';
import type { FlowStats } from './scheduler.js';
import type { TaskId } from './task.js';

/** One progress event of a flow run. */
export type ProgressEvent =
  | { readonly type: 'flow-started'; readonly stats: FlowStats }
  | { readonly type: 'task-started'; readonly taskId: TaskId; readonly stats: FlowStats }
  | { readonly type: 'task-succeeded'; readonly taskId: TaskId; readonly stats: FlowStats }
  | { readonly type: 'task-failed'; readonly taskId: TaskId; readonly error: unknown; readonly stats: FlowStats }
  | { readonly type: 'task-skipped'; readonly taskId: TaskId; readonly stats: FlowStats }
  | {
      readonly type: 'task-retrying';
      readonly taskId: TaskId;
      readonly error: unknown;
      readonly attempt: number;
      readonly stats: FlowStats;
    }
  | { readonly type: 'flow-finished'; readonly stats: FlowStats; readonly error?: FlowError };

/**
 * Receives the progress of a flow run (Gardener's `ProgressReporter` and `RetryReporter`). `report` is called in
 * event order; its promise is awaited only for `flow-finished`, so a slow reporter never slows the flow, and its
 * errors are logged, never fail the flow.
 */
export interface ProgressReporter {
  report(event: ProgressEvent): void | Promise<void>;
}

/** A reporter that forwards every event to all given reporters. */
export function combineReporters(...reporters: ProgressReporter[]): ProgressReporter {
  return {
    async report(event) {
      const results = await Promise.allSettled(reporters.map(async (r) => r.report(event)));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}

/** The description Gardener writes into `lastOperation.description` for a snapshot (`flow.MakeDescription`). */
export function describeProgress(stats: FlowStats): string {
  if (stats.progressPercent === 0) return `Starting ${stats.flowName}`;
  if (stats.progressPercent === 100) return `${stats.flowName} finished`;
  return [...stats.running].sort().join(', ');
}

/** The `lastOperation` fields a progress update sets. */
export interface LastOperationProgress {
  readonly progress: number;
  readonly description: string;
  /** RFC 3339 time of the update. */
  readonly lastUpdateTime: string;
}

/** The `lastOperation` fields for a snapshot. */
export function lastOperationProgress(stats: FlowStats, now: Date = new Date()): LastOperationProgress {
  return {
    progress: stats.progressPercent,
    description: describeProgress(stats),
    lastUpdateTime: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

/** Options of `LastOperationReporter`. */
export interface LastOperationReporterOptions {
  /** The clock, for tests. */
  readonly now?: () => Date;
}

/**
 * Writes `lastOperation.progress` and `description` through `write` (the caller's status patch) as the flow
 * advances. Writes never overlap: while one is in flight only the newest update waits, older ones are dropped
 * (Gardener's delaying reporter coalesces the same way), and an unchanged progress and description is not
 * written again. The final update is awaited when the flow finishes. A failed write is rethrown to the flow,
 * which logs it.
 */
export class LastOperationReporter implements ProgressReporter {
  private inFlight: Promise<void> | undefined;
  private queued: LastOperationProgress | undefined;
  private last: { progress: number; description: string } | undefined;
  private readonly now: () => Date;

  constructor(
    private readonly write: (update: LastOperationProgress) => Promise<void>,
    options: LastOperationReporterOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  report(event: ProgressEvent): Promise<void> | void {
    if (event.type === 'task-retrying') return;
    const update = lastOperationProgress(event.stats, this.now());
    if (this.last && this.last.progress === update.progress && this.last.description === update.description) {
      return event.type === 'flow-finished' ? this.inFlight : undefined;
    }
    this.last = { progress: update.progress, description: update.description };
    this.queued = update;
    if (this.inFlight) return event.type === 'flow-finished' ? this.inFlight : undefined;
    this.inFlight = this.drain();
    return this.inFlight;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queued) {
        const update = this.queued;
        this.queued = undefined;
        await this.write(update);
      }
    } finally {
      this.inFlight = undefined;
    }
  }
}
