// Node selection by labels and fields: spec.nodeSelector and required node affinity (kube's NodeAffinity filter).
import type * as k8s from '@kubernetes/client-node';
import type { Node, Pod } from '../shared/kinds.js';

type Requirement = k8s.V1NodeSelectorRequirement;

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
  return terms.some((term) => {
    const expressions = term.matchExpressions ?? [];
    const matchFields = term.matchFields ?? [];
    if (expressions.length === 0 && matchFields.length === 0) return false;
    return expressions.every((r) => matchesRequirement(r, labels)) && matchFields.every((r) => r.key in fields && matchesRequirement(r, fields));
  });
}

function matchesRequirement(r: Requirement, values: Record<string, string>): boolean {
  const has = r.key in values;
  const value = values[r.key];
  switch (r.operator) {
    case 'In':
      return has && (r.values ?? []).includes(value);
    case 'NotIn':
      return !has || !(r.values ?? []).includes(value);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || r.values?.length !== 1) return false;
      const [actual, bound] = [toInteger(value), toInteger(r.values[0])];
      if (actual === undefined || bound === undefined) return false;
      return r.operator === 'Gt' ? actual > bound : actual < bound;
    }
    default:
      return false;
  }
}

function toInteger(s: string): number | undefined {
  return /^-?\d+$/.test(s) ? Number(s) : undefined;
}
