// The scheduler: places each unscheduled pod of the default scheduler on the best feasible node through the
// pods/binding subresource, or records why it cannot (PodScheduled=False, reason Unschedulable, and an Event). A pod
// with claims to bind is reserved on its node and bound only once they are (kube's VolumeBinding PreBind): its claims'
// events retry it; after the bind timeout it fails with kube's SchedulerError and is scheduled anew.
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
import {
  BIND_TIMEOUT_REASON,
  checkPodVolumes,
  podClaimNames,
  preBindMessage,
  preFilterMessage,
  type SelectedClaim,
  type VolumeCheck,
  volumeBindingProgress,
} from './volume-binding.js';

export const SCHEDULER_NAME = 'default-scheduler';
/**
 * Unschedulable pods are retried on the events that may unblock them (node, bound pod, namespace, claim and
 * StorageClass changes: controller.ts, requeue.ts), and at least this often (kube flushes them after 5 min).
 */
const UNSCHEDULABLE_RETRY_MS = 30_000;
/** How long a reserved pod waits for its claims to bind: kube's VolumeBinding `bindTimeoutSeconds` default, 600 s. */
export const VOLUME_BINDING_TIMEOUT_MS = 600_000;
/** A pod whose binding failed is scheduled anew after this (kube's initial pod backoff, 1 s). */
const SCHEDULER_ERROR_RETRY_MS = 1_000;

/** A pod this scheduler placed that the cache does not show bound yet: its node's resources are taken. */
interface AssumedPod {
  node: string;
  pod: Pod;
  /**
   * Set while the pod waits for its claims to bind before it is bound (PreBind): the claims given the node, and
   * when the wait fails (`ctx.now()` milliseconds).
   */
  volumes?: { selected: SelectedClaim[]; deadline: number };
}

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
  /** Pods reserved on or bound to a node by this scheduler that the cache does not show bound yet. */
  private readonly assumed = new Map<string, AssumedPod>();

  constructor(
    private readonly ctx: ControllerContext,
    private readonly events: EventRecorder,
    private readonly schedulerNames: readonly string[] = [SCHEDULER_NAME],
    private readonly volumeBindingTimeoutMs = VOLUME_BINDING_TIMEOUT_MS,
  ) {}

  async reconcile(req: Request, { log }: ReconcileContext): Promise<ReconcileResult | void> {
    const pod = await this.ctx.client.get(PodKind, req).catch(ignoreNotFound);
    if (!pod || !needsScheduling(pod, this.schedulerNames)) return;
    const assumed = this.assumedAs(pod);
    if (assumed?.volumes) return this.awaitVolumes(pod, assumed, log);
    if (assumed) return;
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
    const node = decision.node.metadata!.name!;
    if (!podClaimNames(pod).length) return this.bind(pod, node, log);
    // Reserve: the pod takes the node's resources while its volumes bind.
    const reserved: AssumedPod = {
      node,
      pod,
      volumes: { selected: [], deadline: this.ctx.now() + this.volumeBindingTimeoutMs },
    };
    this.assumed.set(podKey(pod), reserved);
    try {
      reserved.volumes!.selected = await this.selectNode(volumes.delayed, node);
    } catch (err) {
      this.assumed.delete(podKey(pod));
      throw err;
    }
    return this.awaitVolumes(pod, reserved, log);
  }

  /** Placed by us (reserved or bound) though the cache does not show it bound (a pod recreated under its name is not). */
  private assumedAs(pod: Pod): AssumedPod | undefined {
    const assumed = this.assumed.get(podKey(pod));
    return assumed?.pod.metadata?.uid === pod.metadata?.uid ? assumed : undefined;
  }

  /**
   * PreBind: binds the reserved pod once its claims are bound; until then waits for their events (or the deadline);
   * a failed or timed-out binding releases the node and sends the pod back to scheduling with kube's SchedulerError.
   */
  private async awaitVolumes(
    pod: Pod,
    reserved: AssumedPod,
    log: ReconcileContext['log'],
  ): Promise<ReconcileResult | void> {
    const { node, volumes } = reserved;
    if (!volumes) return;
    const nodeExists = !!(await this.ctx.client.get(NodeKind, { name: node }).catch(ignoreNotFound));
    const progress = volumeBindingProgress(pod, node, nodeExists, await this.podClaims(pod), volumes.selected);
    if ('bound' in progress) return this.bind(pod, node, log);
    const remaining = volumes.deadline - this.ctx.now();
    if ('waiting' in progress && remaining > 0) {
      log.debug({ node, claims: progress.waiting }, "Waiting for the pod's claims to bind");
      return { requeueAfter: remaining };
    }
    const failure = 'failed' in progress ? progress.failed : BIND_TIMEOUT_REASON;
    this.assumed.delete(podKey(pod));
    await this.markUnschedulable(pod, preBindMessage(failure), 'SchedulerError');
    return { requeueAfter: SCHEDULER_ERROR_RETRY_MS };
  }

  private async bind(pod: Pod, nodeName: string, log: ReconcileContext['log']): Promise<void> {
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
    log.debug({ node: nodeName }, 'Bound pod');
  }

  /** PodScheduled=False with `reason` (Unschedulable: no node fits; SchedulerError: binding failed) and an Event. */
  private async markUnschedulable(pod: Pod, message: string, reason = 'Unschedulable'): Promise<void> {
    const current = podCondition(pod, 'PodScheduled');
    if (current?.status === 'False' && current.reason === reason && current.message === message) return;
    const condition = {
      type: 'PodScheduled',
      status: 'False',
      reason,
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
    if (!podClaimNames(pod).length) return { delayed: [] };
    const claims = await this.podClaims(pod);
    const classes = (await this.ctx.client.list(StorageClassKind)).items;
    return checkPodVolumes(pod, claims, new Map(classes.map((c) => [c.metadata!.name!, c])));
  }

  /** The pod's claims by name (absent when not found). */
  private async podClaims(pod: Pod): Promise<Map<string, PersistentVolumeClaim>> {
    const claims = new Map<string, PersistentVolumeClaim>();
    for (const name of podClaimNames(pod)) {
      const key = { namespace: pod.metadata?.namespace, name };
      // A claim created just before its pod may not be cached yet: a miss is checked with the API server.
      const claim =
        (await this.ctx.client.get(PersistentVolumeClaimKind, key).catch(ignoreNotFound)) ??
        (await this.ctx.api.get(PersistentVolumeClaimKind, key).catch(ignoreNotFound));
      if (claim) claims.set(name, claim);
    }
    return claims;
  }

  /**
   * Delayed-binding claims learn the node of their first consumer, so their volume can be provisioned for it; returns
   * them with the resourceVersion that carries the node.
   */
  private async selectNode(claims: PersistentVolumeClaim[], nodeName: string): Promise<SelectedClaim[]> {
    const selected: SelectedClaim[] = [];
    for (const claim of claims) {
      const name = claim.metadata!.name!;
      if (claim.metadata?.annotations?.[ANN_SELECTED_NODE] === nodeName) {
        selected.push({ name, resourceVersion: claim.metadata.resourceVersion });
        continue;
      }
      const written = await this.ctx.client.patch(
        PersistentVolumeClaimKind,
        { namespace: claim.metadata?.namespace, name },
        { type: 'merge', patch: { metadata: { annotations: { [ANN_SELECTED_NODE]: nodeName } } } },
      );
      selected.push({ name, resourceVersion: written.metadata?.resourceVersion });
    }
    return selected;
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
