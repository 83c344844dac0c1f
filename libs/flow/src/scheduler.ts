// The pure core of a flow execution: given the plan (tasks and their dependencies, in topological order) and the
// status of every task, which tasks are skipped and which start now. No promises, no clocks: the executor in
// `flow.ts` feeds it task outcomes. Semantics as Gardener's flow execution: a task starts once all its dependencies
// succeeded or were skipped; a failed task never triggers its dependants (transitively), independent branches keep
// running and every error is reported; cancellation starts nothing new.
import type { TaskId } from './task.js';

/** The status of one task during an execution (Gardener's `Stats` sets). */
export type TaskStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped';

/** One task of a plan. */
export interface PlanTask {
  readonly id: TaskId;
  readonly dependencies: readonly TaskId[];
  readonly skip: boolean;
}

/** A validated flow: tasks in a topological order (dependencies first), stable in insertion order. */
export interface Plan {
  readonly name: string;
  readonly tasks: readonly PlanTask[];
}

/** The status of every task of a plan. Treated as immutable: transitions return a new state. */
export type SchedulerState = ReadonlyMap<TaskId, TaskStatus>;

/** What the executor does next: mark `skip` as skipped, start `start`. */
export interface Decision {
  readonly skip: readonly TaskId[];
  readonly start: readonly TaskId[];
}

/** Limits of one step. */
export interface DecisionOptions {
  /** At most this many tasks run at once (Infinity: Gardener's maximum parallelism). */
  readonly maxParallel: number;
  /** A canceled execution skips and starts nothing. */
  readonly canceled?: boolean;
}

/** A snapshot of an execution (Gardener's `flow.Stats`), every list in plan order. */
export interface FlowStats {
  readonly flowName: string;
  readonly all: readonly TaskId[];
  readonly pending: readonly TaskId[];
  readonly running: readonly TaskId[];
  readonly succeeded: readonly TaskId[];
  readonly failed: readonly TaskId[];
  readonly skipped: readonly TaskId[];
  /** Done tasks (succeeded or skipped) in percent of all tasks, rounded down; 100 for an empty flow. */
  readonly progressPercent: number;
}

/** Every task pending. */
export function initialState(plan: Plan): SchedulerState {
  return new Map(plan.tasks.map((t) => [t.id, 'pending' as const]));
}

function isDone(status: TaskStatus | undefined): boolean {
  return status === 'succeeded' || status === 'skipped';
}

/**
 * The next step: pending tasks whose dependencies are all done are ready; ready tasks flagged `skip` are skipped
 * (cascading, since a skipped task counts as done) and ready tasks to run start in plan order while fewer than
 * `maxParallel` run. Skipping takes no slot.
 */
export function decide(plan: Plan, state: SchedulerState, options: DecisionOptions): Decision {
  if (options.canceled) return { skip: [], start: [] };
  const skip: TaskId[] = [];
  const start: TaskId[] = [];
  const skipped = new Set<TaskId>();
  let free = options.maxParallel - count(state, 'running');
  // Plan order is topological, so one pass sees a skip before any task depending on it.
  for (const task of plan.tasks) {
    if (state.get(task.id) !== 'pending') continue;
    const ready = task.dependencies.every((d) => isDone(state.get(d)) || skipped.has(d));
    if (!ready) continue;
    if (task.skip) {
      skip.push(task.id);
      skipped.add(task.id);
    } else if (free > 0) {
      start.push(task.id);
      free--;
    }
  }
  return { skip, start };
}

/** The state after the decision was carried out (skips marked, starts running). */
export function apply(state: SchedulerState, decision: Decision): SchedulerState {
  if (decision.skip.length === 0 && decision.start.length === 0) return state;
  const next = new Map(state);
  for (const id of decision.skip) next.set(id, 'skipped');
  for (const id of decision.start) next.set(id, 'running');
  return next;
}

/** The state after a running task finished. */
export function finish(state: SchedulerState, id: TaskId, outcome: 'succeeded' | 'failed'): SchedulerState {
  if (state.get(id) !== 'running') throw new Error(`task "${id}" finished but is not running (${state.get(id)})`);
  const next = new Map(state);
  next.set(id, outcome);
  return next;
}

/** True when nothing runs and nothing can start any more (finished, failed branches or canceled). */
export function isSettled(plan: Plan, state: SchedulerState, options: DecisionOptions): boolean {
  if (count(state, 'running') > 0) return false;
  const d = decide(plan, state, { ...options, maxParallel: Infinity });
  return d.skip.length === 0 && d.start.length === 0;
}

/** Tasks that can never run because a dependency failed, directly or transitively. */
export function blockedByFailure(plan: Plan, state: SchedulerState): TaskId[] {
  const blocked = new Set<TaskId>();
  for (const task of plan.tasks) {
    if (task.dependencies.some((d) => state.get(d) === 'failed' || blocked.has(d))) blocked.add(task.id);
  }
  return [...blocked];
}

/** The progress in percent: succeeded and skipped tasks of all tasks, rounded down; an empty plan is complete. */
export function progressPercent(plan: Plan, state: SchedulerState): number {
  if (plan.tasks.length === 0) return 100;
  const done = plan.tasks.filter((t) => isDone(state.get(t.id))).length;
  return Math.floor((100 * done) / plan.tasks.length);
}

/** A snapshot of the execution for progress reporting. */
export function stats(plan: Plan, state: SchedulerState): FlowStats {
  const by = (s: TaskStatus) => plan.tasks.filter((t) => state.get(t.id) === s).map((t) => t.id);
  return {
    flowName: plan.name,
    all: plan.tasks.map((t) => t.id),
    pending: by('pending'),
    running: by('running'),
    succeeded: by('succeeded'),
    failed: by('failed'),
    skipped: by('skipped'),
    progressPercent: progressPercent(plan, state),
  };
}

function count(state: SchedulerState, status: TaskStatus): number {
  let n = 0;
  for (const s of state.values()) if (s === status) n++;
  return n;
}
