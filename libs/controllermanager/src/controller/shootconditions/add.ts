// Registers the shoot conditions controller (Gardener's `shoot-conditions`): Shoots when created, and the Shoot of a
// Seed's ManagedSeed (namespace `garden`, named as the Seed) when the Seed appears, goes, or its conditions change.
import { GardenNamespace, type Seed } from '@gardener-ts/api';
import {
  controllerFor,
  type Controller,
  type Manager,
  type Predicate,
  type Request,
} from '@gardener-ts/controller-runtime';
import { isDeepStrictEqual } from 'node:util';
import { ManagedSeedKind, SeedKind, ShootKind, type ManagedSeed } from '../../kinds.js';
import { ShootConditionsReconciler } from './reconciler.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'shoot-conditions';

/** Only creations of Shoots trigger (Gardener's `ForEventTypes(Create)`); Seeds bring the rest. */
export const shootCreated: Predicate<any> = (e) => e.type === 'create';

/**
 * Gardener's SeedPredicate: creations and deletions pass; an update when the Seed's conditions changed, or when it is
 * a resync of the same resourceVersion (to catch up on missed updates).
 */
export const seedConditionsChanged: Predicate<Seed> = (e) => {
  if (e.type !== 'update') return true;
  if (!isDeepStrictEqual(e.oldObject.status?.conditions, e.object.status?.conditions)) return true;
  return e.object.metadata?.resourceVersion === e.oldObject.metadata?.resourceVersion;
};

/**
 * Gardener's MapSeedToShoot: the Shoot of the ManagedSeed `garden/<seed name>` when it registers one (`spec.shoot`)
 * and the Shoot exists; nothing otherwise.
 */
export function mapSeedToShoot(
  managedSeed: (key: string) => ManagedSeed | undefined,
  shootExists: (key: string) => boolean,
): (seed: Seed) => Request[] {
  return (seed) => {
    const ms = managedSeed(`${GardenNamespace}/${seed.metadata?.name}`);
    const shootName = ms?.spec?.shoot?.name;
    if (!ms || !shootName) return [];
    const namespace = ms.metadata?.namespace ?? GardenNamespace;
    return shootExists(`${namespace}/${shootName}`) ? [{ namespace, name: shootName }] : [];
  };
}

/** Adds the controller to `mgr` on its garden cluster. */
export function addShootConditionsController(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  const managedSeeds = garden.cache.informerFor(ManagedSeedKind).store;
  const shoots = garden.cache.informerFor(ShootKind).store;
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(ShootKind, { predicates: [shootCreated] })
    .watches(
      SeedKind,
      mapSeedToShoot(
        (key) => managedSeeds.get(key),
        (key) => shoots.get(key) !== undefined,
      ),
      { predicates: [seedConditionsChanged] },
    )
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new ShootConditionsReconciler({ client: garden.client }));
}
