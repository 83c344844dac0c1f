// Wiring of the ControllerInstallation "required" reconciler: this seed's installations, and every extension
// resource kind in the seed (a change of any enqueues the seed's installations; there are few).
import { controllerFor, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { forSeed } from '../controllerinstallation/add.js';
import { ControllerInstallationKind } from '../controllerinstallation/kinds.js';
import { ControllerInstallationRequiredReconciler, extensionKind } from './reconciler.js';
import { EXTENSION_KINDS } from './required.js';

/** The controller's name. */
export const ControllerName = 'controllerinstallation-required';

/** Adds the ControllerInstallation required controller. */
export function addControllerInstallationRequiredController(
  mgr: Manager,
  deps: { seedName: string; gardenCluster: string; seedCluster: string; concurrentSyncs: number },
): Controller {
  const garden = mgr.cluster(deps.gardenCluster);
  const installations = () =>
    garden.cache
      .informerFor(ControllerInstallationKind)
      .store.list()
      .filter((ci) => ci.spec.seedRef?.name === deps.seedName)
      .map((ci) => ({ namespace: '', name: ci.metadata!.name! }));
  let builder = controllerFor(mgr, ControllerName)
    .inCluster(deps.gardenCluster)
    .for(ControllerInstallationKind, { predicates: [forSeed(deps.seedName), (e) => e.type === 'create'] });
  for (const k of EXTENSION_KINDS) {
    builder = builder.watches(extensionKind(k), installations, {
      cluster: deps.seedCluster,
      // Only appearing and disappearing objects and type changes matter.
      predicates: [(e) => e.type !== 'update' || e.oldObject.spec?.type !== e.object.spec?.type],
    });
  }
  return builder.withOptions({ maxConcurrentReconciles: Math.max(1, deps.concurrentSyncs) }).complete(
    new ControllerInstallationRequiredReconciler({
      seedName: deps.seedName,
      garden: garden.api,
      seed: mgr.cluster(deps.seedCluster).client,
    }),
  );
}
