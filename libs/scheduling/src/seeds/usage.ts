// How many shoots each seed hosts, as Gardener counts them: spec.seedName, and status.seedName too when it differs
// (a shoot being migrated occupies both seeds).
import type { Shoot } from '@gardener-ts/api';

export type SeedUsage = ReadonlyMap<string, number>;

/**
 * Shoots per seed name. `assumed` adds bindings this scheduler has written but the cache has not shown yet, so
 * decisions made in between count them (otherwise concurrent reconciles would all pick the same emptiest seed).
 */
export function seedUsage(
  shoots: Iterable<Shoot>,
  assumed?: (shoot: Shoot) => string | undefined,
): Map<string, number> {
  const usage = new Map<string, number>();
  const count = (seed: string) => usage.set(seed, (usage.get(seed) ?? 0) + 1);
  for (const shoot of shoots) {
    const specSeed = shoot.spec?.seedName || assumed?.(shoot) || '';
    const statusSeed = shoot.status?.seedName ?? '';
    if (specSeed) count(specSeed);
    if (statusSeed && statusSeed !== specSeed) count(statusSeed);
  }
  return usage;
}
