// Everything a decision for one shoot needs, read from the scheduling cache: its cloud profile (a CloudProfile or a
// NamespacedCloudProfile's merged status), the region config naming that profile, all seeds, and the seed usage.
import type { Shoot } from '@gardener-ts/api';
import { SchedulingInputError } from '../errors.js';
import { seedUsage } from '../seeds/usage.js';
import { findRegionConfig } from '../strategies/region-config.js';
import type { CloudProfileView, SchedulingInput, Strategy } from '../types.js';
import type { AssumedBindings } from './assumed.js';
import type { SchedulingCache } from './scheduling-cache.js';

export interface InputOptions {
  strategy: Strategy;
  assumed?: AssumedBindings;
  allowIPv4Overlap?: boolean;
  /** Told about region configs that are ignored because another one names the same cloud profile. */
  onIgnoredRegionConfigs?: (ignored: string[], cloudProfile: string) => void;
}

/** The cloud profile the shoot references, as Gardener resolves spec.cloudProfile (or the older cloudProfileName). */
export function cloudProfileOf(shoot: Shoot, cache: SchedulingCache): CloudProfileView {
  const ref =
    shoot.spec.cloudProfile ??
    (shoot.spec.cloudProfileName ? { kind: 'CloudProfile' as const, name: shoot.spec.cloudProfileName } : undefined);
  if (!ref?.name) throw new SchedulingInputError('could not determine cloudprofile from shoot');
  if ((ref.kind ?? 'CloudProfile') === 'CloudProfile') {
    const profile = cache.cloudProfile(ref.name);
    if (!profile) throw new SchedulingInputError(`cloudprofiles.core.gardener.cloud "${ref.name}" not found`);
    return { kind: 'CloudProfile', name: ref.name, spec: profile.spec };
  }
  const namespace = shoot.metadata?.namespace ?? '';
  const profile = cache.namespacedCloudProfile(namespace, ref.name);
  if (!profile)
    throw new SchedulingInputError(
      `namespacedcloudprofiles.core.gardener.cloud "${ref.name}" not found in namespace "${namespace}"`,
    );
  if (!profile.status?.cloudProfileSpec)
    throw new SchedulingInputError(
      `namespaced cloud profile ${namespace}/${ref.name} has no status.cloudProfileSpec yet`,
    );
  return { kind: 'NamespacedCloudProfile', name: ref.name, spec: profile.status.cloudProfileSpec };
}

/** Throws SchedulingInputError when the cloud profile cannot be found. */
export function schedulingInput(shoot: Shoot, cache: SchedulingCache, options: InputOptions): SchedulingInput {
  const cloudProfile = cloudProfileOf(shoot, cache);
  const found = findRegionConfig(cache.regionConfigMaps(), cloudProfile.name);
  if (found.ignored.length > 0) options.onIgnoredRegionConfigs?.(found.ignored, cloudProfile.name);
  const assumed = options.assumed;
  return {
    shoot,
    seeds: cache.seeds(),
    usage: seedUsage(cache.shoots(), assumed ? (s) => assumed.seedOf(s) : undefined),
    cloudProfile,
    regionConfig: found.config,
    strategy: options.strategy,
    allowIPv4Overlap: options.allowIPv4Overlap,
  };
}
