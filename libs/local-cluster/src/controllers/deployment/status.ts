// The status a Deployment reports: counts summed over its ReplicaSets, the Available condition, and the
// Progressing condition with its deadline.
import type { Deployment, ReplicaSet } from '../shared/kinds.js';
import {
  AVAILABLE,
  condition,
  type DeploymentStatus,
  PROGRESSING,
  Reasons,
  removeCondition,
  setCondition,
} from './conditions.js';
import { resolveFenceposts, sumStatus } from './rollout-math.js';

/** Counts, observedGeneration and the Available condition (kube's calculateStatus). */
export function calculateStatus(
  d: Deployment,
  all: ReplicaSet[],
  newRS: ReplicaSet | undefined,
  now: number,
): DeploymentStatus {
  const replicas = d.spec?.replicas ?? 1;
  const available = sumStatus(all, 'availableReplicas');
  const status: DeploymentStatus = {
    observedGeneration: d.metadata?.generation,
    replicas: sumStatus(all, 'replicas'),
    updatedReplicas: newRS?.status?.replicas ?? 0,
    readyReplicas: sumStatus(all, 'readyReplicas'),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, replicas - available),
    conditions: structuredClone(d.status?.conditions ?? []),
  };
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  if (available >= replicas - resolveFenceposts(d).maxUnavailable) {
    setCondition(
      status,
      AVAILABLE,
      'True',
      Reasons.minimumReplicasAvailable,
      'Deployment has minimum availability.',
      now,
    );
  } else {
    setCondition(
      status,
      AVAILABLE,
      'False',
      Reasons.minimumReplicasUnavailable,
      'Deployment does not have minimum availability.',
      now,
    );
  }
  return status;
}

/** All replicas updated, running and available, for the current generation. */
export function isComplete(d: Deployment, status: DeploymentStatus): boolean {
  const replicas = d.spec?.replicas ?? 1;
  return (
    status.updatedReplicas === replicas &&
    status.replicas === replicas &&
    status.availableReplicas === replicas &&
    (status.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0)
  );
}

/** Something moved since the last status: more updated, ready or available pods, or fewer old ones. */
function madeProgress(old: DeploymentStatus, next: DeploymentStatus): boolean {
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (next.replicas ?? 0) - (next.updatedReplicas ?? 0);
  return (
    (next.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (next.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (next.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** Milliseconds past the progress deadline (negative: time left), undefined without a running deadline. */
export function pastDeadline(d: Deployment, status: DeploymentStatus, now: number): number | undefined {
  const deadline = d.spec?.progressDeadlineSeconds;
  const progressing = condition(status, PROGRESSING);
  if (deadline === undefined || !progressing?.lastUpdateTime || progressing.reason === Reasons.newReplicaSetAvailable)
    return undefined;
  if (progressing.reason === Reasons.progressDeadlineExceeded) return 0;
  return now - (Date.parse(progressing.lastUpdateTime) + deadline * 1000);
}

/** The Progressing condition after a rollout step (kube's syncRolloutStatus), for a Deployment that is not paused. */
export function updateProgressing(
  d: Deployment,
  status: DeploymentStatus,
  newRS: ReplicaSet | undefined,
  now: number,
): void {
  if (d.spec?.progressDeadlineSeconds === undefined) {
    removeCondition(status, PROGRESSING);
    return;
  }
  const name = newRS?.metadata?.name;
  if (newRS && isComplete(d, status)) {
    setCondition(
      status,
      PROGRESSING,
      'True',
      Reasons.newReplicaSetAvailable,
      `ReplicaSet "${name}" has successfully progressed.`,
      now,
    );
  } else if (newRS && madeProgress(d.status ?? {}, status)) {
    setCondition(
      status,
      PROGRESSING,
      'True',
      Reasons.replicaSetUpdated,
      `ReplicaSet "${name}" is progressing.`,
      now,
      true,
    );
  } else if (newRS && (pastDeadline(d, status, now) ?? -1) >= 0) {
    setCondition(
      status,
      PROGRESSING,
      'False',
      Reasons.progressDeadlineExceeded,
      `ReplicaSet "${name}" has timed out progressing.`,
      now,
    );
  }
}
