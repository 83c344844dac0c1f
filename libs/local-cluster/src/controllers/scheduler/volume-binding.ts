// kube-scheduler's VolumeBinding plugin, the part a local cluster needs: a pod whose PersistentVolumeClaim is missing,
// being deleted, or unbound under immediate binding is unschedulable with kube's reason; an unbound claim of a
// WaitForFirstConsumer class gets the chosen node (`volume.kubernetes.io/selected-node`) so its volume is provisioned.
// Unlike kube, the pod is bound at once instead of after the volume: the kubelet waits for the claim to be Bound.
// A claim created without a class counts as of the default class: in kube the DefaultStorageClass admission gives it
// that class at its creation; here the persistentvolume-binder does a moment later, and the pod need not wait for it.
import type { PersistentVolumeClaim, Pod, StorageClass } from '../shared/kinds.js';
import { defaultStorageClass } from '../persistentvolume/binding.js';

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
