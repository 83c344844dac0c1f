// A small helper over `@gardener-ts/flow`'s Graph for the shoot flows: a task either calls a step of the operation
// (retried until a timeout like Gardener's `RetryUntilTimeout` when asked), is skipped by Gardener's own condition
// (`skipIf`), or has no local counterpart and is skipped with a reason that the flow lists. A step the operation does
// not provide (a partial operation) is skipped and listed too, as not implemented locally yet — never run as a no-op.
import { Graph, type RetryOptions, type TaskId } from '@gardener-ts/flow';
import { SkipReasons, type SkippedTask, type StepOrSkip } from './operation.js';

/** How a task of a shoot flow is added. */
export interface ShootTaskSpec {
  /** Gardener's task name. */
  readonly name: string;
  readonly dependencies?: readonly TaskId[];
  /** The step it runs; when the operation has none, the task is skipped and listed as not implemented locally. */
  readonly step?: StepOrSkip;
  /** Gardener's skip condition. */
  readonly skipIf?: boolean;
  /** Why the task has no local counterpart: it is skipped and listed. */
  readonly local?: string;
  /** Retry the step until this timeout (Gardener's `RetryUntilTimeout(defaultInterval, defaultTimeout)`). */
  readonly retry?: boolean;
}

/** A shoot flow graph: the Graph plus the tasks skipped for lack of a local counterpart. */
export class ShootGraph {
  readonly graph: Graph;
  readonly skipped: SkippedTask[] = [];

  /** A new graph of that name; `retry` is used for tasks added with `retry: true` (none when undefined). */
  constructor(
    name: string,
    private readonly retry: RetryOptions | undefined,
  ) {
    this.graph = new Graph(name);
  }

  /** Adds a task and returns its id. */
  add(spec: ShootTaskSpec): TaskId {
    const step = typeof spec.step === 'function' ? spec.step : undefined;
    const cannot = spec.step && typeof spec.step !== 'function' ? spec.step.skip : undefined;
    const local = spec.local ?? (spec.skipIf !== true && !step ? (cannot ?? SkipReasons.notImplemented) : undefined);
    if (local) this.skipped.push({ task: spec.name, reason: local });
    return this.graph.add({
      name: spec.name,
      dependencies: spec.dependencies,
      skipIf: Boolean(local) || spec.skipIf === true,
      ...(spec.retry && this.retry ? { retryUntilTimeout: this.retry } : {}),
      fn: ({ signal }) => (step ? step(signal) : undefined),
    });
  }
}

/** Gardener's retry of deploy steps: every 5 s for 30 s. */
export const DefaultStepRetry: RetryOptions = { interval: 5_000, timeout: 30_000 };
