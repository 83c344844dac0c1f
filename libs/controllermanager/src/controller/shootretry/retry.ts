// When Gardener's shoot retry controller retries a failed Shoot: its last operation failed for the current generation
// with the error code ERR_INFRA_RATE_LIMITS_EXCEEDED (no other code is retried automatically), and `retryPeriod` has
// passed since the operation's last update. Pure.
import { ErrorCode, LastOperationState, type Shoot } from '@gardener-ts/api';

/** Whether the Shoot's last operation failed and is up to date with its spec (Gardener's isShootFailed). */
export function isShootFailed(shoot: Shoot): boolean {
  return (
    shoot.status?.lastOperation?.state === LastOperationState.Failed &&
    (shoot.metadata?.generation ?? 0) === (shoot.status?.observedGeneration ?? 0)
  );
}

/** Whether the Shoot failed because the infrastructure's rate limits were exceeded. */
export function failedDueToRateLimits(shoot: Shoot): boolean {
  return (
    isShootFailed(shoot) &&
    (shoot.status?.lastErrors ?? []).some((e) => (e.codes ?? []).includes(ErrorCode.InfraRateLimitsExceeded))
  );
}

export type RetryDecision = { retry: true } | { retry: false; requeueAfterMs?: number };

/**
 * Retry now when `retryPeriod` has passed since the last operation's update; otherwise check again at that point plus
 * a random part of `jitterMs` (`random` in [0, 1)). Without a last operation there is nothing to retry.
 */
export function decideRetry(
  shoot: Shoot,
  now: Date,
  retryPeriodMs: number,
  jitterMs: number,
  random: () => number = Math.random,
): RetryDecision {
  const lastUpdate = shoot.status?.lastOperation?.lastUpdateTime;
  if (!lastUpdate) return { retry: false };
  const due = new Date(lastUpdate).getTime() + retryPeriodMs;
  if (now.getTime() > due) return { retry: true };
  return { retry: false, requeueAfterMs: due + Math.floor(random() * jitterMs) - now.getTime() };
}
