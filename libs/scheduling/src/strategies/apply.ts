// Which strategy ranks the seeds left after filtering: testing shoots ignore regions, all others follow the configured
// candidateDeterminationStrategy.
import type { Seed, Shoot } from '@gardener-ts/api';
import type { RegionConfig, Strategy } from '../types.js';
import { minimalDistance } from './minimal-distance.js';
import type { StrategyOutcome } from './outcome.js';
import { sameProvider } from './same-provider.js';
import { sameRegion } from './same-region.js';

export function applyStrategy(
  seeds: readonly Seed[],
  shoot: Shoot,
  strategy: Strategy,
  regionConfig: RegionConfig | undefined,
): StrategyOutcome {
  if (shoot.spec.purpose === 'testing') return sameProvider(seeds, shoot);
  switch (strategy) {
    case 'SameRegion':
      return sameRegion(seeds, shoot);
    case 'MinimalDistance':
      return minimalDistance(seeds, shoot, regionConfig);
    default:
      throw new Error(
        `unknown candidate determination strategy ${JSON.stringify(strategy)}; valid are SameRegion, MinimalDistance`,
      );
  }
}
