// @gardener-ts/flow: Gardener's task flows: a DAG of tasks with dependencies, bounded parallelism, retries, progress reporting.
export { Graph } from './graph.js';
export { Flow, type FlowLogger, type RunOptions } from './flow.js';
export {
  flattenTaskIds,
  type RetryOptions,
  type Task,
  type TaskContext,
  type TaskFn,
  type TaskId,
  type TaskIds,
} from './task.js';
export {
  doIf,
  emptyTaskFn,
  parallel,
  parallelExitOnError,
  parallelN,
  recover,
  retryUntilTimeout,
  sequential,
  skipIf,
  sleep,
  timeout,
  TaskTimeoutError,
  type AsyncTaskFn,
  type RecoverFn,
} from './taskfn.js';
export {
  FlowCanceledError,
  FlowError,
  FlowFailedError,
  GraphValidationError,
  TaskError,
  flowCauses,
  flowErrors,
  wasCanceled,
} from './errors.js';
export {
  combineReporters,
  describeProgress,
  lastOperationProgress,
  LastOperationReporter,
  type LastOperationProgress,
  type LastOperationReporterOptions,
  type ProgressEvent,
  type ProgressReporter,
} from './progress.js';
export {
  apply,
  blockedByFailure,
  decide,
  finish,
  initialState,
  isSettled,
  progressPercent,
  stats,
  type Decision,
  type DecisionOptions,
  type FlowStats,
  type Plan,
  type PlanTask,
  type SchedulerState,
  type TaskStatus,
} from './scheduler.js';
