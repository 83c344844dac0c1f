// The reconciliation delays of the gardener-node-agents (Gardener's node/agentreconciliationdelay controller): the
// Nodes sorted by name, node i of n gets minDelay + i·(maxDelay − minDelay)/n, so the node-agents do not all restart
// kubelet or other critical units at the same time.
import { formatGoDuration } from '@gardener-ts/api';

/** The annotation on each Node the gardener-node-agent reads its delay from (Go duration format). */
export const AnnotationNodeAgentReconciliationDelay = 'node-agent.gardener.cloud/reconciliation-delay';

/**
 * The delay of every node, by node name: the names sorted, node i of n gets `minDelay + i·(maxDelay − minDelay)/n`
 * seconds (as Gardener computes it, in floating point, truncated to whole nanoseconds), formatted like Go.
 */
export function reconciliationDelays(
  nodeNames: readonly string[],
  minDelayMs: number,
  maxDelayMs: number,
): Map<string, string> {
  const sorted = [...new Set(nodeNames)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const minSeconds = minDelayMs / 1000;
  const rangeSize = (maxDelayMs / 1000 - minSeconds) / sorted.length;
  const out = new Map<string, string>();
  sorted.forEach((name, index) => {
    const delaySeconds = minSeconds + index * rangeSize;
    out.set(name, formatGoDuration(BigInt(Math.trunc(delaySeconds * 1e9))));
  });
  return out;
}
