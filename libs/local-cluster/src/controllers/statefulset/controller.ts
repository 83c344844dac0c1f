// Wiring of the StatefulSet controller: StatefulSets, their pods (owned or orphans to adopt) and revisions.
import { controllerFor } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { ControllerRevisionKind, StatefulSetKind } from '../shared/kinds.js';
import { ownsPods } from '../shared/owned-pods.js';
import { StatefulSetReconciler } from './reconcile.js';

export function addStatefulSetController(ctx: ControllerContext): void {
  const builder = controllerFor(ctx.mgr, 'statefulset').for(StatefulSetKind).owns(ControllerRevisionKind);
  ownsPods(builder, ctx.cache, StatefulSetKind, (sts) => sts.spec?.selector)
    .withOptions({ maxConcurrentReconciles: 5, needLeaderElection: false })
    .complete(new StatefulSetReconciler(ctx, ctx.events('statefulset-controller')));
}
