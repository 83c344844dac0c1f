// The shoot care garbage collection (Gardener's care `GarbageCollection` and `DeleteStalePods`): stale Pods in the
// shoot's control plane namespace in the seed and in the shoot's kube-system (every namespace while the shoot is being
// deleted) are deleted — Pods terminated as Evicted, OutOf<resource>, NodeAffinity or NodeLost, and Pods stuck in
// termination for more than 5 minutes (deleted with grace period 0). `stalePods` is the pure choice, the rest the shell.
import { isNotFound, Kinds, type Client } from '@gardener-ts/controller-runtime';
import type { V1Pod } from '@kubernetes/client-node';

/** How long a Pod may be terminating before it is force-deleted (Gardener's deletion grace period). */
export const StuckTerminationGracePeriodMs = 5 * 60_000;

/** Gardener's `IsPodStale`: the Pod's status reason says it was evicted or lost. */
export function isStaleReason(reason: string | undefined): boolean {
  const r = reason ?? '';
  return r.includes('Evicted') || r.startsWith('OutOf') || r.includes('NodeAffinity') || r.includes('NodeLost');
}

/** A Pod to delete: `force` for one stuck in termination (grace period 0). */
export interface StalePod {
  namespace: string;
  name: string;
  force: boolean;
}

/** The Pods to delete and how (pure). */
export function stalePods(pods: readonly V1Pod[], now: Date): StalePod[] {
  const out: StalePod[] = [];
  for (const pod of pods) {
    const at = { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' };
    if (isStaleReason(pod.status?.reason)) {
      out.push({ ...at, force: false });
      continue;
    }
    const deletion = pod.metadata?.deletionTimestamp;
    if (deletion && new Date(deletion).getTime() < now.getTime() - StuckTerminationGracePeriodMs) {
      out.push({ ...at, force: true });
    }
  }
  return out;
}

/** Deletes the stale Pods of `namespace` (all namespaces when undefined); returns what it deleted. */
export async function deleteStalePods(
  client: Pick<Client, 'list' | 'delete'>,
  namespace: string | undefined,
  now: Date,
): Promise<StalePod[]> {
  const pods = (await client.list(Kinds.Pod, namespace === undefined ? {} : { namespace })).items as V1Pod[];
  const stale = stalePods(pods, now);
  const errors: unknown[] = [];
  for (const pod of stale) {
    try {
      await client.delete(
        Kinds.Pod,
        { namespace: pod.namespace, name: pod.name },
        pod.force ? { gracePeriodSeconds: 0, propagationPolicy: 'Background' } : {},
      );
    } catch (err) {
      if (!isNotFound(err)) errors.push(err);
    }
  }
  if (errors.length > 0) {
    throw new AggregateError(errors, `deleting ${errors.length} stale pod(s) failed`);
  }
  return stale;
}
