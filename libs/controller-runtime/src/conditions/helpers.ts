// Reading and writing condition lists the way Gardener's controllers do: one condition per type, replaced in place.
import { ConditionBuilder } from './builder.js';
import {
  REASON_CHECK_ERROR,
  systemClock,
  type Condition,
  type ConditionStatus,
  type ErrorCode,
  type WallClock,
} from './types.js';

/** A fresh condition of `type`: status Unknown, reason `ConditionInitialized`. */
export function initCondition(type: string, clock: WallClock = systemClock): Condition {
  return new ConditionBuilder(type).withClock(clock).build().condition;
}

export function getCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  const found = conditions?.find((c) => c.type === type);
  return found && structuredClone(found);
}

export function getOrInitCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
  clock: WallClock = systemClock,
): Condition {
  return getCondition(conditions, type) ?? initCondition(type, clock);
}

/** The condition with a new status, reason, message and codes (`UpdatedCondition` in Gardener). */
export function updatedCondition(
  condition: Condition,
  status: ConditionStatus,
  reason: string,
  message: string,
  options: { codes?: ErrorCode[]; clock?: WallClock } = {},
): Condition {
  return new ConditionBuilder(condition.type)
    .withOldCondition(condition)
    .withClock(options.clock ?? systemClock)
    .withStatus(status)
    .withReason(reason)
    .withMessage(message)
    .withCodes(...(options.codes ?? []))
    .build().condition;
}

/** The condition as Unknown with reason `ConditionCheckError`: the check itself could not be performed. */
export function updatedConditionUnknownError(
  condition: Condition,
  err: unknown,
  options: { codes?: ErrorCode[]; clock?: WallClock } = {},
): Condition {
  const message = err === undefined || err === null ? 'unknown' : err instanceof Error ? err.message : String(err);
  return updatedCondition(condition, 'Unknown', REASON_CHECK_ERROR, message, options);
}

/** `newCondition`, or an Unknown error condition when the check failed or produced nothing. */
export function newConditionOrError(
  oldCondition: Condition,
  newCondition: Condition | undefined,
  err: unknown,
  clock: WallClock = systemClock,
): Condition {
  if (err !== undefined || !newCondition) return updatedConditionUnknownError(oldCondition, err, { clock });
  return newCondition;
}

/** Replaces conditions of the same type in place and appends the rest, keeping the order of `oldConditions`. */
export function mergeConditions(
  oldConditions: readonly Condition[] | undefined,
  ...newConditions: Condition[]
): Condition[] {
  const out = [...(oldConditions ?? [])];
  for (const condition of newConditions) {
    const index = out.findIndex((c) => c.type === condition.type);
    if (index >= 0) out[index] = condition;
    else out.push(condition);
  }
  return out;
}

export function removeConditions(conditions: readonly Condition[] | undefined, ...types: string[]): Condition[] {
  return (conditions ?? []).filter((c) => !types.includes(c.type));
}

export function retainConditions(conditions: readonly Condition[] | undefined, ...types: string[]): Condition[] {
  return (conditions ?? []).filter((c) => types.includes(c.type));
}

/** Removes `removeTypes`, then merges `newConditions`: the conditions a status update should write. */
export function buildConditions(
  base: readonly Condition[] | undefined,
  newConditions: Condition[],
  removeTypes: string[] = [],
): Condition[] {
  return mergeConditions(removeConditions(base, ...removeTypes), ...newConditions);
}

/** True when writing `newConditions` would change what `existing` holds. */
export function conditionsNeedUpdate(
  existing: readonly Condition[] | undefined,
  newConditions: readonly Condition[],
): boolean {
  return existing === undefined || JSON.stringify(normalize(existing)) !== JSON.stringify(normalize(newConditions));
}

const normalize = (conditions: readonly Condition[]) =>
  conditions.map((c) => ({ ...c, codes: c.codes?.length ? c.codes : undefined }));
