// The region distance of Gardener's MinimalDistance fallback. A region name is split into an orientation (the first
// of north, south, east, west, central found in it) and a base (the name with that word replaced by ":"). The distance
// is twice the Levenshtein distance of the bases, plus 0 when both orientations match, 1 when only one name has an
// orientation, 2 when they differ. (The strategy adds 2 more when the providers differ.)
import { levenshtein } from './levenshtein.js';

const ORIENTATIONS = ['north', 'south', 'east', 'west', 'central'] as const;

export function splitOrientation(region: string): { base: string; orientation: string } {
  for (const orientation of ORIENTATIONS) {
    const at = region.indexOf(orientation);
    if (at >= 0) return { base: `${region.slice(0, at)}:${region.slice(at + orientation.length)}`, orientation };
  }
  return { base: region, orientation: '' };
}

export interface RegionDistance {
  readonly distance: number;
  readonly levenshtein: number;
}

// Distances by shoot region, then seed region: a landscape has few regions, and every decision compares the shoot's
// against every seed's.
const known = new Map<string, Map<string, RegionDistance>>();
const MAX_CACHED_REGIONS = 1000;

export function regionDistance(seedRegion: string, shootRegion: string): RegionDistance {
  let bySeedRegion = known.get(shootRegion);
  if (!bySeedRegion) {
    if (known.size >= MAX_CACHED_REGIONS) known.clear();
    known.set(shootRegion, (bySeedRegion = new Map()));
  }
  let value = bySeedRegion.get(seedRegion);
  if (!value) {
    value = Object.freeze(computeDistance(seedRegion, shootRegion));
    if (bySeedRegion.size >= MAX_CACHED_REGIONS) bySeedRegion.clear();
    bySeedRegion.set(seedRegion, value);
  }
  return value;
}

function computeDistance(seedRegion: string, shootRegion: string): RegionDistance {
  const seed = splitOrientation(seedRegion);
  const shoot = splitOrientation(shootRegion);
  const base = levenshtein(seed.base, shoot.base);
  let correction = 0;
  if (seed.orientation !== shoot.orientation) correction = seed.orientation === '' || shoot.orientation === '' ? 1 : 2;
  return { distance: base * 2 + correction, levenshtein: base };
}
