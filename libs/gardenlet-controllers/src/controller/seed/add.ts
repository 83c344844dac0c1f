// Wiring of the seed main reconciler: the own Seed in the garden (spec changes, gardener.cloud/operation
// annotations and the start of its deletion), again every syncPeriod.
import {
  annotationChanged,
  controllerFor,
  EventRecorder,
  generationChanged,
  or,
  type Controller,
  type Manager,
  type Predicate,
} from '@gardener-ts/controller-runtime';
import { isOwnSeed } from '../lease/add.js';
import { SeedKind } from '../../seed-kind.js';
import { SeedReconciler, type SeedReconcilerDeps } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'seed';

/** Updates that set `metadata.deletionTimestamp`: the deletion of the Seed started. */
export const deletionStarted: Predicate<any> = (e) =>
  e.type !== 'update' || (!e.oldObject.metadata?.deletionTimestamp && !!e.object.metadata?.deletionTimestamp);

/** Adds the seed main controller. */
export function addSeedController(
  mgr: Manager,
  deps: Omit<SeedReconcilerDeps, 'garden' | 'events'> & { seedName: string; gardenCluster: string },
): Controller {
  const garden = mgr.cluster(deps.gardenCluster);
  const events = new EventRecorder(garden.api, { component: 'gardenlet', log: mgr.log });
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.gardenCluster)
    .for(SeedKind, {
      predicates: [isOwnSeed(deps.seedName), or(generationChanged, annotationChanged, deletionStarted)],
    })
    .withOptions({ maxConcurrentReconciles: 1 })
    .complete(new SeedReconciler({ ...deps, garden: garden.api, events }));
}
