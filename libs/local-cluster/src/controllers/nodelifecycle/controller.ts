// Wiring of the node lifecycle controller: Nodes, and the node Leases their kubelets renew (a Lease enqueues the
// Node of the same name), and the zone monitor that NoExecute-taints nodes through per-zone rate-limited queues.
import { controllerFor } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { LeaseKind, NodeKind } from '../shared/kinds.js';
import { NODE_LEASE_NAMESPACE } from './health.js';
import { type NodeLifecycleOptions, NodeLifecycleReconciler } from './reconcile.js';
import { ZoneMonitor } from './zone-monitor.js';
import { DEFAULT_ZONE_RATES } from './zone-state.js';
import { ZoneTainter } from './zone-tainter.js';

export function addNodeLifecycleController(
  ctx: ControllerContext,
  options: NodeLifecycleOptions = { gracePeriodMs: 40_000 },
): void {
  const zones = new ZoneTainter({ ...DEFAULT_ZONE_RATES, ...definedOnly(options.zones) }, ctx.now);
  ctx.mgr.add(new ZoneMonitor(ctx, zones, options.evictionPeriodMs ?? 100));
  controllerFor(ctx.mgr, 'nodelifecycle')
    .for(NodeKind)
    .watches(LeaseKind, (lease) =>
      lease.metadata?.namespace === NODE_LEASE_NAMESPACE ? [{ namespace: '', name: lease.metadata.name! }] : [],
    )
    .withOptions({ maxConcurrentReconciles: 5, needLeaderElection: false })
    .complete(new NodeLifecycleReconciler(ctx, ctx.events('node-controller'), options, zones));
}

const definedOnly = <T extends object>(o: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
