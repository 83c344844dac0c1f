// What a DaemonSet does next (kube's manage and rollingUpdate, as a pure plan): a pod on every node that should run
// one, none elsewhere, failed pods replaced, duplicates removed; then old-revision pods replaced within
// maxUnavailable.
import type { Pod } from '../shared/kinds.js';
import { isPodAvailable } from '../shared/pods.js';

export const DAEMON_REVISION_LABEL = 'controller-revision-hash';

export interface NodePlacement {
  node: string;
  shouldRun: boolean;
  pods: Pod[];
}

export interface DaemonPlanInput {
  nodes: NodePlacement[];
  updateHash: string;
  /** Undefined for OnDelete. */
  maxUnavailable: number | undefined;
  minReadySeconds: number;
  now: number;
}

export interface DaemonPlan {
  create: string[];
  delete: Pod[];
}

const byAge = (a: Pod, b: Pod) =>
  Date.parse(a.metadata?.creationTimestamp ?? '') - Date.parse(b.metadata?.creationTimestamp ?? '') ||
  (a.metadata!.name! < b.metadata!.name! ? -1 : 1);

/** The pod that counts for a node: its oldest live, not failed pod. */
export function daemonPodOf(pods: Pod[]): Pod | undefined {
  return pods.filter((p) => !p.metadata?.deletionTimestamp && p.status?.phase !== 'Failed').sort(byAge)[0];
}

export function planDaemonSet(input: DaemonPlanInput): DaemonPlan {
  const plan: DaemonPlan = { create: [], delete: [] };
  for (const { node, shouldRun, pods } of input.nodes) {
    const live = pods.filter((p) => !p.metadata?.deletionTimestamp);
    if (!shouldRun) {
      plan.delete.push(...live);
      continue;
    }
    const failed = live.filter((p) => p.status?.phase === 'Failed');
    const running = live.filter((p) => p.status?.phase !== 'Failed').sort(byAge);
    plan.delete.push(...failed, ...running.slice(1));
    if (running.length === 0) plan.create.push(node);
  }
  if (input.maxUnavailable === undefined || plan.create.length || plan.delete.length) return plan;

  const available = (p: Pod | undefined) => !!p && isPodAvailable(p, input.minReadySeconds, input.now);
  const current = input.nodes.filter((n) => n.shouldRun).map((n) => daemonPodOf(n.pods));
  let unavailable = current.filter((p) => !available(p)).length;
  for (const pod of current) {
    if (!pod || pod.metadata?.labels?.[DAEMON_REVISION_LABEL] === input.updateHash) continue;
    // An old pod that is down anyway goes at once; a serving one only within the budget.
    if (!available(pod)) plan.delete.push(pod);
    else if (unavailable < input.maxUnavailable) {
      plan.delete.push(pod);
      unavailable++;
    }
  }
  return plan;
}
