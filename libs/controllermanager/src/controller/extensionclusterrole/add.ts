// Registers the extension ClusterRole controller (Gardener's `controllerregistration-extension-clusterrole`):
// ClusterRoles labelled `authorization.gardener.cloud/custom-extensions-permissions=true`, and for every ServiceAccount
// event in a `seed-*` namespace the labelled ClusterRoles whose selector matches its labels. Like Gardener, 5 workers
// and no configuration block (it comes with the ControllerRegistration controllers).
import {
  controllerFor,
  Kinds,
  type Controller,
  type KubernetesObject,
  type Manager,
  type Predicate,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ExtensionClusterRoleReconciler } from './reconciler.js';
import { isExtensionClusterRole, SeedNamespacePrefix, serviceAccountSelector } from './subjects.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'controllerregistration-extension-clusterrole';

/** Gardener's worker count for this controller (it has no configuration). */
export const ConcurrentSyncs = 5;

/** ClusterRoles labelled as custom extension permissions. */
export const extensionClusterRole: Predicate<KubernetesObject> = (e) => isExtensionClusterRole(e.object);

/** Gardener's ServiceAccountPredicate: ServiceAccounts of seed namespaces. */
export const seedServiceAccount: Predicate<KubernetesObject> = (e) =>
  (e.object.metadata?.namespace ?? '').startsWith(SeedNamespacePrefix);

/**
 * Gardener's MapToMatchingClusterRoles: the labelled ClusterRoles whose selector matches the ServiceAccount's labels;
 * ClusterRoles with an unusable selector are skipped (logged by `onError`).
 */
export function mapToMatchingClusterRoles(
  clusterRoles: () => readonly KubernetesObject[],
  onError: (name: string, err: unknown) => void = () => {},
): (serviceAccount: KubernetesObject) => Request[] {
  return (serviceAccount) =>
    clusterRoles()
      .filter(isExtensionClusterRole)
      .flatMap((clusterRole) => {
        const name = clusterRole.metadata!.name!;
        try {
          return serviceAccountSelector(clusterRole.metadata?.annotations)(serviceAccount.metadata?.labels)
            ? [{ namespace: '', name }]
            : [];
        } catch (err) {
          onError(name, err);
          return [];
        }
      });
}

/** Adds the controller to `mgr` on its garden cluster. */
export function addExtensionClusterRoleController(mgr: Manager, deps: { cluster: string }): Controller {
  const garden = mgr.cluster(deps.cluster);
  const clusterRoles = garden.cache.informerFor(Kinds.ClusterRole).store;
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(Kinds.ClusterRole, { predicates: [extensionClusterRole] })
    .watches(
      Kinds.ServiceAccount,
      mapToMatchingClusterRoles(
        () => clusterRoles.list(),
        (clusterRole, err) =>
          mgr.log.error({ err, clusterRole, controller: ControllerName }, 'Failed parsing label selector'),
      ),
      { predicates: [seedServiceAccount] },
    )
    .withOptions({ maxConcurrentReconciles: ConcurrentSyncs })
    .complete(new ExtensionClusterRoleReconciler({ client: garden.client }));
}
