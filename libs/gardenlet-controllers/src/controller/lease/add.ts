// Wiring of the seed lease reconciler: the own Seed in the garden, reconciled again every leaseResyncSeconds.
import { controllerFor, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { SeedKind } from '../../seed-kind.js';
import type { HealthManager } from './health.js';
import { LeaseReconciler } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'seed-lease';

export interface LeaseControllerDeps {
  seedName: string;
  gardenCluster: string;
  seedHealthz: () => Promise<void>;
  health: HealthManager;
  leaseResyncSeconds: number;
}

/** Only events of the gardenlet's own Seed. */
export const isOwnSeed = (seedName: string) => (event: { object: { metadata?: { name?: string } } }) =>
  event.object.metadata?.name === seedName;

/** Adds the seed lease controller to the manager. */
export function addLeaseController(mgr: Manager, deps: LeaseControllerDeps): Controller {
  const garden = mgr.cluster(deps.gardenCluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.gardenCluster)
    .for(SeedKind, { predicates: [isOwnSeed(deps.seedName)] })
    .withOptions({ maxConcurrentReconciles: 1 })
    .complete(
      new LeaseReconciler({
        garden: garden.api,
        seedHealthz: deps.seedHealthz,
        health: deps.health,
        leaseResyncSeconds: deps.leaseResyncSeconds,
      }),
    );
}
