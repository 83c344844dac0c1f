// Registers the shoot maintenance controller: Shoots when created, when `gardener.cloud/operation=maintain` is added
// and when their time window changes; otherwise each reconcile schedules the next one inside the next window. Its
// events are recorded as `gardener-controller-manager`.
import type { Shoot } from '@gardener-ts/api';
import {
  controllerFor,
  EventRecorder,
  type Controller,
  type Manager,
  type Predicate,
} from '@gardener-ts/controller-runtime';
import { ShootKind } from '../../kinds.js';
import { hasMaintainNowAnnotation } from './maintain.js';
import { ShootMaintenanceReconciler } from './reconciler.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'shoot-maintenance';

/** Creation, a new `maintain` request, or a moved time window. */
export const maintenancePredicate: Predicate<Shoot> = (e) => {
  if (e.type === 'create') return true;
  if (e.type !== 'update') return false;
  const window = (s: Shoot) => JSON.stringify(s.spec.maintenance?.timeWindow ?? null);
  return (
    (hasMaintainNowAnnotation(e.object) && !hasMaintainNowAnnotation(e.oldObject)) ||
    window(e.object) !== window(e.oldObject)
  );
};

export interface ShootMaintenanceDeps {
  cluster: string;
  concurrentSyncs: number;
  enableShootControlPlaneRestarter?: boolean;
  enableShootCoreAddonRestarter?: boolean;
}

/** Adds the controller to `mgr` on its garden cluster. */
export function addShootMaintenanceController(mgr: Manager, deps: ShootMaintenanceDeps): Controller {
  const garden = mgr.cluster(deps.cluster);
  const events = new EventRecorder(garden.api, { component: 'gardener-controller-manager', log: mgr.log });
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(ShootKind, { predicates: [maintenancePredicate] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(
      new ShootMaintenanceReconciler({
        client: garden.client,
        enableShootControlPlaneRestarter: deps.enableShootControlPlaneRestarter,
        enableShootCoreAddonRestarter: deps.enableShootCoreAddonRestarter,
        events,
      }),
    );
}
