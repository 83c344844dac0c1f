// Registers the seed lifecycle controller: every Seed once created, then polled every `syncPeriod` (its own requeue),
// as Gardener does — a Lease that stops being renewed raises no event.
import { controllerFor, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { SeedKind } from '../../kinds.js';
import { SeedLifecycleReconciler } from './reconciler.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'seed-lifecycle';

export interface SeedLifecycleDeps {
  cluster: string;
  concurrentSyncs: number;
  syncPeriodMs: number;
  monitorPeriodMs: number;
  shootMonitorPeriodMs: number;
}

/** Adds the controller to `mgr` on its garden cluster. */
export function addSeedLifecycleController(mgr: Manager, deps: SeedLifecycleDeps): Controller {
  const garden = mgr.cluster(deps.cluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(SeedKind, { predicates: [(e) => e.type === 'create'] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(
      new SeedLifecycleReconciler({
        client: garden.client,
        syncPeriodMs: deps.syncPeriodMs,
        monitorPeriodMs: deps.monitorPeriodMs,
        shootMonitorPeriodMs: deps.shootMonitorPeriodMs,
      }),
    );
}
