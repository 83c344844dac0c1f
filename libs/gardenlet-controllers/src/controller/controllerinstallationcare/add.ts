// Wiring of the ControllerInstallation care reconciler: this seed's installations, again every syncPeriod.
import { controllerFor, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { forSeed } from '../controllerinstallation/add.js';
import { CONTROLLER_INSTALLATION_LABEL } from '../controllerinstallation/install.js';
import { ControllerInstallationKind, ManagedResourceKind } from '../controllerinstallation/kinds.js';
import { GARDEN_NAMESPACE } from '../../constants.js';
import { ControllerInstallationCareReconciler, type ControllerInstallationCareDeps } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'controllerinstallation-care';

/** The installation a ManagedResource in the seed's garden namespace belongs to (its `controllerinstallation-name` label). */
export function installationOf(mr: {
  metadata?: { namespace?: string; labels?: Record<string, string> };
}): { namespace: string; name: string }[] {
  const name = mr.metadata?.labels?.[CONTROLLER_INSTALLATION_LABEL];
  return name && mr.metadata?.namespace === GARDEN_NAMESPACE ? [{ namespace: '', name }] : [];
}

/** Adds the ControllerInstallation care controller. */
export function addControllerInstallationCareController(
  mgr: Manager,
  deps: Omit<ControllerInstallationCareDeps, 'garden' | 'seed'> & {
    gardenCluster: string;
    seedCluster: string;
    concurrentSyncs: number;
  },
): Controller {
  return (
    controllerFor(mgr, ControllerName)
      .inCluster(deps.gardenCluster)
      .for(ControllerInstallationKind, { predicates: [forSeed(deps.seedName), (e) => e.type === 'create'] })
      // A change of an installation's ManagedResource is reported at once, not only at the next sync period.
      .watches(ManagedResourceKind, installationOf, { cluster: deps.seedCluster })
      .withOptions({ maxConcurrentReconciles: Math.max(1, deps.concurrentSyncs) })
      .complete(
        new ControllerInstallationCareReconciler({
          ...deps,
          garden: mgr.cluster(deps.gardenCluster).api,
          seed: mgr.cluster(deps.seedCluster).api,
        }),
      )
  );
}
