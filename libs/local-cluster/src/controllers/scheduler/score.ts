// Scoring the feasible nodes: kube's default score plugins with their default weights, each normalised to 0..100.
// The node with the highest weighted sum wins.
import type { Node } from '../shared/kinds.js';
import { interPodAffinityScore } from './scores/inter-pod-affinity.js';
import { nodeAffinityScore } from './scores/node-affinity.js';
import { balancedAllocationScore, leastAllocatedScore } from './scores/resources.js';
import { taintTolerationScore } from './scores/taint-toleration.js';
import { topologySpreadScore } from './scores/topology-spread.js';
import type { ScoreInput, ScorePlugin } from './scores/types.js';

export type { Candidate, ScoreInput } from './scores/types.js';

/** kube-scheduler's default profile (ImageLocality and VolumeBinding left out: local mode has neither to go by). */
export const SCORE_PLUGINS: { name: string; weight: number; score: ScorePlugin }[] = [
  { name: 'TaintToleration', weight: 3, score: taintTolerationScore },
  { name: 'NodeAffinity', weight: 2, score: nodeAffinityScore },
  { name: 'PodTopologySpread', weight: 2, score: topologySpreadScore },
  { name: 'InterPodAffinity', weight: 2, score: interPodAffinityScore },
  { name: 'NodeResourcesFit', weight: 1, score: leastAllocatedScore },
  { name: 'NodeResourcesBalancedAllocation', weight: 1, score: balancedAllocationScore },
];

/** The weighted total per feasible node, in order. */
export function scoreNodes(input: ScoreInput): number[] {
  const totals = input.feasible.map(() => 0);
  for (const plugin of SCORE_PLUGINS) plugin.score(input).forEach((s, i) => (totals[i] += plugin.weight * s));
  return totals;
}

/**
 * The best node: highest total, then fewest pods, then name. kube picks at random among the nodes with the highest
 * total; here the choice is deterministic, and the tie-breakers spread equal nodes evenly.
 */
export function pickNode(input: ScoreInput): Node | undefined {
  const totals = scoreNodes(input);
  const ranked = input.feasible.map((c, i) => ({ ...c, total: totals[i] }));
  ranked.sort(
    (a, b) =>
      b.total - a.total || a.usage.pods - b.usage.pods || a.node.metadata!.name!.localeCompare(b.node.metadata!.name!),
  );
  return ranked[0]?.node;
}
