// The arithmetic of a rolling update (kube's deployment util): how far to surge, how low availability may go, how
// many pods the new ReplicaSet may add and the old ones may lose.
import { scaledValue } from '../shared/intstr.js';
import type { Deployment, ReplicaSet } from '../shared/kinds.js';

export interface Fenceposts {
  maxSurge: number;
  maxUnavailable: number;
}

/**
 * maxSurge rounds up and maxUnavailable rounds down; when both come to 0, one pod may be unavailable so the
 * rollout can progress at all.
 */
export function resolveFenceposts(d: Deployment): Fenceposts {
  const replicas = d.spec?.replicas ?? 1;
  if (d.spec?.strategy?.type === 'Recreate') return { maxSurge: 0, maxUnavailable: 0 };
  const ru = d.spec?.strategy?.rollingUpdate;
  const maxSurge = scaledValue(ru?.maxSurge, replicas, true, '25%');
  const maxUnavailable = scaledValue(ru?.maxUnavailable, replicas, false, '25%');
  if (maxSurge === 0 && maxUnavailable === 0) return { maxSurge: 0, maxUnavailable: 1 };
  return { maxSurge, maxUnavailable };
}

export const specReplicas = (rs: ReplicaSet | undefined): number => rs?.spec?.replicas ?? 0;
export const sumSpec = (sets: ReplicaSet[]): number => sets.reduce((n, rs) => n + specReplicas(rs), 0);
export const sumStatus = (sets: ReplicaSet[], field: 'replicas' | 'readyReplicas' | 'availableReplicas'): number =>
  sets.reduce((n, rs) => n + (rs.status?.[field] ?? 0), 0);

/**
 * The new ReplicaSet's replicas for a rolling update: grow toward `replicas` while all pods (`currentPods`: the
 * larger of the ReplicaSets' specs and the pods that exist) stay within replicas + maxSurge.
 */
export function newReplicaSetReplicas(d: Deployment, newRS: ReplicaSet | undefined, currentPods: number): number {
  const replicas = d.spec?.replicas ?? 1;
  const current = specReplicas(newRS);
  if (d.spec?.strategy?.type === 'Recreate') return replicas;
  if (current >= replicas) return replicas;
  const { maxSurge } = resolveFenceposts(d);
  const room = replicas + maxSurge - currentPods;
  if (room <= 0) return current;
  return current + Math.min(room, replicas - current);
}

/**
 * How many pods the old ReplicaSets may lose now without availability dropping below replicas - maxUnavailable,
 * counting the new ReplicaSet's pods that are not available yet as unavailable.
 */
export function maxScaledDown(d: Deployment, all: ReplicaSet[], newRS: ReplicaSet | undefined): number {
  const minAvailable = (d.spec?.replicas ?? 1) - resolveFenceposts(d).maxUnavailable;
  const newUnavailable = Math.max(0, specReplicas(newRS) - (newRS?.status?.availableReplicas ?? 0));
  return sumSpec(all) - minAvailable - newUnavailable;
}

/** Old pods beyond the minimum availability, going by what the ReplicaSets report available. */
export function availableAboveMinimum(d: Deployment, all: ReplicaSet[]): number {
  const minAvailable = (d.spec?.replicas ?? 1) - resolveFenceposts(d).maxUnavailable;
  return sumStatus(all, 'availableReplicas') - minAvailable;
}
