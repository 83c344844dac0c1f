// Deployment conditions, as `kubectl rollout status` and `kubectl describe` read them.
import type { DeploymentCondition } from '../shared/kinds.js';
import { rfc3339 } from '../shared/time.js';

export type DeploymentStatus = NonNullable<import('../shared/kinds.js').Deployment['status']>;

export const AVAILABLE = 'Available';
export const PROGRESSING = 'Progressing';

export const Reasons = {
  minimumReplicasAvailable: 'MinimumReplicasAvailable',
  minimumReplicasUnavailable: 'MinimumReplicasUnavailable',
  newReplicaSetCreated: 'NewReplicaSetCreated',
  foundNewReplicaSet: 'FoundNewReplicaSet',
  replicaSetUpdated: 'ReplicaSetUpdated',
  newReplicaSetAvailable: 'NewReplicaSetAvailable',
  progressDeadlineExceeded: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  replicaSetCreateError: 'ReplicaSetCreateError',
} as const;

export function condition(status: DeploymentStatus, type: string): DeploymentCondition | undefined {
  return status.conditions?.find((c) => c.type === type);
}

/**
 * Sets a condition. The same status and reason is no change at all; the same status with a new reason keeps
 * lastTransitionTime; `refresh` moves lastUpdateTime even when nothing else changed (progress was made).
 */
export function setCondition(
  status: DeploymentStatus,
  type: string,
  value: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
  now: number,
  refresh = false,
): void {
  const current = condition(status, type);
  if (current && current.status === value && current.reason === reason && !refresh) return;
  const at = rfc3339(now);
  const next: DeploymentCondition = {
    type,
    status: value,
    reason,
    message,
    lastUpdateTime: at,
    lastTransitionTime: current?.status === value ? current.lastTransitionTime : at,
  };
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== type), next];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  status.conditions = (status.conditions ?? []).filter((c) => c.type !== type);
}
