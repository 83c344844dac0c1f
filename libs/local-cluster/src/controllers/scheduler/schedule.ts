// One scheduling decision: filter the nodes, then score the feasible ones.
import type { Node, Pod } from '../shared/kinds.js';
import { filterNode, unschedulableMessage } from './filters.js';
import { emptyUsage, type NodeUsage } from './resources.js';
import { type Candidate, pickNode } from './score.js';
import { topologySpreadFilter } from './topology-spread.js';

export type Decision = { node: Node } | { unschedulable: string };

/**
 * Where the pod goes given the nodes and what is already bound to each (by node name); `placed`, the pods bound to
 * nodes, count for topology spread constraints.
 */
export function schedulePod(pod: Pod, nodes: Node[], usage: Map<string, NodeUsage>, placed: Pod[] = []): Decision {
  const reasonsByNode: string[][] = [];
  const feasible: Candidate[] = [];
  const spread = topologySpreadFilter(pod, nodes, placed);
  for (const node of nodes) {
    const nodeUsage = usage.get(node.metadata!.name!) ?? emptyUsage();
    let reasons = filterNode(pod, node, nodeUsage);
    const spreadReason = spread.get(node.metadata!.name!);
    if (reasons.length === 0 && spreadReason) reasons = [spreadReason];
    if (reasons.length === 0) feasible.push({ node, usage: nodeUsage });
    else reasonsByNode.push(reasons);
  }
  const node = pickNode(pod, feasible);
  return node ? { node } : { unschedulable: unschedulableMessage(nodes.length, reasonsByNode) };
}
