// The status a DaemonSet reports, node by node.
import type { DaemonSet } from '../shared/kinds.js';
import { isPodAvailable, isPodReady } from '../shared/pods.js';
import { DAEMON_REVISION_LABEL, daemonPodOf, type NodePlacement } from './plan.js';

export type DaemonSetStatus = NonNullable<DaemonSet['status']>;

export function daemonSetStatus(
  ds: DaemonSet,
  nodes: NodePlacement[],
  updateHash: string,
  now: number,
): DaemonSetStatus {
  const wanted = nodes.filter((n) => n.shouldRun).map((n) => daemonPodOf(n.pods));
  const scheduled = wanted.filter((p) => p !== undefined);
  const available = scheduled.filter((p) => isPodAvailable(p, ds.spec?.minReadySeconds ?? 0, now)).length;
  return {
    observedGeneration: ds.metadata?.generation,
    desiredNumberScheduled: wanted.length,
    currentNumberScheduled: scheduled.length,
    numberMisscheduled: nodes.filter((n) => !n.shouldRun && daemonPodOf(n.pods)).length,
    numberReady: scheduled.filter(isPodReady).length,
    numberAvailable: available,
    numberUnavailable: wanted.length - available,
    updatedNumberScheduled: scheduled.filter((p) => p.metadata?.labels?.[DAEMON_REVISION_LABEL] === updateHash).length,
    ...(ds.status?.collisionCount !== undefined ? { collisionCount: ds.status.collisionCount } : {}),
  };
}
