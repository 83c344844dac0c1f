// The pure core of the health check library (Gardener's extensions/pkg/controller/healthcheck): the results of the
// checks registered for one condition type become that condition on the extension resource — True when all pass,
// Progressing while a check reports progress within its threshold, False on failure, Unknown when a check could not run.
import { getOrInitCondition, updatedCondition, type Condition, type WallClock } from '@gardener-ts/controller-runtime';

/** Reason of a condition whose checks all passed. */
export const ReasonSuccessful = 'HealthCheckSuccessful';
/** Reason of a condition with a failed check (or a check that could not run). */
export const ReasonUnsuccessful = 'HealthCheckUnsuccessful';
/** Reason of a condition with a check in progress. */
export const ReasonProgressing = 'HealthCheckProgressing';

/** What one check found. */
export interface CheckResult {
  /** True: healthy; False: unhealthy; Progressing: not yet healthy but getting there (a rollout). */
  status: 'True' | 'False' | 'Progressing';
  /** Why, for False and Progressing. */
  detail?: string;
  /** Gardener error codes of the failure. */
  codes?: string[];
  /** How long (ms) Progressing may last before the condition turns False; without it Progressing is reported as is. */
  progressingThresholdMs?: number;
}

/** A check's outcome: a result, or the error that kept it from running. */
export type CheckOutcome = { result: CheckResult } | { error: unknown };

/**
 * The condition of `type` after its checks ran (`old` is the condition the resource has now):
 * any check that could not run → Unknown; any False → False (details joined); any Progressing → Progressing, or False
 * once the condition has been Progressing longer than the smallest threshold; else True.
 */
export function conditionFromResults(
  type: string,
  old: Condition | undefined,
  outcomes: readonly CheckOutcome[],
  clock: WallClock,
): Condition {
  const base = old ?? getOrInitCondition(undefined, type, clock);
  const errors = outcomes.flatMap((o) => ('error' in o ? [o.error] : []));
  if (errors.length > 0) {
    const messages = errors.map((e) => (e instanceof Error ? e.message : String(e)));
    return updatedCondition(
      base,
      'Unknown',
      ReasonUnsuccessful,
      `failed to execute ${errors.length} health check(s): ${messages.join(', ')}`,
      { clock },
    );
  }
  const results = outcomes.flatMap((o) => ('result' in o ? [o.result] : []));
  const failed = results.filter((r) => r.status === 'False');
  if (failed.length > 0) {
    const codes = [...new Set(failed.flatMap((r) => r.codes ?? []))].sort();
    return updatedCondition(base, 'False', ReasonUnsuccessful, joinDetails(failed), { codes, clock });
  }
  const progressing = results.filter((r) => r.status === 'Progressing');
  if (progressing.length > 0) {
    const thresholds = progressing.flatMap((r) =>
      r.progressingThresholdMs !== undefined ? [r.progressingThresholdMs] : [],
    );
    const threshold = thresholds.length ? Math.min(...thresholds) : undefined;
    const since = base.status === 'Progressing' ? Date.parse(base.lastTransitionTime) : clock.now().getTime();
    if (threshold !== undefined && clock.now().getTime() - since > threshold) {
      return updatedCondition(base, 'False', ReasonUnsuccessful, joinDetails(progressing), { clock });
    }
    return updatedCondition(base, 'Progressing', ReasonProgressing, joinDetails(progressing), { clock });
  }
  return updatedCondition(base, 'True', ReasonSuccessful, `All health checks successful`, { clock });
}

function joinDetails(results: readonly CheckResult[]): string {
  const details = results.map((r) => r.detail ?? 'no detail given');
  return details.length === 1 ? details[0] : details.map((d, i) => `${i + 1}) ${d}`).join(' ');
}

/** The conditions for a shoot that is hibernated: nothing runs, so nothing can be unhealthy (Gardener reports True). */
export function hibernatedCondition(type: string, old: Condition | undefined, clock: WallClock): Condition {
  return updatedCondition(
    old ?? getOrInitCondition(undefined, type, clock),
    'True',
    ReasonSuccessful,
    'Shoot is hibernated',
    { clock },
  );
}

/** The condition before the extension has been reconciled successfully once: the checks are not run yet. */
export function notReconciledCondition(
  type: string,
  old: Condition | undefined,
  kindName: string,
  clock: WallClock,
): Condition {
  return updatedCondition(
    old ?? getOrInitCondition(undefined, type, clock),
    'Unknown',
    ReasonUnsuccessful,
    `Health checks have not been executed: the ${kindName} has not been reconciled successfully yet`,
    { clock },
  );
}
