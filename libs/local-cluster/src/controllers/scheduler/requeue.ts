// Which waiting pods a cluster event may make schedulable: kube-scheduler moves an unschedulable pod back to its active
// queue on the events its filters registered (queueing hints) instead of waiting for the periodic flush. Claims concern
// the pods that mount them; a StorageClass the pods with claims (a class created or changed decides whether an
// unbound claim binds now or for its first consumer, and which class a claim without one gets); nodes, namespaces and
// pods bound, changed or deleted on a node (resources, affinity, spread) concern every waiting pod.
import type { PersistentVolumeClaim, Pod } from '../shared/kinds.js';
import { podClaimNames } from './volume-binding.js';

export type ClusterEvent =
  | { kind: 'PersistentVolumeClaim'; claim: PersistentVolumeClaim }
  | { kind: 'StorageClass' }
  | { kind: 'Node' }
  | { kind: 'Namespace' }
  /** A pod with a node: bound, changed or deleted. */
  | { kind: 'AssignedPod' };

/** The pods of `waiting` (unscheduled pods of this scheduler) that `event` may make schedulable. */
export function podsToRetry(event: ClusterEvent, waiting: readonly Pod[]): Pod[] {
  switch (event.kind) {
    case 'PersistentVolumeClaim': {
      const { namespace, name } = event.claim.metadata ?? {};
      return waiting.filter((p) => p.metadata?.namespace === namespace && podClaimNames(p).includes(name ?? ''));
    }
    case 'StorageClass':
      return waiting.filter((p) => podClaimNames(p).length > 0);
    default:
      return [...waiting];
  }
}
