// Wiring of the pod garbage collector: every pod is its work, and a Node going (or coming) looks again at the pods
// bound to it.
import { controllerFor } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { type Node, NodeKind, PodKind } from '../shared/kinds.js';
import { podsBoundTo } from '../shared/pods.js';
import { PodGCReconciler } from './reconcile.js';

export function addPodGCController(ctx: ControllerContext, options: { quarantineMs?: number } = {}): void {
  controllerFor(ctx.mgr, 'podgc')
    .for(PodKind)
    .watches(NodeKind, (node: Node) => podsBoundTo(ctx.cache, node.metadata!.name!))
    .withOptions({ maxConcurrentReconciles: 2 })
    .complete(new PodGCReconciler(ctx, options.quarantineMs));
}
