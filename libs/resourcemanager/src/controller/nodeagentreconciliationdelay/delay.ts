// The reconciliation delays of the gardener-node-agents (Gardener's node/agentreconciliationdelay controller): the
// Nodes sorted by name, node i of n gets minDelay + i·(maxDelay − minDelay)/n, so the node-agents do not all restart
// kubelet or other critical units at the same time.

/** The annotation on each Node the gardener-node-agent reads its delay from (Go duration format). */
export const AnnotationNodeAgentReconciliationDelay = 'node-agent.gardener.cloud/reconciliation-delay';

/**
 * A duration in nanoseconds in Go's `time.Duration.String()` format: `0s`, `1.5s`, `2m30s`, `1h0m0s`, and below one
 * second `ms`/`µs`/`ns` units (`500ms`, `1.2µs`).
 */
export function formatGoDuration(nanoseconds: number): string {
  let ns = Math.trunc(nanoseconds);
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  ns = Math.abs(ns);
  const fraction = (value: number, digits: number) => {
    const whole = Math.floor(value / 10 ** digits);
    const frac = String(value % 10 ** digits)
      .padStart(digits, '0')
      .replace(/0+$/, '');
    return frac ? `${whole}.${frac}` : String(whole);
  };
  if (ns < 1e9) {
    if (ns < 1e3) return `${sign}${ns}ns`;
    if (ns < 1e6) return `${sign}${fraction(ns, 3)}µs`;
    return `${sign}${fraction(ns, 6)}ms`;
  }
  const hours = Math.floor(ns / 3600e9);
  const minutes = Math.floor((ns % 3600e9) / 60e9);
  const seconds = fraction(ns % 60e9, 9);
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

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
    out.set(name, formatGoDuration(delaySeconds * 1e9));
  });
  return out;
}
