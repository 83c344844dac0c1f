// Zone placement of a single-zone control plane.
// - Zone pinning: a shoot's spec.controlPlane.zones pins its control plane to those zones; only seeds having all of
//   them fit, and the seeds' zone selection modes are then not applied.
// - Zone selection (spec.settings.zoneSelection.mode of the seed) places the control plane in a zone of the shoot's
//   worker pools. "Enforce": the seed only takes shoots with at least one worker zone it has. "Prefer": the seed takes
//   any shoot, and the scheduler prefers such seeds that have one of the shoot's worker zones.
//   Only non-HA shoots and HA shoots with failure tolerance "node" are placed in a single zone this way.
import type { Seed, Shoot } from '@gardener-ts/api';
import { isMultiZonalControlPlane } from './high-availability.js';

/** The zones a shoot pins its control plane to (spec.controlPlane.zones), if any. */
export function pinnedZones(shoot: Shoot): string[] {
  const controlPlane = shoot.spec.controlPlane as { zones?: unknown } | undefined;
  return Array.isArray(controlPlane?.zones) ? controlPlane.zones.filter((z): z is string => typeof z === 'string') : [];
}

/** The distinct zones of the shoot's worker pools. */
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
  return missing.length === 0
    ? undefined
    : `seed lacks the zone(s) [${missing.join(', ')}] the control plane is pinned to`;
}

/** The worker zones zone selection applies to: none for zone-tolerant, pinned or workerless shoots. */
function selectableWorkerZones(shoot: Shoot): string[] {
  if (isMultiZonalControlPlane(shoot) || pinnedZones(shoot).length > 0) return [];
  return workerZones(shoot);
}

/** Why a seed enforcing zone selection cannot take the shoot (it has none of the worker zones), or undefined. */
export function enforcedZonesMissing(seed: Seed, shoot: Shoot): string | undefined {
  if (seed.spec.settings?.zoneSelection?.mode !== 'Enforce') return undefined;
  const wanted = selectableWorkerZones(shoot);
  if (wanted.length === 0) return undefined;
  const have = new Set(seed.spec.provider.zones ?? []);
  return wanted.some((z) => have.has(z))
    ? undefined
    : `seed enforces zone selection and has none of the worker zone(s) [${wanted.join(', ')}]`;
}

/**
 * Whether the seed's zone selection can place the shoot's control plane in one of its worker zones: the seed has a
 * zone selection mode and at least one of the worker zones. The scheduler prefers such seeds.
 */
export function placesInWorkerZone(seed: Seed, shoot: Shoot): boolean {
  if (!seed.spec.settings?.zoneSelection?.mode) return false;
  const wanted = selectableWorkerZones(shoot);
  if (wanted.length === 0) return false;
  const have = new Set(seed.spec.provider.zones ?? []);
  return wanted.some((z) => have.has(z));
}
