// Registers the seed reference controller (Gardener's `seed-reference`): reference protection for the Secrets and
// ConfigMaps of the garden namespace named in a Seed's `spec.resources`.
import type { Seed } from '@gardener-ts/api';
import type { Controller, Manager } from '@gardener-ts/controller-runtime';
import { SeedKind } from '../../kinds.js';
import { addReferenceController } from '../reference/add.js';
import type { ReferencingKind } from '../reference/reconciler.js';
import { resourceNames, resourcesEqual } from '../shootreference/references.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'seed-reference';

/** Seeds reference Secrets and ConfigMaps of the garden namespace in `spec.resources`. */
export function seedReferences(gardenNamespace: string): ReferencingKind<Seed> {
  return {
    kind: SeedKind,
    namespaceOf: () => gardenNamespace,
    secretNames: (seed) => resourceNames(seed.spec.resources, 'Secret'),
    configMapNames: (seed) => resourceNames(seed.spec.resources, 'ConfigMap'),
  };
}

/** Whether the Seed's `spec.resources` changed. */
export const seedReferencesChanged = (oldSeed: Seed, newSeed: Seed): boolean =>
  !resourcesEqual(oldSeed.spec.resources, newSeed.spec.resources);

/** Adds the controller to `mgr` on its garden cluster. */
export function addSeedReferenceController(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number; gardenNamespace: string },
): Controller {
  return addReferenceController(mgr, ControllerName, seedReferences(deps.gardenNamespace), seedReferencesChanged, deps);
}
