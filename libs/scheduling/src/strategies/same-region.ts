// SameRegion: only seeds of the shoot's provider type in the shoot's region.
import type { Seed, Shoot } from '@gardener-ts/api';
import type { StrategyOutcome } from './outcome.js';

export function sameRegion(seeds: readonly Seed[], shoot: Shoot): StrategyOutcome {
  const outcome: StrategyOutcome = { strategy: 'SameRegion', candidates: [], rejected: [] };
  for (const seed of seeds) {
    const { type, region } = seed.spec.provider;
    if (type === shoot.spec.provider.type && region === shoot.spec.region)
      outcome.candidates.push({ seed, distance: 0 });
    else if (type !== shoot.spec.provider.type)
      outcome.rejected.push({
        seed,
        reason: `provider type "${type}" differs from the shoot's "${shoot.spec.provider.type}"`,
      });
    else
      outcome.rejected.push({
        seed,
        reason: `region "${region}" differs from the shoot's region "${shoot.spec.region}"`,
      });
  }
  return outcome;
}
