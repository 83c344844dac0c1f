// Gardener's Condition (core.gardener.cloud/v1beta1), as it appears on the wire: timestamps are RFC 3339 strings.

/** Gardener adds `Progressing` to the usual three: a check fails, but not yet for longer than its threshold. */
export type ConditionStatus = 'True' | 'False' | 'Unknown' | 'Progressing';

/** Gardener's error codes (`ERR_INFRA_UNAUTHORIZED`, `ERR_CONFIGURATION_PROBLEM`, ...): machine-readable failure classes. */
export type ErrorCode = string;

export interface Condition {
  type: string;
  status: ConditionStatus;
  /** When the status last changed. */
  lastTransitionTime: string;
  /** When anything about the condition last changed. */
  lastUpdateTime: string;
  reason: string;
  message: string;
  codes?: ErrorCode[];
}

/** Wall-clock time, injectable so tests can move it. */
export interface WallClock {
  now(): Date;
}

export const systemClock: WallClock = { now: () => new Date() };

/** The API's timestamp format: RFC 3339 in UTC with whole seconds, as metav1.Time serializes. */
export function timestamp(date: Date): string {
  return new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export const REASON_INITIALIZED = 'ConditionInitialized';
export const MESSAGE_INITIALIZED =
  'The condition has been initialized but its semantic check has not been performed yet.';
/** The reason of a condition whose check itself failed. */
export const REASON_CHECK_ERROR = 'ConditionCheckError';
export const REASON_UNSPECIFIED = 'Unspecified';
export const MESSAGE_UNSPECIFIED = 'No message given.';
