// Registers the shoot retry controller (Gardener's `shoot-retry`): Shoots when created and when they have just failed
// due to exceeded rate limits; the reconciler schedules itself until the retry is due.
import type { Shoot } from '@gardener-ts/api';
import { controllerFor, type Controller, type Manager, type Predicate } from '@gardener-ts/controller-runtime';
import { ShootKind } from '../../kinds.js';
import { ShootRetryReconciler } from './reconciler.js';
import { failedDueToRateLimits, isShootFailed } from './retry.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'shoot-retry';

/** Creation, or an update by which the Shoot turned failed due to rate limits (it was not failed before). */
export const justFailedDueToRateLimits: Predicate<Shoot> = (e) => {
  if (e.type === 'create') return true;
  if (e.type !== 'update') return false;
  return failedDueToRateLimits(e.object) && !isShootFailed(e.oldObject);
};

/** Adds the controller to `mgr` on its garden cluster. */
export function addShootRetryController(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number; retryPeriodMs: number; retryJitterPeriodMs: number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(ShootKind, { predicates: [justFailedDueToRateLimits] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(
      new ShootRetryReconciler({
        client: garden.client,
        retryPeriodMs: deps.retryPeriodMs,
        retryJitterPeriodMs: deps.retryJitterPeriodMs,
      }),
    );
}
