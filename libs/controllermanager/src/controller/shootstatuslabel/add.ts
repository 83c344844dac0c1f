// Registers the shoot status label controller: every Shoot event whose label may now be wrong.
import { Labels, type Shoot } from '@gardener-ts/api';
import { controllerFor, type Controller, type Manager, type Predicate } from '@gardener-ts/controller-runtime';
import { ShootKind } from '../../kinds.js';
import { ShootStatusLabelReconciler } from './reconciler.js';
import { computeShootStatus } from './status.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'shoot-status-label';

/** Shoots whose label differs from what their status says (deletions have no label to fix). */
export const labelOutdated: Predicate<Shoot> = (e) => {
  if (e.type === 'delete') return false;
  const s = e.object;
  const want = computeShootStatus({
    lastOperation: s.status?.lastOperation,
    lastErrors: s.status?.lastErrors,
    conditions: s.status?.conditions,
  });
  return s.metadata?.labels?.[Labels.ShootStatus] !== want;
};

/** Adds the controller to `mgr` on its garden cluster. */
export function addShootStatusLabelController(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(ShootKind, { predicates: [labelOutdated] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new ShootStatusLabelReconciler(garden.client));
}
