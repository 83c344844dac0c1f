// PodTopologySpread scoring of whenUnsatisfiable ScheduleAnyway constraints: nodes in domains with fewer matching
// pods score higher. Domains are those of the feasible nodes; pods count from every node the constraint includes.
import type { Node } from '../../shared/kinds.js';
import { countsFor, type SpreadConstraint, spreadConstraints } from '../topology-spread.js';
import { MAX_NODE_SCORE } from './normalize.js';
import type { ScoreInput } from './types.js';

const HOSTNAME = 'kubernetes.io/hostname';

/** A domain's weight grows with the number of domains, so spreading over many domains counts for more. */
const domainWeight = (domains: number) => Math.log(domains + 2);

export function topologySpreadScore({ pod, feasible, nodes, placed }: ScoreInput): number[] {
  const constraints = spreadConstraints(pod, 'ScheduleAnyway');
  if (constraints.length === 0) return feasible.map(() => 0);
  const namespace = pod.metadata?.namespace;
  const hasAllKeys = (node: Node) => constraints.every((c) => node.metadata?.labels?.[c.topologyKey] !== undefined);
  const scored = feasible.filter((c) => hasAllKeys(c.node));
  const counted = (c: SpreadConstraint, nodeName: string) =>
    placed.filter((p) => p.spec?.nodeName === nodeName && countsFor(c, namespace, p)).length;

  // Per constraint: matching pods per domain of the scored nodes, and the weight from the number of those domains.
  const perConstraint = constraints.map((c) => {
    const domains = new Map<string, number>();
    if (c.topologyKey !== HOSTNAME) {
      for (const { node } of scored) domains.set(node.metadata!.labels![c.topologyKey], 0);
      for (const node of nodes) {
        const domain = node.metadata?.labels?.[c.topologyKey];
        if (domain === undefined || !domains.has(domain) || !hasAllKeys(node) || !c.includesNode(node)) continue;
        domains.set(domain, domains.get(domain)! + counted(c, node.metadata!.name!));
      }
    }
    return { c, domains, weight: domainWeight(c.topologyKey === HOSTNAME ? scored.length : domains.size) };
  });

  const raw = new Map<Node, number>();
  for (const { node } of scored) {
    let score = 0;
    for (const { c, domains, weight } of perConstraint) {
      const count =
        c.topologyKey === HOSTNAME
          ? counted(c, node.metadata!.name!)
          : domains.get(node.metadata!.labels![c.topologyKey])!;
      score += count * weight + (c.maxSkew - 1);
    }
    raw.set(node, Math.round(score));
  }
  // Fewer pods is better: reversed onto 0..100 between the lowest and highest; nodes lacking a key score 0.
  const values = [...raw.values()];
  const min = Math.min(...values);
  const max = Math.max(0, ...values);
  return feasible.map(({ node }) => {
    const s = raw.get(node);
    if (s === undefined) return 0;
    return max === 0 ? MAX_NODE_SCORE : Math.trunc((MAX_NODE_SCORE * (max + min - s)) / max);
  });
}
