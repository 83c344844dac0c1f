// Region configs for MinimalDistance: ConfigMaps in the garden namespace labelled
// scheduling.gardener.cloud/purpose=region-config whose annotation scheduling.gardener.cloud/cloudprofiles lists the
// cloud profile (comma-separated). Each data key is a shoot region; its value a YAML map of seed region → distance.
import { loadYaml } from '@kubernetes/client-node';
import {
  SCHEDULING_CLOUDPROFILES_ANNOTATION,
  SCHEDULING_PURPOSE_LABEL,
  SCHEDULING_PURPOSE_REGION_CONFIG,
} from '../constants.js';
import { SchedulingInputError } from '../errors.js';
import type { RegionConfig } from '../types.js';

export interface ConfigMapLike {
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  data?: Record<string, string>;
}

export interface FoundRegionConfig {
  config?: RegionConfig;
  /** Further ConfigMaps naming the same cloud profile; the first (by name) wins, as Gardener logs and ignores others. */
  ignored: string[];
}

export function isRegionConfig(cm: ConfigMapLike): boolean {
  return cm.metadata?.labels?.[SCHEDULING_PURPOSE_LABEL] === SCHEDULING_PURPOSE_REGION_CONFIG;
}

export function findRegionConfig(configMaps: readonly ConfigMapLike[], cloudProfileName: string): FoundRegionConfig {
  const matching = configMaps
    .filter(
      (cm) =>
        isRegionConfig(cm) &&
        (cm.metadata?.annotations?.[SCHEDULING_CLOUDPROFILES_ANNOTATION] ?? '').split(',').includes(cloudProfileName),
    )
    .map((cm) => ({ source: `${cm.metadata?.namespace ?? ''}/${cm.metadata?.name ?? ''}`, data: cm.data ?? {} }))
    .sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  return { config: matching[0], ignored: matching.slice(1).map((m) => m.source) };
}

/**
 * Distances from the shoot's region to seed regions; undefined when the config has no entry for the region. A region
 * is at distance 0 from itself unless configured otherwise. Throws SchedulingInputError for a malformed entry.
 */
export function regionDistances(
  config: RegionConfig | undefined,
  shootRegion: string,
): Map<string, number> | undefined {
  const text = config?.data[shootRegion];
  if (!config || !text) return undefined;
  const wrong = (why: string) =>
    new SchedulingInputError(
      `failed to determine seed candidates. Wrong format in region ConfigMap ${config.source}, Region "${shootRegion}": ${why}`,
    );
  // An entry of only "null" or "~" is an empty map, as for Go's YAML decoder.
  let value: unknown = {};
  if (!/^\s*(null|~)?\s*$/.test(text)) {
    try {
      value = loadYaml(text);
    } catch (err) {
      throw wrong((err as Error).message);
    }
  }
  if (typeof value !== 'object' || Array.isArray(value)) throw wrong('expected a map of seed region to distance');
  const distances = new Map<string, number>();
  for (const [region, distance] of Object.entries(value as Record<string, unknown>)) {
    if (typeof distance !== 'number' || !Number.isInteger(distance))
      throw wrong(`distance of region "${region}" is not an integer`);
    distances.set(region, distance);
  }
  if (!distances.has(shootRegion)) distances.set(shootRegion, 0);
  return distances;
}
