// The zone-aware part of kube's node lifecycle controller (handleDisruption and the zoneNoExecuteTainter queues):
// a NoExecute taint is added through a rate-limited queue per zone, whose rate follows the zone's state; when every
// zone is fully disrupted the controller assumes its own connectivity is at fault ("master disruption") and stops
// tainting everywhere. No API calls here: the caller lists nodes, applies taints and removes them.
import type { Node } from '../shared/kinds.js';
import { readyCondition } from './health.js';
import { RateLimitedTimedQueue, type TimedValue, type TryResult } from './rate-limited-queue.js';
import {
  computeZoneState,
  excludedFromDisruption,
  type ZoneRateOptions,
  type ZoneState,
  zoneKeyOf,
  zoneTaintRate,
} from './zone-state.js';

export interface ZoneHealth {
  /** Nodes of the zone that have a Ready condition (kube's node_collector_zone_size). */
  size: number;
  /** Those not Ready (node_collector_unhealthy_nodes_in_zone). */
  unhealthy: number;
  /** Percent of them Ready (node_collector_zone_health). */
  health: number;
}

export interface DisruptionResult {
  /** 'enter': every zone is fully disrupted now, so NoExecute taints go from all nodes; 'exit': some node is Ready again. */
  masterDisruption?: 'enter' | 'exit';
  /** Zones whose state changed outside the master disruption transitions, with their new state. */
  changes: { zone: string; state: ZoneState }[];
  health: Map<string, ZoneHealth>;
}

export class ZoneTainter {
  private readonly states = new Map<string, ZoneState>();
  private readonly queues = new Map<string, RateLimitedTimedQueue>();

  constructor(
    private readonly options: ZoneRateOptions,
    private readonly now: () => number,
  ) {}

  state(zone: string): ZoneState | undefined {
    return this.states.get(zone);
  }

  /** The tainting rate of the zone's queue now (nodes per second; 0: stopped). */
  rate(zone: string): number | undefined {
    return this.queues.get(zone)?.qps;
  }

  /** Queues the node for its NoExecute taint (kube's markNodeForTainting); false when it is queued already. */
  enqueue(node: Node): boolean {
    return this.queue(zoneKeyOf(node)).add(node.metadata!.name!, node.metadata?.uid);
  }

  /** Takes the node out of every zone's queue (its zone label may have changed meanwhile). */
  dequeue(name: string): void {
    for (const q of this.queues.values()) q.remove(name);
  }

  queued(name: string): boolean {
    return [...this.queues.values()].some((q) => q.has(name));
  }

  /**
   * kube's handleDisruption over all nodes: each zone's state from the Ready conditions of its nodes (nodes without
   * one, or labelled to be excluded, do not count), and the tainting rate each state calls for.
   */
  handleDisruption(nodes: readonly Node[]): DisruptionResult {
    const ready = new Map<string, (string | undefined)[]>();
    for (const node of nodes) {
      const condition = readyCondition(node);
      if (!condition || excludedFromDisruption(node)) continue;
      const zone = zoneKeyOf(node);
      ready.set(zone, [...(ready.get(zone) ?? []), condition.status]);
    }

    const next = new Map<string, ZoneState>();
    const health = new Map<string, ZoneHealth>();
    let allAreFullyDisrupted = true;
    for (const [zone, statuses] of ready) {
      const { notReady, state } = computeZoneState(statuses, this.options.unhealthyZoneThreshold);
      health.set(zone, {
        size: statuses.length,
        unhealthy: notReady,
        health: (100 * (statuses.length - notReady)) / statuses.length,
      });
      if (state !== 'FullDisruption') allAreFullyDisrupted = false;
      next.set(zone, state);
      if (!this.states.has(zone)) {
        this.queue(zone);
        this.states.set(zone, 'Initial');
      }
    }
    let allWereFullyDisrupted = true;
    for (const [zone, state] of this.states) {
      if (!next.has(zone)) this.states.delete(zone);
      else if (state !== 'FullDisruption') allWereFullyDisrupted = false;
    }

    const result: DisruptionResult = { changes: [], health };
    // Both passes all fully disrupted: nothing changes, tainting stays stopped.
    if (allAreFullyDisrupted && allWereFullyDisrupted) return result;
    if (allAreFullyDisrupted) {
      for (const zone of this.states.keys()) {
        this.queue(zone).swapLimiter(0);
        this.states.set(zone, 'FullDisruption');
      }
      return { ...result, masterDisruption: 'enter' };
    }
    for (const [zone, state] of this.states) {
      const newState = next.get(zone)!;
      if (!allWereFullyDisrupted && state === newState) continue;
      this.queue(zone).swapLimiter(zoneTaintRate(newState, ready.get(zone)!.length, this.options));
      this.states.set(zone, newState);
      if (!allWereFullyDisrupted) result.changes.push({ zone, state: newState });
    }
    return allWereFullyDisrupted ? { ...result, masterDisruption: 'exit' } : result;
  }

  /** Works off every zone's queue as far as its tokens allow (kube's doNoExecuteTaintingPass). */
  async taintPass(taint: (value: TimedValue, zone: string) => Promise<TryResult>): Promise<void> {
    for (const [zone, q] of this.queues) await q.try((v) => taint(v, zone));
  }

  /** A zone's queue, made with the normal rate when the zone is first seen (kube's addPodEvictorForNewZone). */
  private queue(zone: string): RateLimitedTimedQueue {
    let q = this.queues.get(zone);
    if (!q) {
      q = new RateLimitedTimedQueue(this.options.evictionRate, this.now);
      this.queues.set(zone, q);
    }
    return q;
  }
}
