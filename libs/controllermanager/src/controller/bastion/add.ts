// Registers the Bastion controller: Bastions, and the Shoots they belong to (deleted or moved Shoots end them).
import type { Shoot } from '@gardener-ts/api';
import { controllerFor, type Controller, type Manager, type Request } from '@gardener-ts/controller-runtime';
import { BastionKind, ShootKind } from '../../kinds.js';
import { BastionReconciler } from './reconciler.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'bastion';

/** Adds the controller to `mgr` on its garden cluster. */
export function addBastionController(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number; maxLifetimeMs: number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  const bastions = garden.cache.informerFor(BastionKind);
  const bastionsOf = (shoot: Shoot): Request[] =>
    bastions.store
      .list()
      .filter(
        (b) => b.metadata?.namespace === shoot.metadata?.namespace && b.spec.shootRef.name === shoot.metadata?.name,
      )
      .map((b) => ({ namespace: b.metadata!.namespace!, name: b.metadata!.name! }));
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(BastionKind)
    .watches(ShootKind, bastionsOf, {
      predicates: [
        (e) =>
          e.type === 'delete' ||
          (e.type === 'update' &&
            (e.object.spec.seedName !== e.oldObject.spec.seedName ||
              !!e.object.metadata?.deletionTimestamp !== !!e.oldObject.metadata?.deletionTimestamp)),
      ],
    })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new BastionReconciler(garden.client, deps.maxLifetimeMs));
}
