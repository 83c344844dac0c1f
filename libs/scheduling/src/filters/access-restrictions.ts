// Access restrictions (e.g. "eu-access-only"): a shoot asking for some only goes to seeds that support all of them.
import type { Seed, Shoot } from '@gardener-ts/api';

/** Why the seed does not support the shoot's access restrictions, or undefined. */
export function unsupportedAccessRestrictions(seed: Seed, shoot: Shoot): string | undefined {
  const wanted = shoot.spec.accessRestrictions ?? [];
  if (wanted.length === 0) return undefined;
  const supported = new Set((seed.spec.accessRestrictions ?? []).map((r) => r.name));
  const missing = wanted.map((r) => r.name).filter((name) => !supported.has(name));
  return missing.length === 0 ? undefined : `seed does not support the access restriction(s) [${missing.join(', ')}]`;
}
