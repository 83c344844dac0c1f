// kube-scheduler's VolumeBinding plugin, the part a local cluster needs: a pod whose PersistentVolumeClaim is missing,
// being deleted, or unbound under immediate binding is unschedulable with kube's reason (PreFilter); an unbound claim
// of a WaitForFirstConsumer class gets the chosen node (`volume.kubernetes.io/selected-node`) so its volume is
// provisioned for it, and the pod is bound only once all its claims are bound (PreBind: kube polls every second until
// its bind timeout, here the claims' events wake the pod; `volumeBindingProgress`).
// A claim created without a class counts as of the default class: in kube the DefaultStorageClass admission gives it
// that class at its creation; here the persistentvolume-binder does a moment later, and the pod need not wait for it.
import type { PersistentVolumeClaim, Pod, StorageClass } from '../shared/kinds.js';
import { ANN_BIND_COMPLETED, ANN_SELECTED_NODE, defaultStorageClass } from '../persistentvolume/binding.js';

/** The claim names a pod's volumes refer to, in order, without repeats. */
export function podClaimNames(pod: Pod): string[] {
  const names = (pod.spec?.volumes ?? []).flatMap((v) =>
    v.persistentVolumeClaim?.claimName ? [v.persistentVolumeClaim.claimName] : [],
  );
  return [...new Set(names)];
}

export type VolumeCheck =
  | { unschedulable: string }
  /** Claims that bind once a node is chosen: the scheduler annotates them with it. */
  | { delayed: PersistentVolumeClaim[] };

/**
 * Checks the pod's claims (`claims` by name in the pod's namespace, absent when not found; `classes` by name, every
 * class of the cluster) as kube's VolumeBinding PreFilter: the first failing claim decides the reason.
 */
export function checkPodVolumes(
  pod: Pod,
  claims: ReadonlyMap<string, PersistentVolumeClaim>,
  classes: ReadonlyMap<string, StorageClass>,
): VolumeCheck {
  const delayed: PersistentVolumeClaim[] = [];
  let unboundImmediate = false;
  for (const name of podClaimNames(pod)) {
    const claim = claims.get(name);
    if (!claim) return { unschedulable: `persistentvolumeclaim "${name}" not found` };
    if (claim.metadata?.deletionTimestamp) return { unschedulable: `persistentvolumeclaim "${name}" is being deleted` };
    if (claim.spec?.volumeName) continue;
    const className = claim.spec?.storageClassName;
    const storageClass = className === undefined ? defaultStorageClass([...classes.values()]) : classes.get(className);
    if (storageClass?.volumeBindingMode === 'WaitForFirstConsumer') delayed.push(claim);
    else unboundImmediate = true;
  }
  if (unboundImmediate) return { unschedulable: 'pod has unbound immediate PersistentVolumeClaims' };
  return { delayed };
}

/** kube's message for a reason found before any node is looked at: `0/3 nodes are available: <reason>.` */
export function preFilterMessage(nodeCount: number, reason: string): string {
  return nodeCount === 0 ? 'no nodes available to schedule pods' : `0/${nodeCount} nodes are available: ${reason}.`;
}

/**
 * Whether the claim is bound for good: kube's "fully bound" (its volume named and `pv.kubernetes.io/bind-completed`
 * set by the PV controller) and Bound in its status, which our kubelet, like kube's, needs before it mounts the claim
 * (kube's kubelet re-checks every 100 ms, ours backs off: binding the pod before the status would cost a retry).
 */
export function claimBound(claim: PersistentVolumeClaim): boolean {
  return (
    !!claim.spec?.volumeName &&
    claim.metadata?.annotations?.[ANN_BIND_COMPLETED] !== undefined &&
    claim.status?.phase === 'Bound'
  );
}

export type BindingProgress =
  /** Every claim of the pod is bound: the pod may be bound to its node. */
  | { bound: true }
  /** The claims still to bind, by name. */
  | { waiting: string[] }
  /** Binding cannot complete for this node (kube's PreBind error, without its prefix): schedule the pod anew. */
  | { failed: string };

/** A claim the scheduler gave the node: its name and the resourceVersion of that write. */
export interface SelectedClaim {
  name: string;
  resourceVersion?: string;
}

/**
 * kube's VolumeBinding PreBind check for a pod reserved on `nodeName` (`nodeExists` whether that node is still
 * there): `claims` by name as the cache has them (absent when not found), `selected` the claims the scheduler gave the
 * node (WaitForFirstConsumer). A claim older than the scheduler's own write is waited for (the cache lags behind it);
 * one that lost the node later was given up by its provisioner, which sends the pod back to scheduling.
 */
export function volumeBindingProgress(
  pod: Pod,
  nodeName: string,
  nodeExists: boolean,
  claims: ReadonlyMap<string, PersistentVolumeClaim>,
  selected: readonly SelectedClaim[],
): BindingProgress {
  if (!nodeExists) return { failed: `failed to get node "${nodeName}": node "${nodeName}" not found` };
  const waiting: string[] = [];
  for (const name of podClaimNames(pod)) {
    const claim = claims.get(name);
    if (!claim || claim.metadata?.deletionTimestamp)
      return { failed: `failed to check binding: persistentvolumeclaim "${name}" not found` };
    const written = selected.find((s) => s.name === name);
    if (written && olderThan(claim.metadata?.resourceVersion, written.resourceVersion)) {
      waiting.push(name);
      continue;
    }
    if (written && claim.metadata?.annotations?.[ANN_SELECTED_NODE] !== nodeName)
      return { failed: `provisioning failed for PVC "${name}"` };
    if (!claimBound(claim)) waiting.push(name);
  }
  return waiting.length ? { waiting } : { bound: true };
}

/** Whether resourceVersion `seen` is older than `written` (both etcd revisions; unknown ones are not older). */
function olderThan(seen: string | undefined, written: string | undefined): boolean {
  const [a, b] = [Number(seen), Number(written)];
  return seen !== undefined && written !== undefined && Number.isFinite(a) && Number.isFinite(b) && a < b;
}

/** kube's message for a failed PreBind of VolumeBinding (`reason` from `volumeBindingProgress`, or the timeout). */
export function preBindMessage(reason: string): string {
  return `running PreBind plugin "VolumeBinding": binding volumes: ${reason}`;
}

/** The reason kube gives when the claims did not bind within the bind timeout (its poll's context expired). */
export const BIND_TIMEOUT_REASON = 'context deadline exceeded';
