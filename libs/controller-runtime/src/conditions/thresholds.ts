// The care controllers' threshold logic: a failing health check does not flip a healthy condition to False at once.
// With a threshold configured for the condition type, it first turns Progressing, and only once it has been Progressing
// for longer than the threshold does it turn False — short disruptions (a rolling update) never report as failures.
import { updatedCondition } from './helpers.js';
import { systemClock, type Condition, type ErrorCode, type WallClock } from './types.js';

/** Per condition type, how long a failing check may stay Progressing before the condition turns False (ms). */
export type ConditionThresholds = Readonly<Record<string, number>>;

/** The object's last operation, as far as the threshold logic needs it. */
export interface LastOperationInfo {
  state: string;
  /** RFC 3339. */
  lastUpdateTime: string;
}

export interface FailedConditionOptions {
  thresholds: ConditionThresholds;
  /** A recently succeeded operation (within the threshold) keeps a failing condition Progressing: the system is still settling. */
  lastOperation?: LastOperationInfo;
  codes?: ErrorCode[];
  clock?: WallClock;
}

/** The condition after a failed check: Progressing or False, by the rules above (`FailedCondition` in Gardener). */
export function failedCondition(
  condition: Condition,
  reason: string,
  message: string,
  options: FailedConditionOptions,
): Condition {
  const clock = options.clock ?? systemClock;
  const threshold = options.thresholds[condition.type];
  const now = clock.now().getTime();
  const to = (status: 'Progressing' | 'False') =>
    updatedCondition(condition, status, reason, message, { codes: options.codes, clock });
  const recentlySucceeded =
    threshold !== undefined &&
    options.lastOperation?.state === 'Succeeded' &&
    now - Date.parse(options.lastOperation.lastUpdateTime) <= threshold;

  if (threshold === undefined) return to('False');
  switch (condition.status) {
    case 'True':
      return to('Progressing');
    case 'Progressing':
      return recentlySucceeded || now - Date.parse(condition.lastTransitionTime) <= threshold
        ? to('Progressing')
        : to('False');
    case 'False':
      // A new failure reason starts a new grace period.
      return recentlySucceeded || reason !== condition.reason ? to('Progressing') : to('False');
    default:
      return to('False');
  }
}
