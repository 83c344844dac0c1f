// Provider types: by default only seeds of the shoot's provider; the CloudProfile's seedSelector.providerTypes lists
// others instead, "*" meaning any. (Gardener's scheduler reads providerTypes from the CloudProfile only; a Shoot's
// own seedSelector.providerTypes is used by admission, not here.)
import type { Seed, Shoot } from '@gardener-ts/api';
import type { CloudProfileView } from '../types.js';

export function providerMatches(
  seedType: string,
  shootType: string,
  enabledTypes: readonly string[] | undefined,
): boolean {
  if (!enabledTypes || enabledTypes.length === 0) return seedType === shootType;
  return enabledTypes.some((t) => t === '*' || t === seedType);
}

/** Why the seed's provider is not allowed for the shoot, or undefined when it is. */
export function providerMismatch(seed: Seed, shoot: Shoot, cloudProfile: CloudProfileView): string | undefined {
  const enabled = cloudProfile.spec.seedSelector?.providerTypes;
  if (providerMatches(seed.spec.provider.type, shoot.spec.provider.type, enabled)) return undefined;
  return enabled && enabled.length > 0
    ? `provider type "${seed.spec.provider.type}" is not one of the cloud profile's seed provider types [${enabled.join(', ')}]`
    : `provider type "${seed.spec.provider.type}" differs from the shoot's "${shoot.spec.provider.type}"`;
}
