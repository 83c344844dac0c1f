// Builders for the scheduler's unit tests: nodes, pods and their usage, as the scheduler sees them.
import type { Node, Pod, Taint } from '../shared/kinds.js';
import { addPod, emptyUsage, type NodeUsage } from './resources.js';
import type { ScoreInput } from './scores/types.js';

export interface NodeOptions {
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
  ready?: string;
  cpu?: string;
  memory?: string;
  pods?: string;
}

export function node(name: string, o: NodeOptions = {}): Node {
  return {
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...o.labels } },
    spec: { taints: o.taints, unschedulable: o.unschedulable },
    status: {
      allocatable: { cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi', pods: o.pods ?? '110' },
      conditions: [{ type: 'Ready', status: o.ready ?? 'True' }],
    },
  };
}

export function pod(spec: Partial<NonNullable<Pod['spec']>> = {}, cpu?: string): Pod {
  return {
    metadata: { name: 'p', namespace: 'default' },
    spec: { containers: [{ name: 'c', image: 'i', resources: cpu ? { requests: { cpu } } : {} }], ...spec },
  };
}

/** A pod with name, labels and namespace, optionally bound to a node. */
export function labelled(
  name: string,
  labels: Record<string, string>,
  spec: Partial<NonNullable<Pod['spec']>> = {},
  namespace = 'default',
): Pod {
  return { ...pod(spec), metadata: { name, namespace, labels } };
}

/** Usage per node of the given bound pods. */
export function usageOf(placed: Pod[]): Map<string, NodeUsage> {
  const usage = new Map<string, NodeUsage>();
  for (const p of placed) {
    const name = p.spec!.nodeName!;
    if (!usage.has(name)) usage.set(name, emptyUsage());
    addPod(usage.get(name)!, p);
  }
  return usage;
}

type PodAffinityTerm = {
  topologyKey: string;
  labelSelector?: object;
  namespaces?: string[];
  namespaceSelector?: object;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
};

/** An affinity block: required/preferred pod affinity and anti-affinity terms. */
export function podAffinity(o: {
  required?: PodAffinityTerm[];
  preferred?: [number, PodAffinityTerm][];
  antiRequired?: PodAffinityTerm[];
  antiPreferred?: [number, PodAffinityTerm][];
}): Partial<NonNullable<Pod['spec']>> {
  const weighted = (ts?: [number, PodAffinityTerm][]) =>
    ts?.map(([weight, podAffinityTerm]) => ({ weight, podAffinityTerm }));
  return {
    affinity: {
      podAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: o.required,
        preferredDuringSchedulingIgnoredDuringExecution: weighted(o.preferred),
      },
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: o.antiRequired,
        preferredDuringSchedulingIgnoredDuringExecution: weighted(o.antiPreferred),
      },
    },
  } as Partial<NonNullable<Pod['spec']>>;
}

/** A term selecting `app=<app>` in the topology key. */
export const appTerm = (app: string, topologyKey: string, extra: Partial<PodAffinityTerm> = {}): PodAffinityTerm => ({
  topologyKey,
  labelSelector: { matchLabels: { app } },
  ...extra,
});

export const HOSTNAME = 'kubernetes.io/hostname';
export const ZONE = 'topology.kubernetes.io/zone';

/** The node name a decision chose, or the unschedulable message. */
export const outcome = (d: { node: Node } | { unschedulable: string }) =>
  'node' in d ? d.node.metadata!.name! : d.unschedulable;

/** Every node feasible, with the usage of the bound pods. */
export function scoreInput(
  p: Pod,
  nodes: Node[],
  placed: Pod[] = [],
  namespaces = new Map<string, Record<string, string>>(),
): ScoreInput {
  const usage = usageOf(placed);
  return {
    pod: p,
    nodes,
    placed,
    namespaces,
    feasible: nodes.map((n) => ({ node: n, usage: usage.get(n.metadata!.name!) ?? emptyUsage() })),
  };
}

/** A copy of the pod bound to the node. */
export const boundTo = (nodeName: string, p: Pod): Pod => ({ ...p, spec: { ...p.spec!, nodeName } });
