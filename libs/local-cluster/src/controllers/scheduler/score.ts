// Scoring feasible nodes: least requested (kube's NodeResourcesFit LeastAllocated on cpu and memory), so pods
// spread over the nodes.
import type { Node, Pod } from '../shared/kinds.js';
import { allocatable, type NodeUsage, nonZeroRequests } from './resources.js';

/** 0..100: the mean over cpu and memory of the share left free once the pod is placed. */
export function leastRequestedScore(pod: Pod, node: Node, usage: NodeUsage): number {
  const alloc = allocatable(node);
  const wanted = nonZeroRequests(pod);
  let sum = 0;
  for (const name of ['cpu', 'memory']) {
    const capacity = alloc.get(name) ?? 0;
    const requested = (usage.nonZeroRequested.get(name) ?? 0) + (wanted.get(name) ?? 0);
    sum += capacity <= 0 || requested > capacity ? 0 : ((capacity - requested) * 100) / capacity;
  }
  return sum / 2;
}

export interface Candidate {
  node: Node;
  usage: NodeUsage;
}

/** The best node: highest score, then fewest pods, then name (deterministic where kube picks at random among the best). */
export function pickNode(pod: Pod, candidates: Candidate[]): Node | undefined {
  const scored = candidates.map((c) => ({ ...c, score: leastRequestedScore(pod, c.node, c.usage) }));
  scored.sort((a, b) => b.score - a.score || a.usage.pods - b.usage.pods || a.node.metadata!.name!.localeCompare(b.node.metadata!.name!));
  return scored[0]?.node;
}
