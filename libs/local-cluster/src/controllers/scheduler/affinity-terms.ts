// Pod (anti-)affinity terms as kube-scheduler reads them: each term relative to the pod that declares it (its
// namespace and, for matchLabelKeys/mismatchLabelKeys, its labels), matched against other pods and their namespaces.
import type * as k8s from '@kubernetes/client-node';
import type { LabelMatcher } from '@gardener-ts/controller-runtime';
import type { LabelSelector, Node, Pod, Wire } from '../shared/kinds.js';
import { selectorMatcher } from '../shared/selectors.js';

export type Labels = Record<string, string>;
/** Namespace name → its labels (for namespaceSelector). */
export type NamespaceLabels = Map<string, Labels>;

type PodAffinityTerm = Wire<k8s.V1PodAffinityTerm>;

export interface AffinityTerm {
  topologyKey: string;
  /** Over the other pod's labels; a term without labelSelector matches no pod. */
  selector: LabelMatcher;
  /** The namespaces listed, or the declaring pod's own when neither namespaces nor namespaceSelector is set. */
  namespaces: Set<string>;
  /** Over the other pod's namespace labels; absent selects none, `{}` selects all. */
  namespaceSelector: LabelMatcher;
}

export interface WeightedAffinityTerm extends AffinityTerm {
  weight: number;
}

/** A pod's four kinds of inter-pod terms, compiled. */
export interface PodAffinityTerms {
  requiredAffinity: AffinityTerm[];
  requiredAntiAffinity: AffinityTerm[];
  preferredAffinity: WeightedAffinityTerm[];
  preferredAntiAffinity: WeightedAffinityTerm[];
}

/**
 * The term of `owner` as kube's API server and scheduler see it: matchLabelKeys become `key In (owner's value)` and
 * mismatchLabelKeys `key NotIn (owner's value)` (keys the owner does not carry are ignored; no labelSelector stays
 * match-nothing).
 */
export function compileTerm(owner: Pod, term: PodAffinityTerm): AffinityTerm {
  const ownLabels = owner.metadata?.labels ?? {};
  let selector: LabelSelector | undefined = term.labelSelector;
  if (selector) {
    const derived = [
      ...(term.matchLabelKeys ?? [])
        .filter((k) => k in ownLabels)
        .map((key) => ({ key, operator: 'In', values: [ownLabels[key]] })),
      ...(term.mismatchLabelKeys ?? [])
        .filter((k) => k in ownLabels)
        .map((key) => ({ key, operator: 'NotIn', values: [ownLabels[key]] })),
    ];
    if (derived.length > 0)
      selector = { ...selector, matchExpressions: [...(selector.matchExpressions ?? []), ...derived] };
  }
  const listed = term.namespaces ?? [];
  const namespaces = new Set(
    listed.length === 0 && !term.namespaceSelector ? [owner.metadata?.namespace ?? 'default'] : listed,
  );
  return {
    topologyKey: term.topologyKey,
    selector: selectorMatcher(selector),
    namespaces,
    namespaceSelector: selectorMatcher(term.namespaceSelector),
  };
}

export function podAffinityTerms(pod: Pod): PodAffinityTerms {
  const affinity = pod.spec?.affinity;
  const weighted = (terms: { weight: number; podAffinityTerm: PodAffinityTerm }[] | undefined) =>
    (terms ?? []).map((t) => ({ ...compileTerm(pod, t.podAffinityTerm), weight: t.weight }));
  return {
    requiredAffinity: (affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) =>
      compileTerm(pod, t),
    ),
    requiredAntiAffinity: (affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) =>
      compileTerm(pod, t),
    ),
    preferredAffinity: weighted(affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution),
    preferredAntiAffinity: weighted(affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution),
  };
}

/** Whether `pod` is one of the pods the term selects: in one of its namespaces and matching its label selector. */
export function termMatches(term: AffinityTerm, pod: Pod, namespaces: NamespaceLabels): boolean {
  const ns = pod.metadata?.namespace ?? 'default';
  if (!term.namespaces.has(ns) && !term.namespaceSelector(namespaces.get(ns) ?? {})) return false;
  return term.selector(pod.metadata?.labels ?? {});
}

/** The node's domain of a topology key as one map key, or undefined when the node lacks the label. */
export function topologyPair(node: Node, key: string): string | undefined {
  const value = node.metadata?.labels?.[key];
  return value === undefined ? undefined : `${key}\u0000${value}`;
}

/** The pods bound to each of the given nodes, with their node. */
export function podsOnNodes(nodes: Node[], placed: Pod[]): { node: Node; pod: Pod }[] {
  const byName = new Map(nodes.map((n) => [n.metadata!.name!, n]));
  return placed.flatMap((pod) => {
    const node = byName.get(pod.spec?.nodeName ?? '');
    return node ? [{ node, pod }] : [];
  });
}
