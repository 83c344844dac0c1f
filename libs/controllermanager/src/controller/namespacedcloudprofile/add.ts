// Registers the NamespacedCloudProfile status controller: the profiles themselves and their parent CloudProfiles.
import { controllerFor, type Controller, type Manager, type Request } from '@gardener-ts/controller-runtime';
import { CloudProfileKind, NamespacedCloudProfileKind } from '../../kinds.js';
import { NamespacedCloudProfileReconciler } from './reconciler.js';

/** The controller's name in logs and metrics. */
export const ControllerName = 'namespacedcloudprofile-status';

/** Adds the controller to `mgr` on its garden cluster. */
export function addNamespacedCloudProfileController(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  const profiles = garden.cache.informerFor(NamespacedCloudProfileKind);
  const childrenOf = (parent: { metadata?: { name?: string } }): Request[] =>
    profiles.store
      .list()
      .filter((p) => p.spec.parent.name === parent.metadata?.name)
      .map((p) => ({ namespace: p.metadata!.namespace!, name: p.metadata!.name! }));
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(NamespacedCloudProfileKind, {
      predicates: [
        (e) =>
          e.type !== 'update' || e.object.metadata?.generation !== e.oldObject.metadata?.generation || !e.object.status,
      ],
    })
    .watches(CloudProfileKind, childrenOf, { predicates: [(e) => e.type !== 'delete'] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new NamespacedCloudProfileReconciler(garden.client));
}
