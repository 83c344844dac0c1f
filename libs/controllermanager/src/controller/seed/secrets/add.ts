// Registers the seed secrets controller (Gardener's `seed-secrets`, pkg/controllermanager/controller/seed/secrets):
// Seeds when they are created (every existing one when the cache starts), and every Seed again when a synced garden
// Secret (namespace `garden`, a `gardener.cloud/role` that is not a control plane role) is created, deleted or changed.
// Like Gardener, 5 workers and no configuration block.
import { isDeepStrictEqual } from 'node:util';
import {
  controllerFor,
  Kinds,
  type Controller,
  type Manager,
  type Predicate,
  type Request,
  type Secret,
} from '@gardener-ts/controller-runtime';
import { SeedKind } from '../../../kinds.js';
import { SeedSecretsReconciler } from './reconciler.js';
import { isSyncedRole } from './sync.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'seed-secrets';

/** Gardener's worker count for this controller (it has no configuration). */
export const ConcurrentSyncs = 5;

/** Gardener's GardenSecretPredicate: Secrets of the garden namespace that the sync copies. */
export const gardenSecretPredicate =
  (gardenNamespace: string): Predicate<Secret> =>
  (e) =>
    e.object.metadata?.namespace === gardenNamespace && isSyncedRole(e.object.metadata?.labels);

/** Gardener's SecretPredicate: every event, but an update only when the Secret changed. */
export const secretChanged: Predicate<Secret> = (e) => e.type !== 'update' || !isDeepStrictEqual(e.oldObject, e.object);

/** Only creations of Seeds trigger (Gardener's `ForEventTypes(Create)`). */
export const seedCreated: Predicate<any> = (e) => e.type === 'create';

export interface SeedSecretsDeps {
  cluster: string;
  gardenNamespace: string;
}

/** Adds the controller to `mgr` on its garden cluster. */
export function addSeedSecretsController(mgr: Manager, deps: SeedSecretsDeps): Controller {
  const garden = mgr.cluster(deps.cluster);
  const seeds = garden.cache.informerFor(SeedKind);
  const allSeeds = (): Request[] => seeds.store.list().map((s) => ({ namespace: '', name: s.metadata!.name! }));
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(SeedKind, { predicates: [seedCreated] })
    .watches(Kinds.Secret, allSeeds, { predicates: [gardenSecretPredicate(deps.gardenNamespace), secretChanged] })
    .withOptions({ maxConcurrentReconciles: ConcurrentSyncs })
    .complete(
      new SeedSecretsReconciler({ client: garden.client, api: garden.api, gardenNamespace: deps.gardenNamespace }),
    );
}
