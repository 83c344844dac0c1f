// The reconciler toolkit: finalizers, the operation annotation, lastOperation/lastError, error codes, typed built-in kinds.
export {
  addFinalizer,
  finalize,
  hasFinalizer,
  isBeingDeleted,
  removeFinalizer,
  type FinalizeBranches,
  type FinalizerClient,
} from './finalizers.js';
export {
  MAX_CONFLICT_RETRIES,
  liveReader,
  OPERATION_ANNOTATION,
  OPERATION_MIGRATE,
  OPERATION_RECONCILE,
  OPERATION_RESTORE,
  OPERATION_RETRY,
  OPERATION_WAIT_FOR_STATE,
  operationOf,
  removeOperationAnnotation,
} from './operation.js';
export {
  buildLastError,
  buildLastOperation,
  lastOperationStatus,
  patchStatus,
  updateLastOperation,
  type LastError,
  type LastOperation,
  type LastOperationUpdate,
} from './last-operation.js';
export { CodedError, determineErrorCodes, errorCodesOf, messageOf, wrapError } from './errors.js';
export {
  Kinds,
  type BuiltinKind,
  type BuiltinKindName,
  type NodeObject,
  type PodObject,
  type StatusCondition,
  type Workload,
} from './kinds.js';
export { pollDelays } from './poll.js';
