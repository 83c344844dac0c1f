// What the taint eviction controller decides about one pod on one node, as pure functions: which taints evict, when
// the pod's tolerations let it stay, and when a scheduled eviction fires.
import type { Taint, Toleration } from '../shared/kinds.js';
import { toleratesAll } from '../scheduler/taints.js';

/** The node's taints that evict pods: only NoExecute ones. */
export function noExecuteTaints(taints: Taint[] | undefined): Taint[] {
  return (taints ?? []).filter((t) => t.effect === 'NoExecute');
}

/** What the tolerations say about the NoExecute taints: evict now, after some time, or never. */
export type Verdict = { evict: 'now' } | { evict: 'after'; ms: number } | { evict: 'never' };

/**
 * kube's rules: a taint no toleration matches evicts at once. Otherwise the shortest `tolerationSeconds` among the
 * tolerations that matched a taint is how long the pod may stay (zero or less: at once); none of them bounded means
 * forever. No NoExecute taint at all: never.
 */
export function verdict(taints: Taint[], tolerations: Toleration[] | undefined): Verdict {
  if (taints.length === 0) return { evict: 'never' };
  if (taints.some((t) => !toleratesAll(tolerations, t))) return { evict: 'now' };
  const used = (tolerations ?? []).filter((tol) => taints.some((t) => toleratesAll([tol], t)));
  const bounded = used.map((t) => t.tolerationSeconds).filter((s): s is number => typeof s === 'number');
  if (bounded.length === 0) return { evict: 'never' };
  const seconds = Math.min(...bounded);
  return seconds <= 0 ? { evict: 'now' } : { evict: 'after', ms: seconds * 1000 };
}

/** An eviction waiting for its time: when it was scheduled and when it fires. */
export interface ScheduledEviction {
  createdAt: number;
  fireAt: number;
}

/**
 * The eviction a verdict calls for, given the one scheduled already (if any): undefined to cancel it; an immediate
 * one for `now`; for `after`, the scheduled eviction is kept as it is (kube does not restart or shorten a running
 * countdown when tolerations or taints change), else a new one from now.
 */
export function schedule(
  v: Verdict,
  scheduled: ScheduledEviction | undefined,
  now: number,
): ScheduledEviction | undefined {
  switch (v.evict) {
    case 'never':
      return undefined;
    case 'now':
      return { createdAt: now, fireAt: now };
    case 'after':
      return scheduled ?? { createdAt: now, fireAt: now + v.ms };
  }
}
