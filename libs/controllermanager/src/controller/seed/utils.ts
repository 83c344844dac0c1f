// What Gardener's seed check controllers share (pkg/controllermanager/controller/seed/utils): the configured threshold
// of a condition type, the step "Progressing first, then False (or Unknown) once the threshold has passed", and the
// status patch that writes one Seed condition only when it changed.
import { parseDuration } from '@gardener-ts/component-config';
import type { Seed } from '@gardener-ts/api';
import {
  conditionsNeedUpdate,
  mergeConditions,
  updatedCondition,
  type Client,
  type Condition,
  type ConditionThresholds,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { SeedKind } from '../../kinds.js';

/** One `conditionThresholds` entry of the ControllerManagerConfiguration. */
export interface ConditionThresholdConfig {
  type: string;
  /** A Go duration. */
  duration: string;
}

/** The thresholds per condition type in milliseconds; the first entry of a type wins, as Gardener looks them up. */
export function conditionThresholdsMs(list: readonly ConditionThresholdConfig[] | undefined): ConditionThresholds {
  const out: Record<string, number> = {};
  for (const { type, duration } of list ?? []) {
    if (type in out) continue;
    const ms = parseDuration(duration);
    if (ms === undefined)
      throw new Error(`conditionThresholds: invalid duration ${JSON.stringify(duration)} of ${type}`);
    out[type] = ms;
  }
  return out;
}

/** The threshold of `type`; 0 (none) when not configured (Gardener's GetThresholdForCondition). */
export function thresholdFor(thresholds: ConditionThresholds, type: string): number {
  return thresholds[type] ?? 0;
}

/**
 * The condition after a failed check (Gardener's SetToProgressingOrFalse / SetToProgressingOrUnknown): with a
 * threshold, a True condition first turns Progressing and stays so while it has been Progressing for no longer than
 * the threshold; then, and always without a threshold or from any other status, it turns `eventual`.
 */
export function setToProgressingOr(
  eventual: 'False' | 'Unknown',
  condition: Condition,
  thresholdMs: number,
  reason: string,
  message: string,
  clock: WallClock,
): Condition {
  const to = (status: Condition['status']) => updatedCondition(condition, status, reason, message, { clock });
  if (thresholdMs <= 0) return to(eventual);
  switch (condition.status) {
    case 'True':
      return to('Progressing');
    case 'Progressing':
      return clock.now().getTime() - Date.parse(condition.lastTransitionTime) <= thresholdMs
        ? to('Progressing')
        : to(eventual);
    default:
      return to(eventual);
  }
}

/** The seed's conditions as the controllers read them. */
export const seedConditions = (seed: Seed): Condition[] => (seed.status?.conditions ?? []) as Condition[];

/**
 * Writes `condition` into the seed's status when that changes anything (Gardener's PatchSeedCondition). The merge patch
 * carries the seed's resourceVersion: CRDs have no strategic merge by condition type, so a concurrent writer of another
 * condition makes this fail with a conflict (retried) instead of being overwritten. Returns whether it patched.
 */
export async function patchSeedCondition(
  client: Pick<Client, 'patch'>,
  seed: Seed,
  condition: Condition,
): Promise<boolean> {
  const existing = seedConditions(seed);
  const conditions = mergeConditions(existing, condition);
  if (!conditionsNeedUpdate(existing, conditions)) return false;
  await client.patch(
    SeedKind,
    { name: seed.metadata!.name! },
    { type: 'merge', patch: { metadata: { resourceVersion: seed.metadata!.resourceVersion }, status: { conditions } } },
    { subresource: 'status' },
  );
  return true;
}
