// The zones of kube's node lifecycle controller, as pure functions: which zone a node is in, a zone's state from the
// Ready conditions of its nodes (ComputeZoneState) and the NoExecute tainting rate that state calls for
// (setLimiterInZone with ReducedQPSFunc and HealthyQPSFunc).
import type { Node } from '../shared/kinds.js';

export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

export interface ZoneRateOptions {
  /** Nodes per second NoExecute-tainted in a zone that is Normal (or fully disrupted): kube's --node-eviction-rate, 0.1. */
  evictionRate: number;
  /** Nodes per second in a partially disrupted zone of a large cluster: kube's --secondary-node-eviction-rate, 0.01. */
  secondaryEvictionRate: number;
  /** The share of not-Ready nodes (more than 2 of them) that makes a zone partially disrupted: --unhealthy-zone-threshold, 0.55. */
  unhealthyZoneThreshold: number;
  /** A zone of at most this many nodes gets no secondary rate (tainting stops): --large-cluster-size-threshold, 50. */
  largeClusterSizeThreshold: number;
}

export const DEFAULT_ZONE_RATES: ZoneRateOptions = {
  evictionRate: 0.1,
  secondaryEvictionRate: 0.01,
  unhealthyZoneThreshold: 0.55,
  largeClusterSizeThreshold: 50,
};

const REGION_LABELS = ['topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/region'];
const ZONE_LABELS = ['topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone'];
/** A node with this label counts in no zone (kube's isNodeExcludedFromDisruptionChecks). */
export const LABEL_EXCLUDE_DISRUPTION = 'node.kubernetes.io/exclude-disruption';

/** kube's GetZoneKey: `<region>:\0:<zone>` from the topology labels (GA first, then beta), '' when the node has neither. */
export function zoneKeyOf(node: Node): string {
  const labels = node.metadata?.labels ?? {};
  const first = (keys: string[]) => keys.map((k) => labels[k]).find((v) => v) ?? '';
  const region = first(REGION_LABELS);
  const zone = first(ZONE_LABELS);
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}

/** The zone key as people read it: the region and zone joined by '/', or '' for the default zone. */
export const zoneName = (key: string): string => key.split(':\x00:').filter(Boolean).join('/');

export const excludedFromDisruption = (node: Node): boolean =>
  node.metadata?.labels?.[LABEL_EXCLUDE_DISRUPTION] !== undefined;

/**
 * A zone's state from the Ready statuses of its nodes (anything but 'True' counts as not ready): FullDisruption when
 * none is ready, PartialDisruption when more than 2 are not ready and they are at least the threshold's share,
 * Normal otherwise.
 */
export function computeZoneState(
  readyStatuses: readonly (string | undefined)[],
  unhealthyZoneThreshold: number,
): { notReady: number; state: ZoneState } {
  const notReady = readyStatuses.filter((s) => s !== 'True').length;
  const ready = readyStatuses.length - notReady;
  if (ready === 0 && notReady > 0) return { notReady, state: 'FullDisruption' };
  if (notReady > 2 && notReady / readyStatuses.length >= unhealthyZoneThreshold)
    return { notReady, state: 'PartialDisruption' };
  return { notReady, state: 'Normal' };
}

/**
 * The tainting rate of a zone of `zoneSize` nodes in `state`: the eviction rate when Normal and — as long as some
 * other zone is not — when fully disrupted (the zone itself is likely gone); when partially disrupted the secondary
 * rate in a zone larger than the large-cluster threshold, else 0: tainting stops.
 */
export function zoneTaintRate(state: ZoneState, zoneSize: number, options: ZoneRateOptions): number {
  if (state !== 'PartialDisruption') return options.evictionRate;
  return zoneSize > options.largeClusterSizeThreshold ? options.secondaryEvictionRate : 0;
}
