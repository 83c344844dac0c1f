// Which pods a scale-down removes first (kube's ActivePods ordering): pods that matter least go first, so the
// ones serving traffic survive.
import { isPodReady, podCondition } from '../shared/pods.js';
import type { Pod } from '../shared/kinds.js';

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/**
 * Negative when `a` should be deleted before `b`: unscheduled before scheduled, Pending before Unknown before
 * Running, not ready before ready, ready for less time before longer, more container restarts before fewer,
 * newer before older.
 */
export function compareForDeletion(a: Pod, b: Pod): number {
  const scheduled = (p: Pod) => (p.spec?.nodeName ? 1 : 0);
  const phase = (p: Pod) => PHASE_RANK[p.status?.phase ?? 'Pending'] ?? 0;
  const ready = (p: Pod) => (isPodReady(p) ? 1 : 0);
  return (
    scheduled(a) - scheduled(b) ||
    phase(a) - phase(b) ||
    ready(a) - ready(b) ||
    (isPodReady(a) && isPodReady(b)
      ? time(podCondition(b, 'Ready')?.lastTransitionTime) - time(podCondition(a, 'Ready')?.lastTransitionTime)
      : 0) ||
    restarts(b) - restarts(a) ||
    time(b.metadata?.creationTimestamp) - time(a.metadata?.creationTimestamp)
  );
}

/** The `count` pods to delete first. */
export function podsToDelete(pods: Pod[], count: number): Pod[] {
  return [...pods].sort(compareForDeletion).slice(0, Math.max(0, count));
}

function time(ts: string | undefined): number {
  return ts ? Date.parse(ts) : 0;
}

function restarts(pod: Pod): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
}
