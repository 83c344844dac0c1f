// What the node lifecycle controller decides about one Node, as pure functions: when its kubelet was last heard of
// (status heartbeat or node Lease), the conditions of a node gone silent, and the taints its Ready condition implies.
import type * as k8s from '@kubernetes/client-node';
import type { Lease, Node, Pod, PodCondition, Taint, Wire } from '../shared/kinds.js';
import { rfc3339 } from '../shared/time.js';

export type NodeCondition = Wire<k8s.V1NodeCondition>;

/** Where kubelets keep their node Leases, named like their Node. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';

/** The conditions kube's node lifecycle controller sets to Unknown (Ready first, then the rest in its order). */
export const MONITORED_CONDITIONS = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

export const REASON_UNKNOWN = 'NodeStatusUnknown';
export const MESSAGE_UNKNOWN = 'Kubelet stopped posting node status.';
export const REASON_NEVER_UPDATED = 'NodeStatusNeverUpdated';
export const MESSAGE_NEVER_UPDATED = 'Kubelet never posted node status.';

const time = (ts: string | undefined | null): number | undefined => {
  const ms = ts ? Date.parse(ts) : NaN;
  return Number.isNaN(ms) ? undefined : ms;
};

export const readyCondition = (node: Node): NodeCondition | undefined =>
  node.status?.conditions?.find((c) => c.type === 'Ready');

/**
 * When the kubelet last showed it is alive: the later of the Ready condition's heartbeat (the node's creation
 * while it never posted one) and its Lease's renewTime. Undefined if neither is known.
 */
export function lastHeardOf(node: Node, lease: Lease | undefined): number | undefined {
  const ready = readyCondition(node);
  const status = ready ? time(ready.lastHeartbeatTime) : time(node.metadata?.creationTimestamp);
  const renewed = time(lease?.spec?.renewTime);
  if (status === undefined) return renewed;
  return renewed === undefined ? status : Math.max(status, renewed);
}

/**
 * The grace period a node gets: the startup grace while its kubelet never posted a Ready condition (a node just
 * registered, kube's --node-startup-grace-period), the monitor grace after that.
 */
export function gracePeriodFor(node: Node, monitorMs: number, startupMs: number): number {
  return readyCondition(node) ? monitorMs : startupMs;
}

/** Milliseconds until the node counts as silent (0 or less: it does), or undefined when it was never heard of at all. */
export function msUntilSilent(
  node: Node,
  lease: Lease | undefined,
  gracePeriodMs: number,
  now: number,
): number | undefined {
  const last = lastHeardOf(node, lease);
  // "Longer than the grace period": exactly at the limit the node is still fine.
  return last === undefined ? undefined : last + gracePeriodMs + 1 - now;
}

/**
 * The conditions of a node whose kubelet stopped posting status (kube's tryUpdateNodeHealth): every monitored
 * condition that is not Unknown yet becomes Unknown, keeping its heartbeat; a monitored condition the kubelet never
 * posted is added as never updated. Other conditions stay as they are. Undefined when nothing changes.
 */
export function silentNodeConditions(node: Node, now: number): NodeCondition[] | undefined {
  const at = rfc3339(now);
  const conditions = structuredClone(node.status?.conditions ?? []);
  let changed = false;
  for (const type of MONITORED_CONDITIONS) {
    const current = conditions.find((c) => c.type === type);
    if (!current) {
      conditions.push({
        type,
        status: 'Unknown',
        reason: REASON_NEVER_UPDATED,
        message: MESSAGE_NEVER_UPDATED,
        lastHeartbeatTime: node.metadata?.creationTimestamp ?? at,
        lastTransitionTime: at,
      });
      changed = true;
    } else if (current.status !== 'Unknown') {
      Object.assign(current, {
        status: 'Unknown',
        reason: REASON_UNKNOWN,
        message: MESSAGE_UNKNOWN,
        lastTransitionTime: at,
      });
      changed = true;
    }
  }
  return changed ? conditions : undefined;
}

/** The lifecycle taint key the Ready condition calls for; null for a Ready node; undefined without a Ready condition. */
function lifecycleTaintKey(node: Node): string | null | undefined {
  const status = readyCondition(node)?.status;
  if (status === undefined) return undefined;
  return status === 'True' ? null : status === 'False' ? TAINT_NOT_READY : TAINT_UNREACHABLE;
}

const isLifecycleTaint = (t: Taint) => t.key === TAINT_NOT_READY || t.key === TAINT_UNREACHABLE;

/**
 * The node's taints with the not-ready/unreachable ones as its Ready condition implies (NoSchedule and NoExecute,
 * each with timeAdded when added, as kube's SwapNodeControllerTaint sets it): not-ready while Ready is False,
 * unreachable while Unknown, neither while True. Taints present already are kept as they are (timeAdded too);
 * every other taint stays. Undefined when nothing changes, or when the node has no Ready condition to go by.
 *
 * A first NoExecute taint is added only with `addNoExecute` (it goes through the zone's rate-limited queue); one of
 * the other key is swapped at once, and a Ready node loses them at once, as in kube.
 */
export function lifecycleTaints(node: Node, now: number, addNoExecute = true): Taint[] | undefined {
  const key = lifecycleTaintKey(node);
  if (key === undefined) return undefined;
  const current = node.spec?.taints ?? [];
  const noExecute = addNoExecute || current.some((t) => isLifecycleTaint(t) && t.effect === 'NoExecute');
  const effects = noExecute ? (['NoSchedule', 'NoExecute'] as const) : (['NoSchedule'] as const);
  const wanted = key === null ? [] : effects.map((effect) => ({ key, effect }));
  const kept = current.filter(
    (t) => !isLifecycleTaint(t) || wanted.some((w) => w.key === t.key && w.effect === t.effect),
  );
  const added = wanted
    .filter((w) => !current.some((t) => t.key === w.key && t.effect === w.effect))
    .map((w) => ({ ...w, timeAdded: rfc3339(now) }));
  if (added.length === 0 && kept.length === current.length) return undefined;
  return [...kept, ...added];
}

/** True when the node's Ready condition calls for a NoExecute taint it does not carry yet (it waits in the zone's queue). */
export function needsNoExecuteTaint(node: Node): boolean {
  const key = lifecycleTaintKey(node);
  return typeof key === 'string' && !(node.spec?.taints ?? []).some((t) => t.key === key && t.effect === 'NoExecute');
}

/** The node's taints without the not-ready/unreachable NoExecute ones (kube's markNodeAsReachable); undefined when it has none. */
export function withoutNoExecuteLifecycleTaints(node: Node): Taint[] | undefined {
  const current = node.spec?.taints ?? [];
  const kept = current.filter((t) => !(isLifecycleTaint(t) && t.effect === 'NoExecute'));
  return kept.length === current.length ? undefined : kept;
}

/**
 * The pod's conditions with Ready set to False, as kube's MarkPodsNotReady does for the pods of a node that is not
 * Ready: only the status changes (and lastTransitionTime with it); reason and message stay as the kubelet wrote
 * them. Undefined when the pod has no Ready condition or it is False already.
 */
export function notReadyConditions(pod: Pod, now: number): PodCondition[] | undefined {
  const conditions = pod.status?.conditions;
  const ready = conditions?.find((c) => c.type === 'Ready');
  if (!conditions || !ready || ready.status === 'False') return undefined;
  return conditions.map((c) => (c === ready ? { ...c, status: 'False', lastTransitionTime: rfc3339(now) } : c));
}
