// Pod topology spread (kube's PodTopologySpread filter): a pod's topologySpreadConstraints with whenUnsatisfiable
// DoNotSchedule keep the number of matching pods per topology domain (zone, hostname, ...) within maxSkew of the
// least loaded domain. ScheduleAnyway constraints are not scored (least-requested scoring spreads anyway).
import type { Node, Pod } from '../shared/kinds.js';
import { selectorMatcher } from '../shared/selectors.js';
import { matchesNodeSelectorAndAffinity } from './node-affinity.js';

export const SPREAD_MISSING_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)";
export const SPREAD_SKEW = "node(s) didn't match pod topology spread constraints";

/**
 * Per node name: why the pod may not go there under its hard spread constraints (absent: it may). `placed` are the
 * pods bound to nodes (spec.nodeName set), including those just bound that the cache does not show yet.
 */
export function topologySpreadFilter(pod: Pod, nodes: Node[], placed: Pod[]): Map<string, string> {
  const reasons = new Map<string, string>();
  const constraints = (pod.spec?.topologySpreadConstraints ?? []).filter((c) => c.whenUnsatisfiable === 'DoNotSchedule');
  if (constraints.length === 0) return reasons;
  const namespace = pod.metadata?.namespace;
  const podLabels = pod.metadata?.labels ?? {};
  const nodeByName = new Map(nodes.map((n) => [n.metadata!.name!, n]));
  for (const c of constraints) {
    const key = c.topologyKey;
    // matchLabelKeys: the pod's own values of those labels narrow the selector.
    const extra = Object.fromEntries((c.matchLabelKeys ?? []).filter((k) => k in podLabels).map((k) => [k, podLabels[k]]));
    const selector = c.labelSelector ? { ...c.labelSelector, matchLabels: { ...c.labelSelector.matchLabels, ...extra } } : undefined;
    const matches = selectorMatcher(selector);
    // Domains count over the nodes that have the key and (nodeAffinityPolicy Honor, the default) suit the pod.
    const eligible = (node: Node) => node.metadata?.labels?.[key] !== undefined && (c.nodeAffinityPolicy === 'Ignore' || matchesNodeSelectorAndAffinity(pod, node));
    const counts = new Map<string, number>();
    for (const node of nodes) if (eligible(node)) counts.set(node.metadata!.labels![key], 0);
    for (const other of placed) {
      const node = nodeByName.get(other.spec?.nodeName ?? '');
      if (!node || !eligible(node) || other.metadata?.namespace !== namespace || other.metadata?.deletionTimestamp) continue;
      const phase = other.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed' || !matches(other.metadata?.labels ?? {})) continue;
      const domain = node.metadata!.labels![key];
      counts.set(domain, (counts.get(domain) ?? 0) + 1);
    }
    const minDomains = c.minDomains ?? 1;
    const min = counts.size < minDomains ? 0 : Math.min(...counts.values());
    const self = matches(podLabels) ? 1 : 0;
    for (const node of nodes) {
      const name = node.metadata!.name!;
      if (reasons.has(name)) continue;
      const domain = node.metadata?.labels?.[key];
      if (domain === undefined) reasons.set(name, SPREAD_MISSING_LABEL);
      else if ((counts.get(domain) ?? 0) + self - min > c.maxSkew) reasons.set(name, SPREAD_SKEW);
    }
  }
  return reasons;
}
