// The periodic part of the node lifecycle controller: every pass (kube's nodeEvictionPeriod, 100 ms) the zone states
// are computed from the cached Nodes, NoExecute taints are removed from every node when all zones turn fully
// disrupted, and each zone's queue of nodes waiting for their NoExecute taint is worked off as its rate allows.
import { ignoreNotFound, isConflict, isNotFound, type Runnable } from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import type { ControllerContext } from '../shared/context.js';
import { type Node, NodeKind } from '../shared/kinds.js';
import { lifecycleTaints, readyCondition, withoutNoExecuteLifecycleTaints } from './health.js';
import type { TimedValue, TryResult } from './rate-limited-queue.js';
import { zoneName } from './zone-state.js';
import type { ZoneTainter } from './zone-tainter.js';

/** How long a node whose taint could not be written waits in its queue (kube's 50 ms after a failed read). */
const RETRY_MS = 50;

export class ZoneMonitor implements Runnable {
  readonly needLeaderElection = false;
  /** NoExecute taints added per zone (kube's node_collector_evictions_total). */
  readonly evictions = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<void> = Promise.resolve();
  private readonly log: Logger;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly zones: ZoneTainter,
    private readonly periodMs: number,
  ) {
    this.log = ctx.log.child({ controller: 'nodelifecycle' });
  }

  start(): void {
    this.timer = setInterval(() => {
      // One pass at a time: a slow one makes the next ticks wait.
      this.pass = this.pass
        .then(() => this.runPass())
        .catch((err: unknown) => this.log.error({ err }, 'Node lifecycle zone pass failed'));
    }, this.periodMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.pass;
  }

  async runPass(): Promise<void> {
    const nodes = (await this.ctx.cache.list(NodeKind)).items;
    const result = this.zones.handleDisruption(nodes);
    for (const { zone, state } of result.changes)
      this.log.info(
        { zone: zoneName(zone), newState: state },
        `Controller detected that zone ${zoneName(zone)} is now in state ${state}`,
      );
    if (result.masterDisruption === 'enter') {
      this.log.info('Controller detected that all Nodes are not-Ready. Entering master disruption mode');
      for (const node of nodes) await this.markReachable(node.metadata!.name!);
    } else if (result.masterDisruption === 'exit') {
      this.log.info('Controller detected that some Nodes are Ready. Exiting master disruption mode');
    }
    await this.zones.taintPass((value, zone) => this.taint(value, zone));
  }

  /** Adds the NoExecute taint the node's Ready condition calls for, judged on the live Node. */
  private async taint(value: TimedValue, zone: string): Promise<TryResult> {
    const node = await this.ctx.api.get(NodeKind, { name: value.value }).catch(ignoreNotFound);
    if (!node || (value.uid && node.metadata?.uid !== value.uid)) return true;
    const status = readyCondition(node)?.status;
    if (status === undefined || status === 'True') {
      this.log.debug({ node: value.value }, "Node was in a taint queue, but it's ready now. Ignoring taint request");
      return true;
    }
    const taints = lifecycleTaints(node, this.ctx.now());
    if (!taints) return true;
    try {
      await this.patchTaints(node, taints);
    } catch (err) {
      if (isNotFound(err)) return true;
      if (!isConflict(err)) this.log.error({ err, node: value.value }, 'Failed to taint node NoExecute');
      return { done: false, retryAfterMs: RETRY_MS };
    }
    this.evictions.set(zone, (this.evictions.get(zone) ?? 0) + 1);
    this.log.info({ node: value.value, zone: zoneName(zone) }, 'Node tainted NoExecute by the rate-limited zone queue');
    return true;
  }

  /** Removes the not-ready/unreachable NoExecute taints (kube's markNodeAsReachable), re-reading on conflicts. */
  private async markReachable(name: string): Promise<void> {
    this.zones.dequeue(name);
    for (let attempt = 0; attempt < 3; attempt++) {
      const node = await this.ctx.api.get(NodeKind, { name }).catch(ignoreNotFound);
      const taints = node && withoutNoExecuteLifecycleTaints(node);
      if (!node || !taints) return;
      try {
        await this.patchTaints(node, taints);
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err)) {
          this.log.error({ err, node: name }, 'Failed to remove taints from Node');
          return;
        }
      }
    }
  }

  /** Only spec.taints, and only on the version read. */
  private patchTaints(node: Node, taints: NonNullable<Node['spec']>['taints']): Promise<Node> {
    return this.ctx.client.patch(
      NodeKind,
      { name: node.metadata!.name! },
      { type: 'merge', patch: { metadata: { resourceVersion: node.metadata?.resourceVersion }, spec: { taints } } },
    );
  }
}
