// MinimalDistance: the seeds nearest to the shoot's region. Distances come from the cloud profile's region config when
// it has an entry for the shoot's region and lists at least one of the seeds' regions; otherwise from the region
// names (regionDistance, plus 2 when the seed's provider type differs from the shoot's).
import type { Seed, Shoot } from '@gardener-ts/api';
import type { RegionConfig } from '../types.js';
import type { StrategyOutcome } from './outcome.js';
import { regionDistances } from './region-config.js';
import { regionDistance } from './region-distance.js';

export function minimalDistance(
  seeds: readonly Seed[],
  shoot: Shoot,
  regionConfig: RegionConfig | undefined,
): StrategyOutcome {
  const configured = regionDistances(regionConfig, shoot.spec.region);
  if (configured) {
    const notListed: StrategyOutcome['rejected'] = [];
    const scored: { seed: Seed; distance: number }[] = [];
    for (const seed of seeds) {
      const distance = configured.get(seed.spec.provider.region);
      if (distance === undefined) {
        notListed.push({
          seed,
          reason: `region "${seed.spec.provider.region}" has no distance to "${shoot.spec.region}" in region config ${regionConfig!.source}`,
        });
      } else {
        scored.push({ seed, distance });
      }
    }
    if (scored.length > 0) return nearest(scored, notListed, 'region config distance');
  }
  // Fall back to the distance of the region names.
  const scored = seeds.map((seed) => ({
    seed,
    distance:
      regionDistance(seed.spec.provider.region, shoot.spec.region).distance +
      (seed.spec.provider.type === shoot.spec.provider.type ? 0 : 2),
  }));
  return nearest(scored, [], 'region distance');
}

function nearest(
  scored: { seed: Seed; distance: number }[],
  rejected: StrategyOutcome['rejected'],
  what: string,
): StrategyOutcome {
  const min = Math.min(...scored.map((s) => s.distance));
  const outcome: StrategyOutcome = { strategy: 'MinimalDistance', candidates: [], rejected: [...rejected] };
  for (const s of scored) {
    if (s.distance === min) outcome.candidates.push(s);
    else outcome.rejected.push({ seed: s.seed, reason: `${what} ${s.distance} is larger than the minimal ${min}` });
  }
  return outcome;
}
