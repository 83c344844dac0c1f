// The decision of Gardener's seed lifecycle controller, as a pure function: a gardenlet renews the Lease named after
// its seed in `gardener-system-seed-lease`; when it has not renewed it for `monitorPeriod`, the seed's
// `GardenletReady` condition becomes Unknown, and once that has lasted `shootMonitorPeriod` the conditions and
// constraints of every shoot on the seed become Unknown too (nobody checks them any more).
import type { Condition } from '@gardener-ts/controller-runtime';

/** Where gardenlets keep their seeds' Leases (Gardener's GardenerSeedLeaseNamespace). */
export const SeedLeaseNamespace = 'gardener-system-seed-lease';

export const GardenletReady = 'GardenletReady';
/** Reason and message Gardener writes on the seed. */
export const SeedStatusUnknownReason = 'SeedStatusUnknown';
export const SeedStatusUnknownMessage = 'Gardenlet stopped posting seed status.';
/** Reason and message Gardener writes on the shoots. */
export const ShootStatusUnknownReason = 'StatusUnknown';
export const ShootStatusUnknownMessage = 'Gardenlet stopped sending heartbeats.';

/** The shoot conditions and constraints set to Unknown (Gardener's list). */
export const ShootConditionTypes = [
  'APIServerAvailable',
  'ControlPlaneHealthy',
  'ObservabilityComponentsHealthy',
  'EveryNodeReady',
  'SystemComponentsHealthy',
] as const;
export const ShootConstraintTypes = ['HibernationPossible', 'MaintenancePreconditionsSatisfied'] as const;

export interface LifecycleInput {
  /** The seed's conditions: none means the gardenlet never reported, so there is nothing to judge yet. */
  conditions: readonly Condition[] | undefined;
  /** The Lease's `spec.renewTime`; undefined when the Lease or the field is missing. */
  renewTime: Date | undefined;
  now: Date;
  monitorPeriodMs: number;
  shootMonitorPeriodMs: number;
}

/** What to do: nothing (the gardenlet is alive or never reported), or mark the seed — and maybe its shoots — Unknown. */
export type LifecycleDecision =
  { action: 'wait' } | { action: 'seedUnknown'; shootsUnknown: boolean; offlineSince?: Date };

/**
 * Judges the gardenlet's heartbeat. `offlineSince` is when GardenletReady became Unknown (the condition's transition
 * time, or now when it turns Unknown in this step).
 */
export function decideLifecycle(input: LifecycleInput): LifecycleDecision {
  if (!input.conditions || input.conditions.length === 0) return { action: 'wait' };
  if (input.renewTime && input.renewTime.getTime() + input.monitorPeriodMs > input.now.getTime()) {
    return { action: 'wait' };
  }
  const ready = input.conditions.find((c) => c.type === GardenletReady);
  const offlineSince = ready && ready.status === 'Unknown' ? new Date(ready.lastTransitionTime) : input.now;
  const shootsUnknown = offlineSince.getTime() + input.shootMonitorPeriodMs <= input.now.getTime();
  return { action: 'seedUnknown', shootsUnknown, offlineSince };
}
