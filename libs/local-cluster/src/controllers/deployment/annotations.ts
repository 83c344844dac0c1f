// The annotations by which Deployments and their ReplicaSets keep revision history (what `kubectl rollout history`
// and `kubectl rollout undo` read).
import type { KubernetesObject } from '@gardener-ts/controller-runtime';

export const REVISION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';
export const POD_TEMPLATE_HASH = 'pod-template-hash';

/** Deployment annotations that are the controller's own bookkeeping, never copied to ReplicaSets. */
const NOT_COPIED = new Set([
  REVISION,
  REVISION_HISTORY,
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  'kubectl.kubernetes.io/last-applied-configuration',
  'deprecated.deployment.rollback.to',
]);

export function revisionOf(obj: KubernetesObject): number {
  const v = Number(obj.metadata?.annotations?.[REVISION] ?? '0');
  return Number.isInteger(v) && v > 0 ? v : 0;
}

/** The Deployment's user annotations, as the ReplicaSets carry them. */
export function copiedAnnotations(deploymentAnnotations: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(deploymentAnnotations ?? {}).filter(([k]) => !NOT_COPIED.has(k)));
}

/**
 * The new ReplicaSet's annotations for revision `revision`: when it was an older revision before (a rollback),
 * that revision joins its revision-history.
 */
export function newReplicaSetAnnotations(
  current: Record<string, string> | undefined,
  deploymentAnnotations: Record<string, string> | undefined,
  revision: number,
  desiredReplicas: number,
  maxReplicas: number,
): Record<string, string> {
  const next: Record<string, string> = { ...current, ...copiedAnnotations(deploymentAnnotations) };
  const old = current?.[REVISION];
  if (old && Number(old) < revision) {
    next[REVISION_HISTORY] = current?.[REVISION_HISTORY] ? `${current[REVISION_HISTORY]},${old}` : old;
  }
  if (!old || Number(old) < revision) next[REVISION] = String(revision);
  next[DESIRED_REPLICAS] = String(desiredReplicas);
  next[MAX_REPLICAS] = String(maxReplicas);
  return next;
}
