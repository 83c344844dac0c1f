// Shoots with purpose "testing" ignore regions: any seed of the shoot's provider type, whatever the strategy, so
// test clusters can go where capacity is.
import type { Seed, Shoot } from '@gardener-ts/api';
import type { StrategyOutcome } from './outcome.js';

export function sameProvider(seeds: readonly Seed[], shoot: Shoot): StrategyOutcome {
  const outcome: StrategyOutcome = { strategy: 'SameProvider', candidates: [], rejected: [] };
  for (const seed of seeds) {
    const type = seed.spec.provider.type;
    if (type === shoot.spec.provider.type) outcome.candidates.push({ seed, distance: 0 });
    else
      outcome.rejected.push({
        seed,
        reason: `provider type "${type}" differs from the testing shoot's "${shoot.spec.provider.type}"`,
      });
  }
  return outcome;
}
