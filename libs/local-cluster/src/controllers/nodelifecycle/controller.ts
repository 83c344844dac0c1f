// Wiring of the node lifecycle controller: Nodes, and the node Leases their kubelets renew (a Lease enqueues the
// Node of the same name).
import { controllerFor } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { LeaseKind, NodeKind } from '../shared/kinds.js';
import { NODE_LEASE_NAMESPACE } from './health.js';
import { type NodeLifecycleOptions, NodeLifecycleReconciler } from './reconcile.js';

export function addNodeLifecycleController(ctx: ControllerContext, options: NodeLifecycleOptions = { gracePeriodMs: 40_000 }): void {
  controllerFor(ctx.mgr, 'nodelifecycle')
    .for(NodeKind)
    .watches(LeaseKind, (lease) => (lease.metadata?.namespace === NODE_LEASE_NAMESPACE ? [{ namespace: '', name: lease.metadata.name! }] : []))
    .withOptions({ maxConcurrentReconciles: 5, needLeaderElection: false })
    .complete(new NodeLifecycleReconciler(ctx, ctx.events('node-controller'), options));
}
