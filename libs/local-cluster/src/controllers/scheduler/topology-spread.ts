// Pod topology spread (kube's PodTopologySpread filter): a pod's topologySpreadConstraints with whenUnsatisfiable
// DoNotSchedule keep the number of matching pods per topology domain (zone, hostname, ...) within maxSkew of the
// least loaded domain. ScheduleAnyway constraints are scored (scores/topology-spread.ts).
import type { LabelMatcher } from '@gardener-ts/controller-runtime';
import type { Node, Pod } from '../shared/kinds.js';
import { selectorMatcher } from '../shared/selectors.js';
import { matchesNodeSelectorAndAffinity } from './node-affinity.js';
import { toleratesAll } from './taints.js';

export const SPREAD_MISSING_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)";
export const SPREAD_SKEW = "node(s) didn't match pod topology spread constraints";

type Constraint = NonNullable<NonNullable<Pod['spec']>['topologySpreadConstraints']>[number];

export interface SpreadConstraint {
  topologyKey: string;
  maxSkew: number;
  minDomains: number;
  /** Over a pod's labels: the labelSelector narrowed by matchLabelKeys (`key In (the pod's value)`). */
  matches: LabelMatcher;
  /** Whether the node's domain counts: nodeAffinityPolicy (default Honor) and nodeTaintsPolicy (default Ignore). */
  includesNode(node: Node): boolean;
}

/** The pod's constraints with the given whenUnsatisfiable, compiled. */
export function spreadConstraints(pod: Pod, whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway'): SpreadConstraint[] {
  const podLabels = pod.metadata?.labels ?? {};
  return (pod.spec?.topologySpreadConstraints ?? [])
    .filter((c) => c.whenUnsatisfiable === whenUnsatisfiable)
    .map((c: Constraint) => {
      const extra = Object.fromEntries(
        (c.matchLabelKeys ?? []).filter((k) => k in podLabels).map((k) => [k, podLabels[k]]),
      );
      const selector = c.labelSelector
        ? { ...c.labelSelector, matchLabels: { ...c.labelSelector.matchLabels, ...extra } }
        : undefined;
      return {
        topologyKey: c.topologyKey,
        maxSkew: c.maxSkew,
        minDomains: c.minDomains ?? 1,
        matches: selectorMatcher(selector),
        includesNode: (node: Node) =>
          (c.nodeAffinityPolicy === 'Ignore' || matchesNodeSelectorAndAffinity(pod, node)) &&
          (c.nodeTaintsPolicy !== 'Honor' ||
            (node.spec?.taints ?? []).every(
              (t) => (t.effect !== 'NoSchedule' && t.effect !== 'NoExecute') || toleratesAll(pod.spec?.tolerations, t),
            )),
      };
    });
}

/** Whether a bound pod counts for a constraint of a pod in `namespace`: same namespace, not terminating or finished, matching. */
export function countsFor(c: SpreadConstraint, namespace: string | undefined, other: Pod): boolean {
  const phase = other.status?.phase;
  if (
    other.metadata?.namespace !== namespace ||
    other.metadata?.deletionTimestamp ||
    phase === 'Succeeded' ||
    phase === 'Failed'
  )
    return false;
  return c.matches(other.metadata?.labels ?? {});
}

/**
 * Per node name: why the pod may not go there under its hard spread constraints (absent: it may). `placed` are the
 * pods bound to nodes (spec.nodeName set), including those just bound that the cache does not show yet.
 */
export function topologySpreadFilter(pod: Pod, nodes: Node[], placed: Pod[]): Map<string, string> {
  const reasons = new Map<string, string>();
  const constraints = spreadConstraints(pod, 'DoNotSchedule');
  if (constraints.length === 0) return reasons;
  const namespace = pod.metadata?.namespace;
  const nodeByName = new Map(nodes.map((n) => [n.metadata!.name!, n]));
  for (const c of constraints) {
    const key = c.topologyKey;
    // Domains count over the nodes that have the key and that the inclusion policies admit.
    const eligible = (node: Node) => node.metadata?.labels?.[key] !== undefined && c.includesNode(node);
    const counts = new Map<string, number>();
    for (const node of nodes) if (eligible(node)) counts.set(node.metadata!.labels![key], 0);
    for (const other of placed) {
      const node = nodeByName.get(other.spec?.nodeName ?? '');
      if (!node || !eligible(node) || !countsFor(c, namespace, other)) continue;
      const domain = node.metadata!.labels![key];
      counts.set(domain, (counts.get(domain) ?? 0) + 1);
    }
    const min = counts.size < c.minDomains ? 0 : Math.min(...counts.values());
    const self = c.matches(pod.metadata?.labels ?? {}) ? 1 : 0;
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
