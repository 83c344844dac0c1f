// NodeResourcesFit (LeastAllocated) and NodeResourcesBalancedAllocation scoring on cpu and memory, weight 1 each.
import type { Node, Pod } from '../../shared/kinds.js';
import { allocatable, type NodeUsage, nonZeroRequests, podRequests } from '../resources.js';
import { MAX_NODE_SCORE } from './normalize.js';
import type { ScorePlugin } from './types.js';

const RESOURCES = ['cpu', 'memory'];

/**
 * 0..100: the mean over cpu and memory of the share left free once the pod is placed, counting requests with kube's
 * non-zero defaults (100m cpu, 200Mi memory per container that asks none); a resource over capacity scores 0.
 */
export function leastAllocated(pod: Pod, node: Node, usage: NodeUsage): number {
  const alloc = allocatable(node);
  const wanted = nonZeroRequests(pod);
  let sum = 0;
  for (const name of RESOURCES) {
    const capacity = alloc.get(name) ?? 0;
    const requested = (usage.nonZeroRequested.get(name) ?? 0) + (wanted.get(name) ?? 0);
    if (capacity > 0 && requested <= capacity) sum += integerShare(capacity - requested, capacity);
  }
  return Math.trunc(sum / RESOURCES.length);
}

/**
 * 0..100: how evenly cpu and memory would be used once the pod is placed (100 minus 100 times the standard deviation
 * of the two requested fractions, each capped at 1; a resource the node lacks is left out), on declared requests. Undefined for a pod requesting neither:
 * kube skips the plugin for best-effort pods.
 */
export function balancedAllocation(pod: Pod, node: Node, usage: NodeUsage): number | undefined {
  const wanted = podRequests(pod);
  if (RESOURCES.every((r) => !wanted.get(r))) return undefined;
  const alloc = allocatable(node);
  const fractions: number[] = [];
  for (const name of RESOURCES) {
    const capacity = alloc.get(name) ?? 0;
    if (capacity <= 0) continue;
    fractions.push(Math.min(1, ((usage.requested.get(name) ?? 0) + (wanted.get(name) ?? 0)) / capacity));
  }
  const std = fractions.length === 2 ? Math.abs((fractions[0] - fractions[1]) / 2) : 0;
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

/** floor(part * 100 / whole) in integers, as kube computes it (exact even for memory in milli-bytes). */
function integerShare(part: number, whole: number): number {
  return Number((BigInt(Math.round(part)) * BigInt(MAX_NODE_SCORE)) / BigInt(Math.round(whole)));
}

export const leastAllocatedScore: ScorePlugin = ({ pod, feasible }) =>
  feasible.map((c) => leastAllocated(pod, c.node, c.usage));
export const balancedAllocationScore: ScorePlugin = ({ pod, feasible }) =>
  feasible.map((c) => balancedAllocation(pod, c.node, c.usage) ?? 0);
