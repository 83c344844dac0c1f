// A control plane with failure tolerance type "zone" spreads over three zones: only seeds with at least three.
import type { Seed, Shoot } from '@gardener-ts/api';

export function isMultiZonalControlPlane(shoot: Shoot): boolean {
  return shoot.spec.controlPlane?.highAvailability?.failureTolerance?.type === 'zone';
}

/** Why the seed cannot host the shoot's zonal control plane, or undefined when it can (or the shoot is not zonal). */
export function tooFewZones(seed: Seed, shoot: Shoot): string | undefined {
  if (!isMultiZonalControlPlane(shoot)) return undefined;
  const zones = seed.spec.provider.zones?.length ?? 0;
  return zones >= 3
    ? undefined
    : `seed has ${zones} zone(s), a control plane with failure tolerance type 'zone' needs at least 3`;
}
