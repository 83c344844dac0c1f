// The scheduler's filters: which nodes may run a pod, and if none, why not (kube's reasons, one per node).
import type { Node, Pod } from '../shared/kinds.js';
import { matchesNodeSelectorAndAffinity } from './node-affinity.js';
import { allocatable, type NodeUsage, podRequests } from './resources.js';
import { TAINT_UNSCHEDULABLE, toleratesAll, untoleratedTaint } from './taints.js';

/**
 * Why the node cannot run the pod; empty if it can. Filters run in kube's order and stop at the first that
 * fails; resource fit reports every insufficient resource.
 */
export function filterNode(pod: Pod, node: Node, usage: NodeUsage): string[] {
  if (
    node.spec?.unschedulable &&
    !toleratesAll(pod.spec?.tolerations, { key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' })
  ) {
    return ['node(s) were unschedulable'];
  }
  const taint = untoleratedTaint(node, pod.spec?.tolerations);
  if (taint) return [`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`];
  if (!matchesNodeSelectorAndAffinity(pod, node)) return ["node(s) didn't match Pod's node affinity/selector"];
  return insufficientResources(pod, node, usage);
}

function insufficientResources(pod: Pod, node: Node, usage: NodeUsage): string[] {
  const free = allocatable(node);
  const reasons: string[] = [];
  const maxPods = free.get('pods');
  if (maxPods !== undefined && usage.pods + 1 > maxPods / 1000) reasons.push('Too many pods');
  for (const [name, wanted] of podRequests(pod)) {
    if (wanted <= 0) continue;
    if (wanted > (free.get(name) ?? 0) - (usage.requested.get(name) ?? 0)) reasons.push(`Insufficient ${name}`);
  }
  return reasons;
}

/** kube's FitError message: `0/3 nodes are available: 1 Insufficient cpu, 2 node(s) were unschedulable.` */
export function unschedulableMessage(nodeCount: number, reasonsByNode: string[][]): string {
  if (nodeCount === 0) return 'no nodes available to schedule pods';
  const counts = new Map<string, number>();
  for (const reasons of reasonsByNode) for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const parts = [...counts].map(([reason, n]) => `${n} ${reason}`).sort();
  return `0/${nodeCount} nodes are available: ${parts.join(', ')}.`;
}
