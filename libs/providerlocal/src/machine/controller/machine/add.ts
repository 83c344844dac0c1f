// Wiring of the Machine controller: Machines, and the machine Pods they own; a deleted machine's Node is deleted in
// its shoot through the shoot access Secret of the Machine's namespace.
import {
  Kinds,
  controllerFor,
  isNotFound,
  type Client,
  type Controller,
  type Manager,
} from '@gardener-ts/controller-runtime';
import { ShootAccessSecretName, shootClientFor } from '@gardener-ts/extensions';
import { MachineKind } from '../../objects.js';
import { MachineReconciler, type ShootNodeDeleter } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'machine';

/**
 * Deletes a Node in the shoot of a control plane namespace of the seed; a missing Node counts as deleted, and so does
 * a namespace without the shoot access Secret (no shoot was provisioned there: machines of a bare MachineDeployment).
 */
export function shootNodeDeleter(seed: Pick<Client, 'get'>): ShootNodeDeleter {
  return async (namespace, nodeName) => {
    const access = await seed.get(Kinds.Secret, { namespace, name: ShootAccessSecretName }).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (!access) return;
    const shoot = await shootClientFor(seed, namespace, { requestTimeoutMs: 10_000 });
    try {
      await shoot.delete(Kinds.Node, { name: nodeName }).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
    } finally {
      shoot.close();
    }
  };
}

/** Adds the controller. */
export function addMachineController(mgr: Manager): Controller {
  const seed = mgr.cluster().client;
  return controllerFor(mgr, ControllerName)
    .for(MachineKind)
    .owns(Kinds.Pod)
    .withOptions({ maxConcurrentReconciles: 5 })
    .complete(
      new MachineReconciler(
        seed,
        () => new Date(),
        shootNodeDeleter(seed),
        mgr.log.child({ controller: ControllerName }),
      ),
    );
}
