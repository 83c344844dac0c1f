// Wiring of the seed main reconciler: the own Seed in the garden (spec changes and gardener.cloud/operation
// annotations), again every syncPeriod.
import {
  annotationChanged,
  controllerFor,
  generationChanged,
  or,
  type Controller,
  type Manager,
} from '@gardener-ts/controller-runtime';
import { isOwnSeed } from '../lease/add.js';
import { SeedKind } from '../../seed-kind.js';
import { SeedReconciler, type SeedReconcilerDeps } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'seed';

/** Adds the seed main controller. */
export function addSeedController(
  mgr: Manager,
  deps: Omit<SeedReconcilerDeps, 'garden'> & { seedName: string; gardenCluster: string },
): Controller {
  const garden = mgr.cluster(deps.gardenCluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.gardenCluster)
    .for(SeedKind, { predicates: [isOwnSeed(deps.seedName), or(generationChanged, annotationChanged)] })
    .withOptions({ maxConcurrentReconciles: 1 })
    .complete(new SeedReconciler({ ...deps, garden: garden.api }));
}
