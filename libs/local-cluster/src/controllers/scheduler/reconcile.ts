// The scheduler: places each unscheduled pod of the default scheduler on the best feasible node through the
// pods/binding subresource, or records why it cannot (PodScheduled=False, reason Unschedulable, and an Event).
import {
  ignoreNotFound,
  NamespaceKind,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import type { EventRecorder } from '../shared/events.js';
import {
  NodeKind,
  type PersistentVolumeClaim,
  PersistentVolumeClaimKind,
  type Pod,
  PodKind,
  StorageClassKind,
} from '../shared/kinds.js';
import { ANN_SELECTED_NODE } from '../persistentvolume/binding.js';
import { podCondition, podKey } from '../shared/pods.js';
import { rfc3339 } from '../shared/time.js';
import type { NamespaceLabels } from './affinity-terms.js';
import { addPod, emptyUsage, type NodeUsage } from './resources.js';
import { schedulePod } from './schedule.js';
import { checkPodVolumes, podClaimNames, preFilterMessage, type VolumeCheck } from './volume-binding.js';

export const SCHEDULER_NAME = 'default-scheduler';
/**
 * Unschedulable pods are retried on the events that may unblock them (node, bound pod, namespace, claim and
 * StorageClass changes: controller.ts, requeue.ts), and at least this often (kube flushes them after 5 min).
 */
const UNSCHEDULABLE_RETRY_MS = 30_000;

/** A pod this scheduler should place: unbound, alive, and naming one of `schedulerNames` (kube-scheduler's profiles). */
export function needsScheduling(pod: Pod, schedulerNames: readonly string[] = [SCHEDULER_NAME]): boolean {
  const name = pod.spec?.schedulerName || SCHEDULER_NAME;
  const phase = pod.status?.phase;
  return (
    !pod.spec?.nodeName &&
    !pod.metadata?.deletionTimestamp &&
    schedulerNames.includes(name) &&
    phase !== 'Succeeded' &&
    phase !== 'Failed'
  );
}

export class SchedulerReconciler {
  /** Pods bound by this scheduler that the cache does not show bound yet: their node's resources are taken. */
  private readonly assumed = new Map<string, { node: string; pod: Pod }>();

  constructor(
    private readonly ctx: ControllerContext,
    private readonly events: EventRecorder,
    private readonly schedulerNames: readonly string[] = [SCHEDULER_NAME],
  ) {}

  async reconcile(req: Request, { log }: ReconcileContext): Promise<ReconcileResult | void> {
    const pod = await this.ctx.client.get(PodKind, req).catch(ignoreNotFound);
    if (!pod || !needsScheduling(pod, this.schedulerNames) || this.isAssumed(pod)) return;
    const nodes = (await this.ctx.client.list(NodeKind)).items;
    const volumes = await this.checkVolumes(pod);
    if ('unschedulable' in volumes) {
      await this.markUnschedulable(pod, preFilterMessage(nodes.length, volumes.unschedulable));
      return { requeueAfter: UNSCHEDULABLE_RETRY_MS };
    }
    const { usage, placed } = await this.nodeUsage();
    const decision = schedulePod(pod, nodes, usage, placed, await this.namespaceLabels());
    if ('unschedulable' in decision) {
      await this.markUnschedulable(pod, decision.unschedulable);
      return { requeueAfter: UNSCHEDULABLE_RETRY_MS };
    }
    await this.selectNode(volumes.delayed, decision.node.metadata!.name!);
    await this.bind(pod, decision.node.metadata!.name!);
    log.debug({ node: decision.node.metadata?.name }, 'Bound pod');
  }

  /** Bound already, by us, though the cache does not show it yet (a pod recreated under the same name is not). */
  private isAssumed(pod: Pod): boolean {
    return this.assumed.get(podKey(pod))?.pod.metadata?.uid === pod.metadata?.uid;
  }

  private async bind(pod: Pod, nodeName: string): Promise<void> {
    const { namespace, name } = pod.metadata as { namespace: string; name: string };
    this.assumed.set(podKey(pod), { node: nodeName, pod });
    try {
      await this.ctx.api.transport.request({
        method: 'POST',
        path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/binding`,
        body: {
          apiVersion: 'v1',
          kind: 'Binding',
          metadata: { name, namespace, uid: pod.metadata?.uid },
          target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
        },
      });
    } catch (err) {
      this.assumed.delete(podKey(pod));
      throw err;
    }
    this.events.event(pod, 'Normal', 'Scheduled', `Successfully assigned ${namespace}/${name} to ${nodeName}`);
  }

  private async markUnschedulable(pod: Pod, message: string): Promise<void> {
    const current = podCondition(pod, 'PodScheduled');
    if (current?.status === 'False' && current.reason === 'Unschedulable' && current.message === message) return;
    const condition = {
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
      message,
      lastProbeTime: null,
      lastTransitionTime: rfc3339(this.ctx.now()),
    };
    const conditions = [...(pod.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled'), condition];
    await this.ctx.client.patch(
      PodKind,
      { namespace: pod.metadata?.namespace, name: pod.metadata!.name! },
      { type: 'merge', patch: { status: { conditions } } },
      { subresource: 'status' },
    );
    this.events.event(pod, 'Warning', 'FailedScheduling', message);
  }

  /** The pod's claims and the StorageClasses, for the VolumeBinding checks (volume-binding.ts). */
  private async checkVolumes(pod: Pod): Promise<VolumeCheck> {
    const names = podClaimNames(pod);
    if (!names.length) return { delayed: [] };
    const claims = new Map<string, PersistentVolumeClaim>();
    for (const name of names) {
      const key = { namespace: pod.metadata?.namespace, name };
      // A claim created just before its pod may not be cached yet: a miss is checked with the API server.
      const claim =
        (await this.ctx.client.get(PersistentVolumeClaimKind, key).catch(ignoreNotFound)) ??
        (await this.ctx.api.get(PersistentVolumeClaimKind, key).catch(ignoreNotFound));
      if (claim) claims.set(name, claim);
    }
    const classes = (await this.ctx.client.list(StorageClassKind)).items;
    return checkPodVolumes(pod, claims, new Map(classes.map((c) => [c.metadata!.name!, c])));
  }

  /** Delayed-binding claims learn the node of their first consumer, so their volume can be provisioned for it. */
  private async selectNode(claims: PersistentVolumeClaim[], nodeName: string): Promise<void> {
    for (const claim of claims) {
      if (claim.metadata?.annotations?.[ANN_SELECTED_NODE] === nodeName) continue;
      await this.ctx.client.patch(
        PersistentVolumeClaimKind,
        { namespace: claim.metadata?.namespace, name: claim.metadata!.name! },
        { type: 'merge', patch: { metadata: { annotations: { [ANN_SELECTED_NODE]: nodeName } } } },
      );
    }
  }

  /** Every namespace's labels, for the namespaceSelector of pod (anti-)affinity terms. */
  private async namespaceLabels(): Promise<NamespaceLabels> {
    const namespaces = (await this.ctx.client.list(NamespaceKind)).items;
    return new Map(namespaces.map((ns) => [ns.metadata!.name!, ns.metadata?.labels ?? {}]));
  }

  /**
   * Per node: the requests of the pods on it, counting pods bound but not yet seen bound in the cache; and every pod
   * bound to a node (those with their node set), for topology spread and inter-pod affinity.
   */
  private async nodeUsage(): Promise<{ usage: Map<string, NodeUsage>; placed: Pod[] }> {
    const usage = new Map<string, NodeUsage>();
    const placed: Pod[] = [];
    const on = (node: string) => usage.get(node) ?? usage.set(node, emptyUsage()).get(node)!;
    const pods = (await this.ctx.client.list(PodKind)).items;
    const cached = new Map(pods.map((p) => [podKey(p), p]));
    for (const [key, { node, pod }] of this.assumed) {
      const seen = cached.get(key);
      if (!seen || seen.metadata?.uid !== pod.metadata?.uid || seen.spec?.nodeName) this.assumed.delete(key);
      else {
        addPod(on(node), pod);
        placed.push({ ...pod, spec: { ...pod.spec!, nodeName: node } });
      }
    }
    for (const pod of pods) {
      const phase = pod.status?.phase;
      if (pod.spec?.nodeName && phase !== 'Succeeded' && phase !== 'Failed') {
        addPod(on(pod.spec.nodeName), pod);
        placed.push(pod);
      }
    }
    return { usage, placed };
  }
}
