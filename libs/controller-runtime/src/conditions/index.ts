export { ConditionBuilder } from './builder.js';
export {
  initCondition,
  getCondition,
  getOrInitCondition,
  updatedCondition,
  updatedConditionUnknownError,
  newConditionOrError,
  mergeConditions,
  removeConditions,
  retainConditions,
  buildConditions,
  conditionsNeedUpdate,
} from './helpers.js';
export {
  failedCondition,
  type ConditionThresholds,
  type FailedConditionOptions,
  type LastOperationInfo,
} from './thresholds.js';
export {
  systemClock,
  timestamp,
  REASON_CHECK_ERROR,
  REASON_INITIALIZED,
  type Condition,
  type ConditionStatus,
  type ErrorCode,
  type WallClock,
} from './types.js';
