// Zone placement of a single-zone control plane.
// - Zone pinning: a shoot's spec.controlPlane.zones pins its control plane to those zones; only seeds having all of
//   them fit, and the seeds' zone selection modes are then not applied.
// - Zone selection: a seed with spec.settings.zoneSelection.mode "Enforce" places a control plane in a zone of the
//   shoot's worker pools, so it only takes shoots whose worker zones it all has. "Prefer" (or no mode) takes any.
//   Only non-HA shoots and HA shoots with failure tolerance "node" are placed in a single zone this way.
import type { Seed, Shoot } from '@gardener-ts/api';
import { isMultiZonalControlPlane } from './high-availability.js';

/** The zones a shoot pins its control plane to (spec.controlPlane.zones), if any. */
export function pinnedZones(shoot: Shoot): string[] {
  const controlPlane = shoot.spec.controlPlane as { zones?: unknown } | undefined;
  return Array.isArray(controlPlane?.zones) ? controlPlane.zones.filter((z): z is string => typeof z === 'string') : [];
}

export function workerZones(shoot: Shoot): string[] {
  return [...new Set((shoot.spec.provider.workers ?? []).flatMap((w) => w.zones ?? []))];
}

function missingZones(seed: Seed, wanted: readonly string[]): string[] {
  const have = new Set(seed.spec.provider.zones ?? []);
  return wanted.filter((z) => !have.has(z));
}

/** Why the seed lacks a zone the shoot's control plane is pinned to, or undefined. */
export function pinnedZonesMissing(seed: Seed, shoot: Shoot): string | undefined {
  const pinned = pinnedZones(shoot);
  if (pinned.length === 0) return undefined;
  const missing = missingZones(seed, pinned);
  return missing.length === 0 ? undefined : `seed lacks the zone(s) [${missing.join(', ')}] the control plane is pinned to`;
}

/** Why a seed enforcing zone selection cannot take the shoot, or undefined. */
export function enforcedZonesMissing(seed: Seed, shoot: Shoot): string | undefined {
  if (seed.spec.settings?.zoneSelection?.mode !== 'Enforce') return undefined;
  if (isMultiZonalControlPlane(shoot) || pinnedZones(shoot).length > 0) return undefined;
  const wanted = workerZones(shoot);
  if (wanted.length === 0) return undefined;
  const missing = missingZones(seed, wanted);
  return missing.length === 0 ? undefined : `seed enforces zone selection and lacks the worker zone(s) [${missing.join(', ')}]`;
}
