// Scaling a Deployment in the middle of a rollout (kube's proportional scaling): the replicas to add or remove are
// shared among the active ReplicaSets in proportion to their size, so a rollout keeps its shape.
import type { Deployment, ReplicaSet } from '../shared/kinds.js';
import { DESIRED_REPLICAS, MAX_REPLICAS } from './annotations.js';
import { resolveFenceposts, specReplicas, sumSpec } from './rollout-math.js';

/** A scaling event: an active ReplicaSet was sized for a different replica count than the Deployment has now. */
export function isScalingEvent(d: Deployment, all: ReplicaSet[]): boolean {
  return all.some((rs) => {
    const desired = rs.metadata?.annotations?.[DESIRED_REPLICAS];
    return specReplicas(rs) > 0 && desired !== undefined && Number(desired) !== (d.spec?.replicas ?? 1);
  });
}

/** The new ReplicaSet runs all replicas, all available: the old ones can go. */
export function isSaturated(d: Deployment, newRS: ReplicaSet | undefined): boolean {
  const replicas = d.spec?.replicas ?? 1;
  return (
    !!newRS &&
    specReplicas(newRS) === replicas &&
    Number(newRS.metadata?.annotations?.[DESIRED_REPLICAS]) === replicas &&
    (newRS.status?.availableReplicas ?? 0) === replicas
  );
}

/** Target sizes (by ReplicaSet name) for the active ReplicaSets when the Deployment's replica count changed. */
export function proportionalSizes(d: Deployment, active: ReplicaSet[]): Map<string, number> {
  const replicas = d.spec?.replicas ?? 1;
  const allowed = replicas > 0 ? replicas + resolveFenceposts(d).maxSurge : 0;
  const toAdd = allowed - sumSpec(active);
  const byCreation = (a: ReplicaSet, b: ReplicaSet) =>
    Date.parse(a.metadata?.creationTimestamp ?? '') - Date.parse(b.metadata?.creationTimestamp ?? '');
  // Growing favours the largest and then the newest; shrinking the largest and then the oldest.
  const sorted = [...active].sort(
    (a, b) => specReplicas(b) - specReplicas(a) || (toAdd > 0 ? -byCreation(a, b) : byCreation(a, b)),
  );
  const sizes = new Map<string, number>();
  let added = 0;
  for (const rs of sorted) {
    let change = 0;
    if (toAdd !== 0) {
      const fraction = replicaSetFraction(rs, d, allowed);
      change = toAdd > 0 ? Math.min(fraction, toAdd - added) : Math.max(fraction, toAdd - added);
      added += change;
    }
    sizes.set(rs.metadata!.name!, specReplicas(rs) + change);
  }
  // Rounding leftovers go to the largest.
  if (sorted.length && toAdd !== 0) {
    const first = sorted[0].metadata!.name!;
    sizes.set(first, Math.max(0, sizes.get(first)! + toAdd - added));
  }
  return sizes;
}

function replicaSetFraction(rs: ReplicaSet, d: Deployment, allowed: number): number {
  if ((d.spec?.replicas ?? 1) === 0) return -specReplicas(rs);
  const annotated = Number(rs.metadata?.annotations?.[MAX_REPLICAS] ?? d.status?.replicas ?? 0);
  if (!annotated) return 0;
  return Math.round((specReplicas(rs) * allowed) / annotated) - specReplicas(rs);
}
