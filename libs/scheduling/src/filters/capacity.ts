// Capacity: a seed with status.allocatable.shoots takes no more shoots than that (counting the ones already on it).
import type { Seed } from '@gardener-ts/api';
import { quantityValue } from '../seeds/quantity.js';
import type { SeedUsage } from '../seeds/usage.js';

/** Gardener's reason when the seed is full, or undefined. */
export function noCapacity(seed: Seed, usage: SeedUsage): string | undefined {
  const allocatable = quantityValue(seed.status?.allocatable?.shoots as string | number | undefined);
  if (allocatable === undefined) return undefined;
  const used = usage.get(seed.metadata?.name ?? '') ?? 0;
  return used >= allocatable ? 'seed does not have available capacity for shoots' : undefined;
}
