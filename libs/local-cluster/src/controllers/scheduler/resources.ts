// What a pod asks of a node (kube's effective requests) and what a node has left.
import type { Node, Pod } from '../shared/kinds.js';
import { milliValue } from '../shared/quantity.js';

/** Resource name → amount in milli-units. */
export type Resources = Map<string, number>;

/**
 * The pod's effective requests: the sum over its containers, at least the largest init container (init containers
 * run one at a time), plus the pod overhead.
 */
export function podRequests(pod: Pod): Resources {
  const total: Resources = new Map();
  for (const c of pod.spec?.containers ?? []) add(total, c.resources?.requests);
  for (const c of pod.spec?.initContainers ?? []) {
    const init: Resources = new Map();
    add(init, c.resources?.requests);
    for (const [name, v] of init) if (v > (total.get(name) ?? 0)) total.set(name, v);
  }
  add(total, pod.spec?.overhead);
  return total;
}

export function allocatable(node: Node): Resources {
  const r: Resources = new Map();
  add(r, node.status?.allocatable);
  return r;
}

const DEFAULT_MILLI_CPU = 100;
const DEFAULT_MEMORY_MILLI = 200 * 2 ** 20 * 1000;

/**
 * Requests for scoring: cpu and memory, with kube's non-zero defaults for a pod that requests none, or best-effort
 * pods would all pile onto one node.
 */
export function nonZeroRequests(pod: Pod): Resources {
  const requests = podRequests(pod);
  const containers = Math.max(1, pod.spec?.containers?.length ?? 0);
  return new Map([
    ['cpu', requests.get('cpu') || DEFAULT_MILLI_CPU * containers],
    ['memory', requests.get('memory') || DEFAULT_MEMORY_MILLI * containers],
  ]);
}

/** What the pods bound to a node request (as declared, and with non-zero defaults for scoring), and how many there are. */
export interface NodeUsage {
  requested: Resources;
  nonZeroRequested: Resources;
  pods: number;
}

export function emptyUsage(): NodeUsage {
  return { requested: new Map(), nonZeroRequested: new Map(), pods: 0 };
}

export function addPod(usage: NodeUsage, pod: Pod): void {
  usage.pods++;
  sum(usage.requested, podRequests(pod));
  sum(usage.nonZeroRequested, nonZeroRequests(pod));
}

function sum(into: Resources, more: Resources): void {
  for (const [name, v] of more) into.set(name, (into.get(name) ?? 0) + v);
}

function add(into: Resources, list: Record<string, string> | undefined): void {
  for (const [name, q] of Object.entries(list ?? {})) into.set(name, (into.get(name) ?? 0) + milliValue(q));
}
