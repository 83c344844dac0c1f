// The status a ReplicaSet reports about the pods it controls.
import type { Pod, ReplicaSet } from '../shared/kinds.js';
import { isPodAvailable, isPodReady } from '../shared/pods.js';

export type ReplicaSetStatus = NonNullable<ReplicaSet['status']>;

export function replicaSetStatus(rs: ReplicaSet, pods: Pod[], now: number): ReplicaSetStatus {
  const templateLabels = Object.entries(rs.spec?.template?.metadata?.labels ?? {});
  const minReadySeconds = rs.spec?.minReadySeconds ?? 0;
  const status: ReplicaSetStatus = {
    replicas: pods.length,
    fullyLabeledReplicas: pods.filter((p) => templateLabels.every(([k, v]) => p.metadata?.labels?.[k] === v)).length,
    readyReplicas: pods.filter(isPodReady).length,
    availableReplicas: pods.filter((p) => isPodAvailable(p, minReadySeconds, now)).length,
    observedGeneration: rs.metadata?.generation,
  };
  if (rs.status?.conditions?.length) status.conditions = rs.status.conditions;
  return status;
}

export function sameStatus(a: ReplicaSetStatus | undefined, b: ReplicaSetStatus): boolean {
  return (
    a?.replicas === b.replicas &&
    (a?.fullyLabeledReplicas ?? 0) === b.fullyLabeledReplicas &&
    (a?.readyReplicas ?? 0) === b.readyReplicas &&
    (a?.availableReplicas ?? 0) === b.availableReplicas &&
    a?.observedGeneration === b.observedGeneration
  );
}
