// InterPodAffinity scoring: per topology domain, the weights of the pod's preferred terms that bound pods there
// match (anti-affinity subtracts), plus the symmetric part: bound pods' preferred terms that match this pod, and
// their required affinity terms with hardPodAffinityWeight 1. Min-max scaled over the feasible nodes.
import type { Node } from '../../shared/kinds.js';
import { type AffinityTerm, podAffinityTerms, podsOnNodes, termMatches, topologyPair } from '../affinity-terms.js';
import { minMaxNormalize } from './normalize.js';
import type { ScoreInput } from './types.js';

/** kube's default `hardPodAffinityWeight`: what an existing pod's required affinity term adds to its domain. */
export const HARD_POD_AFFINITY_WEIGHT = 1;

/** Raw scores per feasible node (summed weights over the node's domains); undefined when no term applies anywhere. */
export function interPodAffinityRaw({ pod, feasible, nodes, placed, namespaces }: ScoreInput): number[] | undefined {
  const own = podAffinityTerms(pod);
  const byDomain = new Map<string, number>();
  const add = (node: Node, term: AffinityTerm, weight: number) => {
    const pair = topologyPair(node, term.topologyKey);
    if (pair !== undefined) byDomain.set(pair, (byDomain.get(pair) ?? 0) + weight);
  };
  for (const { node, pod: other } of podsOnNodes(nodes, placed)) {
    for (const t of own.preferredAffinity) if (termMatches(t, other, namespaces)) add(node, t, t.weight);
    for (const t of own.preferredAntiAffinity) if (termMatches(t, other, namespaces)) add(node, t, -t.weight);
    const theirs = podAffinityTerms(other);
    for (const t of theirs.requiredAffinity)
      if (termMatches(t, pod, namespaces)) add(node, t, HARD_POD_AFFINITY_WEIGHT);
    for (const t of theirs.preferredAffinity) if (termMatches(t, pod, namespaces)) add(node, t, t.weight);
    for (const t of theirs.preferredAntiAffinity) if (termMatches(t, pod, namespaces)) add(node, t, -t.weight);
  }
  if (byDomain.size === 0) return undefined;
  return feasible.map(({ node }) =>
    Object.keys(node.metadata?.labels ?? {}).reduce(
      (sum, key) => sum + (byDomain.get(topologyPair(node, key)!) ?? 0),
      0,
    ),
  );
}

export function interPodAffinityScore(input: ScoreInput): number[] {
  const raw = interPodAffinityRaw(input);
  return raw ? minMaxNormalize(raw) : input.feasible.map(() => 0);
}
