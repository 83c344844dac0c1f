// One scheduling decision: filter the nodes, then score the feasible ones.
import type { Node, Pod } from '../shared/kinds.js';
import type { NamespaceLabels } from './affinity-terms.js';
import { filterNode, unschedulableMessage } from './filters.js';
import { interPodAffinityFilter } from './inter-pod-affinity.js';
import { emptyUsage, type NodeUsage } from './resources.js';
import { type Candidate, pickNode } from './score.js';
import { topologySpreadFilter } from './topology-spread.js';

export type Decision = { node: Node } | { unschedulable: string };

/**
 * Where the pod goes given the nodes and what is already bound to each (by node name); `placed`, the pods bound to
 * nodes, count for topology spread and inter-pod affinity; `namespaces` gives the labels namespaceSelectors match.
 * Filters run in kube's order and a node gets the reason of the first that fails: node-level filters, then
 * PodTopologySpread, then InterPodAffinity.
 */
export function schedulePod(
  pod: Pod,
  nodes: Node[],
  usage: Map<string, NodeUsage>,
  placed: Pod[] = [],
  namespaces: NamespaceLabels = new Map(),
): Decision {
  const reasonsByNode: string[][] = [];
  const feasible: Candidate[] = [];
  const spread = topologySpreadFilter(pod, nodes, placed);
  const affinity = interPodAffinityFilter(pod, nodes, placed, namespaces);
  for (const node of nodes) {
    const name = node.metadata!.name!;
    const nodeUsage = usage.get(name) ?? emptyUsage();
    let reasons = filterNode(pod, node, nodeUsage);
    const later = spread.get(name) ?? affinity.get(name);
    if (reasons.length === 0 && later) reasons = [later];
    if (reasons.length === 0) feasible.push({ node, usage: nodeUsage });
    else reasonsByNode.push(reasons);
  }
  const node = pickNode({ pod, feasible, nodes, placed, namespaces });
  return node ? { node } : { unschedulable: unschedulableMessage(nodes.length, reasonsByNode) };
}
