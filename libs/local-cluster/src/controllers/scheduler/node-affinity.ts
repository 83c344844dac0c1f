// Node selection by labels and fields: spec.nodeSelector and required node affinity (kube's NodeAffinity filter).
import { nodeSelectorTermMatches } from '@gardener-ts/api';
import type * as k8s from '@kubernetes/client-node';
import type { Node, Pod } from '../shared/kinds.js';

/** True when the node matches the pod's nodeSelector and every required node affinity term set. */
export function matchesNodeSelectorAndAffinity(pod: Pod, node: Node): boolean {
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  return !required || matchesNodeSelectorTerms(required.nodeSelectorTerms, node);
}

/** Terms are ORed; the requirements of a term are ANDed; a term without requirements matches no node. */
export function matchesNodeSelectorTerms(terms: k8s.V1NodeSelectorTerm[], node: Node): boolean {
  const labels = node.metadata?.labels ?? {};
  const fields: Record<string, string> = { 'metadata.name': node.metadata?.name ?? '' };
  return terms.some((term) => nodeSelectorTermMatches(term, labels, fields));
}
