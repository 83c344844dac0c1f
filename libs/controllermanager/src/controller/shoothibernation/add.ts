// Registers the shoot hibernation controller: Shoots when created and when their schedules change; afterwards each
// reconcile schedules itself for the next trigger.
import type { Shoot } from '@gardener-ts/api';
import { controllerFor, type Controller, type Manager, type Predicate } from '@gardener-ts/controller-runtime';
import { ShootKind } from '../../kinds.js';
import { ShootHibernationReconciler } from './reconciler.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'shoot-hibernation';

/** Creation, or a change of the hibernation schedules. */
export const schedulesChanged: Predicate<Shoot> = (e) => {
  if (e.type === 'create') return true;
  if (e.type !== 'update') return false;
  const schedules = (s: Shoot) => JSON.stringify(s.spec.hibernation?.schedules ?? []);
  return schedules(e.object) !== schedules(e.oldObject);
};

/** Adds the controller to `mgr` on its garden cluster. */
export function addShootHibernationController(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number; triggerDeadlineMs: number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(ShootKind, { predicates: [schedulesChanged] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new ShootHibernationReconciler({ client: garden.client, triggerDeadlineMs: deps.triggerDeadlineMs }));
}
