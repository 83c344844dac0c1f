// The node lifecycle controller (kube's node lifecycle controller; pods are evicted by tainteviction): a Node whose
// kubelet has been silent for longer than the grace period (neither a status heartbeat nor a Lease renewal) gets its
// conditions set to Unknown through the status subresource, and every Node carries the not-ready/unreachable taints
// its Ready condition implies, and the pods of a Node that is not Ready are marked not ready. Each Node is looked at
// again when its grace would run out, so silence needs no event. A first NoExecute taint waits in its zone's
// rate-limited queue (ZoneTainter, worked off by ZoneMonitor); NoSchedule taints, swaps and removals are immediate.
import {
  ignoreNotFound,
  isConflict,
  isNotFound,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import type { EventRecorder } from '../shared/events.js';
import { type Lease, LeaseKind, type Node, NodeKind, type Pod, PodKind } from '../shared/kinds.js';
import {
  gracePeriodFor,
  lifecycleTaints,
  msUntilSilent,
  needsNoExecuteTaint,
  NODE_LEASE_NAMESPACE,
  notReadyConditions,
  readyCondition,
  silentNodeConditions,
} from './health.js';
import type { ZoneRateOptions } from './zone-state.js';
import type { ZoneTainter } from './zone-tainter.js';

export interface NodeLifecycleOptions {
  /** How long a kubelet may stay silent before its Node's conditions become Unknown (kube's --node-monitor-grace-period, 40 s). */
  gracePeriodMs: number;
  /** The grace of a node whose kubelet never posted a Ready condition (kube's --node-startup-grace-period, 60 s). */
  startupGracePeriodMs?: number;
  /** Rates and thresholds of the per-zone NoExecute tainting; kube's defaults (DEFAULT_ZONE_RATES) for those not given. */
  zones?: Partial<ZoneRateOptions>;
  /** How often the zone queues are worked off (kube's nodeEvictionPeriod, 100 ms). */
  evictionPeriodMs?: number;
}

/** Past the computed instant, so the timer never fires a hair early. */
const REQUEUE_SLACK_MS = 50;

export class NodeLifecycleReconciler {
  constructor(
    private readonly ctx: ControllerContext,
    private readonly events: EventRecorder,
    private readonly options: NodeLifecycleOptions,
    private readonly zones: ZoneTainter,
  ) {}

  async reconcile(req: Request, { log }: ReconcileContext): Promise<ReconcileResult | void> {
    let node = await this.ctx.client.get(NodeKind, { name: req.name }).catch(ignoreNotFound);
    if (!node) {
      this.zones.dequeue(req.name);
      return;
    }
    const lease = await this.ctx.client
      .get(LeaseKind, { namespace: NODE_LEASE_NAMESPACE, name: req.name })
      .catch(ignoreNotFound);
    let untilSilent = msUntilSilent(node, lease, this.grace(node), this.ctx.now());

    if (untilSilent !== undefined && untilSilent <= 0 && silentNodeConditions(node, this.ctx.now())) {
      // About to declare the kubelet gone: make sure on live objects, not on a cache that may lag behind.
      const live = await this.liveNode(req.name);
      if (!live) return;
      node = live.node;
      untilSilent = msUntilSilent(node, live.lease, this.grace(node), this.ctx.now());
      const conditions =
        untilSilent !== undefined && untilSilent <= 0 ? silentNodeConditions(node, this.ctx.now()) : undefined;
      if (conditions) {
        const wasReady = readyCondition(node)?.status === 'True';
        try {
          node = await this.ctx.client.updateStatus<Node>({
            ...structuredClone(node),
            status: { ...node.status, conditions },
          });
        } catch (err) {
          if (isNotFound(err)) return;
          if (isConflict(err)) return { requeue: true };
          throw err;
        }
        log.info({ node: req.name }, 'Kubelet stopped posting node status; node conditions set to Unknown');
        if (wasReady) this.events.event(node, 'Normal', 'NodeNotReady', `Node ${req.name} status is now: NodeNotReady`);
      }
    }

    const taints = lifecycleTaints(node, this.ctx.now(), false);
    if (taints) {
      try {
        // Only spec.taints, and only on the version read: a Node changed meanwhile is looked at again.
        node = await this.ctx.client.patch(
          NodeKind,
          { name: req.name },
          { type: 'merge', patch: { metadata: { resourceVersion: node.metadata?.resourceVersion }, spec: { taints } } },
        );
      } catch (err) {
        if (isNotFound(err)) return;
        if (isConflict(err)) return { requeue: true };
        throw err;
      }
      log.debug(
        { node: req.name, taints: node.spec?.taints?.map((t) => `${t.key}:${t.effect}`) },
        'Updated node lifecycle taints',
      );
    }
    if (readyCondition(node)?.status === 'True') this.zones.dequeue(req.name);
    else if (needsNoExecuteTaint(node) && this.zones.enqueue(node))
      log.info({ node: req.name }, 'Node is not ready; added to the taint queue');

    // kube's MarkPodsNotReady: the pods of a node that is not Ready leave Service endpoints at once, long before
    // taint eviction deletes them. The kubelet sets them Ready again once it runs and reports.
    const readyStatus = readyCondition(node)?.status;
    const podsPending =
      readyStatus !== undefined && readyStatus !== 'True' ? await this.markPodsNotReady(req.name, log) : false;

    // Still heard of: look again when the grace runs out. Silent and Unknown already: only the kubelet can change that.
    if (untilSilent !== undefined && untilSilent > 0) return { requeueAfter: untilSilent + REQUEUE_SLACK_MS };
    if (podsPending) return { requeue: true };
  }

  /**
   * Sets the Ready condition of every pod bound to the node to False (kube's MarkPodsNotReady: only the status and
   * lastTransitionTime change, reason and message stay; a Warning event NodeNotReady "Node is not ready" on the pod).
   * True when a pod changed meanwhile and must be looked at again.
   */
  private async markPodsNotReady(nodeName: string, log: ReconcileContext['log']): Promise<boolean> {
    const pods = (await this.ctx.cache.list(PodKind)).items.filter((p) => p.spec?.nodeName === nodeName);
    let again = false;
    for (const pod of pods) {
      const conditions = notReadyConditions(pod, this.ctx.now());
      if (!conditions) continue;
      try {
        await this.ctx.client.updateStatus<Pod>({ ...structuredClone(pod), status: { ...pod.status, conditions } });
      } catch (err) {
        if (isNotFound(err)) continue;
        if (isConflict(err)) {
          again = true;
          continue;
        }
        throw err;
      }
      log.info(
        { node: nodeName, pod: `${pod.metadata?.namespace}/${pod.metadata?.name}` },
        'Node is not ready; pod marked not ready',
      );
      this.events.event(pod, 'Warning', 'NodeNotReady', 'Node is not ready');
    }
    return again;
  }

  private grace(node: Node): number {
    return gracePeriodFor(node, this.options.gracePeriodMs, this.options.startupGracePeriodMs ?? 60_000);
  }

  private async liveNode(name: string): Promise<{ node: Node; lease: Lease | undefined } | undefined> {
    const node = await this.ctx.api.get(NodeKind, { name }).catch(ignoreNotFound);
    if (!node) return undefined;
    // The Lease comes from the informer, as kube's controller reads it: with --use-service-account-credentials the
    // controller acts as system:controller:node-controller, which may not read Leases (a live get is Forbidden); the
    // informer lists and watches with the controller manager's own identity.
    const lease = await this.ctx.client.get(LeaseKind, { namespace: NODE_LEASE_NAMESPACE, name }).catch(ignoreNotFound);
    return { node, lease };
  }
}
