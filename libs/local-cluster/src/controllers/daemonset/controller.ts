// Wiring of the DaemonSet controller: DaemonSets, their pods and revisions, and nodes (any node change may move
// where daemon pods belong).
import { controllerFor } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { Expectations, observeOwnedObjects } from '../shared/expectations.js';
import { ControllerRevisionKind, DaemonSetKind, NodeKind, PodKind } from '../shared/kinds.js';
import { ownsPods } from '../shared/owned-pods.js';
import { DaemonSetReconciler } from './reconcile.js';

export function addDaemonSetController(ctx: ControllerContext): void {
  const expectations = new Expectations(ctx.now);
  observeOwnedObjects(ctx.cache.informerFor(PodKind), 'DaemonSet', expectations);
  const allDaemonSets = () =>
    ctx.cache
      .informerFor(DaemonSetKind)
      .store.list()
      .map((ds) => ({ namespace: ds.metadata!.namespace!, name: ds.metadata!.name! }));
  const builder = controllerFor(ctx.mgr, 'daemonset')
    .for(DaemonSetKind)
    .owns(ControllerRevisionKind)
    .watches(NodeKind, allDaemonSets);
  ownsPods(builder, ctx.cache, DaemonSetKind, (ds) => ds.spec?.selector)
    .withOptions({ maxConcurrentReconciles: 5, needLeaderElection: false })
    .complete(new DaemonSetReconciler(ctx, expectations, ctx.events('daemonset-controller')));
}
