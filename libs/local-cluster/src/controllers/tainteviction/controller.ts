// Wiring of the taint eviction controller: every pod is its work, and a Node change looks again at the pods bound
// to that node (their taints may have changed).
import { controllerFor } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { type Node, NodeKind, PodKind } from '../shared/kinds.js';
import { podsBoundTo } from '../shared/pods.js';
import { TaintEvictionReconciler } from './reconcile.js';

export function addTaintEvictionController(ctx: ControllerContext): void {
  controllerFor(ctx.mgr, 'tainteviction')
    .for(PodKind)
    .watches(NodeKind, (node: Node) => podsBoundTo(ctx.cache, node.metadata!.name!))
    .withOptions({ maxConcurrentReconciles: 5, needLeaderElection: false })
    .complete(new TaintEvictionReconciler(ctx, ctx.events('taint-eviction-controller')));
}
