// A small helper over `@gardener-ts/flow`'s Graph for the shoot flows: a task either calls a step of the operation
// (retried until a timeout like Gardener's `RetryUntilTimeout` when asked), is skipped by Gardener's own condition
// (`skipIf`), or has no local counterpart and is skipped with a reason that the flow lists.
import { Graph, type RetryOptions, type TaskId } from '@gardener-ts/flow';
import type { SkippedTask, Step } from './operation.js';

/** How a task of a shoot flow is added. */
export interface ShootTaskSpec {
  /** Gardener's task name. */
  readonly name: string;
  readonly dependencies?: readonly TaskId[];
  /** The step it runs; required unless the task is always skipped (`local`, or `skipIf` true). */
  readonly step?: Step;
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
    if (spec.local) this.skipped.push({ task: spec.name, reason: spec.local });
    const step = spec.step;
    if (!spec.local && spec.skipIf !== true && !step) {
      throw new Error(`task "${spec.name}" runs but has no step`);
    }
    return this.graph.add({
      name: spec.name,
      dependencies: spec.dependencies,
      skipIf: Boolean(spec.local) || spec.skipIf === true,
      ...(spec.retry && this.retry ? { retryUntilTimeout: this.retry } : {}),
      fn: ({ signal }) => (step ? step(signal) : undefined),
    });
  }
}

/** Gardener's retry of deploy steps: every 5 s for 30 s. */
export const DefaultStepRetry: RetryOptions = { interval: 5_000, timeout: 30_000 };
