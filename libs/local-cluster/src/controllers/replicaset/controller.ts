// Wiring of the ReplicaSet controller: ReplicaSets, the pods they own, and orphan pods they may adopt.
import { controllerFor } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { Expectations, observeOwnedObjects } from '../shared/expectations.js';
import { PodKind, ReplicaSetKind } from '../shared/kinds.js';
import { ownsPods } from '../shared/owned-pods.js';
import { ReplicaSetReconciler } from './reconcile.js';

export function addReplicaSetController(ctx: ControllerContext): void {
  const expectations = new Expectations(ctx.now);
  observeOwnedObjects(ctx.cache.informerFor(PodKind), 'ReplicaSet', expectations);
  const reconciler = new ReplicaSetReconciler(ctx, expectations, ctx.events('replicaset-controller'));
  const builder = controllerFor(ctx.mgr, 'replicaset').for(ReplicaSetKind);
  ownsPods(builder, ctx.cache, ReplicaSetKind, (rs) => rs.spec?.selector)
    .withOptions({ maxConcurrentReconciles: 5, needLeaderElection: false })
    .complete(reconciler);
}
