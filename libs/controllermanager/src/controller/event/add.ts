// Registers the event controller (only when `controllers.event` is configured, as in Gardener): every Event created.
import { controllerFor, Kinds, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { EventReconciler } from './reconciler.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'event';

/** Adds the controller to `mgr` on its garden cluster. */
export function addEventController(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number; ttlMs: number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(Kinds.Event, { predicates: [(e) => e.type === 'create'] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new EventReconciler(garden.client, deps.ttlMs));
}
