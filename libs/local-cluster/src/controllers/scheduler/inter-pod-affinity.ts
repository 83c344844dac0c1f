// Required inter-pod affinity and anti-affinity (kube's InterPodAffinity filter): the pod's own required terms
// against the pods already bound, and the required anti-affinity terms of those pods against the pod (symmetry).
import type { Node, Pod } from '../shared/kinds.js';
import {
  type AffinityTerm,
  type NamespaceLabels,
  podAffinityTerms,
  podsOnNodes,
  termMatches,
  topologyPair,
} from './affinity-terms.js';

export const AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules";
export const ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules";
export const EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't satisfy existing pods anti-affinity rules";

/**
 * Per node name: why the pod may not go there under inter-pod (anti-)affinity (absent: it may). `placed` are the
 * pods bound to nodes, `namespaces` the labels of each namespace.
 */
export function interPodAffinityFilter(
  pod: Pod,
  nodes: Node[],
  placed: Pod[],
  namespaces: NamespaceLabels,
): Map<string, string> {
  const terms = podAffinityTerms(pod);
  // Pods matching all of the pod's required affinity terms, anti-affinity matches, and bound pods whose required
  // anti-affinity selects this pod: counted per topology domain of their node.
  const affinity = new Map<string, number>();
  const antiAffinity = new Map<string, number>();
  const existingAntiAffinity = new Map<string, number>();
  const count = (into: Map<string, number>, node: Node, key: string) => {
    const pair = topologyPair(node, key);
    if (pair !== undefined) into.set(pair, (into.get(pair) ?? 0) + 1);
  };
  for (const { node, pod: other } of podsOnNodes(nodes, placed)) {
    for (const t of podAffinityTerms(other).requiredAntiAffinity)
      if (termMatches(t, pod, namespaces)) count(existingAntiAffinity, node, t.topologyKey);
    if (terms.requiredAffinity.length > 0 && terms.requiredAffinity.every((t) => termMatches(t, other, namespaces))) {
      for (const t of terms.requiredAffinity) count(affinity, node, t.topologyKey);
    }
    for (const t of terms.requiredAntiAffinity)
      if (termMatches(t, other, namespaces)) count(antiAffinity, node, t.topologyKey);
  }
  const selfMatches = terms.requiredAffinity.every((t) => termMatches(t, pod, namespaces));
  const reasons = new Map<string, string>();
  for (const node of nodes) {
    let reason: string | undefined;
    if (!satisfiesAffinity(node, terms.requiredAffinity, affinity, selfMatches)) reason = AFFINITY_RULES_NOT_MATCH;
    else if (
      terms.requiredAntiAffinity.some((t) => (antiAffinity.get(topologyPair(node, t.topologyKey) ?? '') ?? 0) > 0)
    )
      reason = ANTI_AFFINITY_RULES_NOT_MATCH;
    else if (Object.keys(node.metadata?.labels ?? {}).some((k) => existingAntiAffinity.has(topologyPair(node, k)!)))
      reason = EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH;
    if (reason) reasons.set(node.metadata!.name!, reason);
  }
  return reasons;
}

/**
 * The node has every topology key of the terms and, in each of its domains, a pod matching all terms. kube's
 * exception: when no pod matches anywhere and the pod matches its own terms, it may go first (on a node with
 * all the keys), or a set of pods with affinity to each other could never start.
 */
function satisfiesAffinity(
  node: Node,
  terms: AffinityTerm[],
  counts: Map<string, number>,
  selfMatches: boolean,
): boolean {
  let podsExist = true;
  for (const t of terms) {
    const pair = topologyPair(node, t.topologyKey);
    if (pair === undefined) return false;
    if ((counts.get(pair) ?? 0) <= 0) podsExist = false;
  }
  return podsExist || (counts.size === 0 && selfMatches);
}
