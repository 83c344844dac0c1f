// Registers the shoot quota controller (Gardener's `shoot-quota`): Shoots when created (every Shoot when the cache
// starts); each reconcile schedules the next check after `syncPeriod`.
import type { Shoot } from '@gardener-ts/api';
import { controllerFor, type Controller, type Manager, type Predicate } from '@gardener-ts/controller-runtime';
import { ShootKind } from '../../kinds.js';
import { ShootQuotaReconciler } from './reconciler.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'shoot-quota';

/** Creation events only. */
export const created: Predicate<Shoot> = (e) => e.type === 'create';

/** Adds the controller to `mgr` on its garden cluster. */
export function addShootQuotaController(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number; syncPeriodMs: number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(ShootKind, { predicates: [created] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new ShootQuotaReconciler({ client: garden.client, syncPeriodMs: deps.syncPeriodMs }));
}
