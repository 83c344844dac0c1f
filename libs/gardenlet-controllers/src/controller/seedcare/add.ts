// Wiring of the seed care reconciler: the own Seed, again every seedCare.syncPeriod.
import { controllerFor, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { isOwnSeed } from '../lease/add.js';
import { SeedKind } from '../../seed-kind.js';
import { SeedCareReconciler, type SeedCareReconcilerDeps } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'seed-care';

/** Adds the seed care controller. */
export function addSeedCareController(
  mgr: Manager,
  deps: Omit<SeedCareReconcilerDeps, 'garden' | 'seed'> & {
    seedName: string;
    gardenCluster: string;
    seedCluster: string;
  },
): Controller {
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.gardenCluster)
    .for(SeedKind, { predicates: [isOwnSeed(deps.seedName), (e) => e.type !== 'update'] })
    .withOptions({ maxConcurrentReconciles: 1 })
    .complete(
      new SeedCareReconciler({
        ...deps,
        garden: mgr.cluster(deps.gardenCluster).api,
        seed: mgr.cluster(deps.seedCluster).api,
      }),
    );
}
