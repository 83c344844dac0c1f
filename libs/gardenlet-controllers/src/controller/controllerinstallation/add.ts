// Wiring of the ControllerInstallation main reconciler: this seed's ControllerInstallations (spec changes), and the
// installation of a ControllerDeployment that changed. `genericGardenCluster` (from `genericGardenClusterOf` over the
// gardenlet's garden connection) is what the generic garden kubeconfig of `injectGardenKubeconfig` points at. Charts of
// `helm.ociRepository` are pulled by an OciChartPuller reading pull secrets and CA bundles from the garden's `garden`
// namespace (as Gardener's gardenlet does), unless the caller passes its own `pullChart`.
import { controllerFor, ignoreNotFound, Kinds, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { GARDEN_NAMESPACE } from '../../constants.js';
import { OciChartPuller } from '../../oci/puller.js';
import { ControllerInstallationReconciler, type ControllerInstallationReconcilerDeps } from './reconciler.js';
import { ControllerDeploymentKind, ControllerInstallationKind, type ControllerInstallation } from './kinds.js';

/** The controller's name. */
export const ControllerName = 'controllerinstallation';

/** Installations of the seed `seedName`. */
export const forSeed = (seedName: string) => (event: { object: ControllerInstallation }) =>
  event.object.spec?.seedRef?.name === seedName;

/** Adds the ControllerInstallation main controller. */
export function addControllerInstallationController(
  mgr: Manager,
  deps: Omit<ControllerInstallationReconcilerDeps, 'garden' | 'seed'> & {
    gardenCluster: string;
    seedCluster: string;
    concurrentSyncs: number;
  },
): Controller {
  const garden = mgr.cluster(deps.gardenCluster);
  const puller = new OciChartPuller({
    readSecret: (name) => garden.api.get(Kinds.Secret, { namespace: GARDEN_NAMESPACE, name }).catch(ignoreNotFound),
  });
  const pullChart = deps.pullChart ?? ((oci) => puller.pull(oci));
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.gardenCluster)
    .for(ControllerInstallationKind, {
      predicates: [
        forSeed(deps.seedName),
        (e) =>
          e.type !== 'update' ||
          e.oldObject.metadata?.generation !== e.object.metadata?.generation ||
          !!e.object.metadata?.deletionTimestamp,
      ],
    })
    .watches(ControllerDeploymentKind, (deployment) =>
      garden.cache
        .informerFor(ControllerInstallationKind)
        .store.list()
        .filter(
          (ci) => ci.spec.deploymentRef?.name === deployment.metadata?.name && ci.spec.seedRef?.name === deps.seedName,
        )
        .map((ci) => ({ namespace: '', name: ci.metadata!.name! })),
    )
    .withOptions({ maxConcurrentReconciles: Math.max(1, deps.concurrentSyncs) })
    .complete(
      new ControllerInstallationReconciler({
        ...deps,
        pullChart,
        garden: garden.api,
        seed: mgr.cluster(deps.seedCluster).api,
      }),
    );
}
