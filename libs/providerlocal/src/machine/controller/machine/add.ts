// Wiring of the Machine controller: Machines, and the machine Pods they own; a new machine's Node is awaited and a
// deleted machine's Node is deleted in its shoot, through the shoot access Secret of the Machine's namespace.
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
import { MachineReconciler, type ShootNodeDeleter, type ShootNodeReadiness } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'machine';

// Runs `fn` with a client of the shoot of a control plane namespace; `none` when the namespace has no shoot access
// Secret (no shoot was provisioned there: machines of a bare MachineDeployment).
async function withShoot<T>(
  seed: Pick<Client, 'get'>,
  namespace: string,
  none: T,
  fn: (shoot: Awaited<ReturnType<typeof shootClientFor>>) => Promise<T>,
): Promise<T> {
  const access = await seed.get(Kinds.Secret, { namespace, name: ShootAccessSecretName }).catch((err: unknown) => {
    if (isNotFound(err)) return undefined;
    throw err;
  });
  if (!access) return none;
  const shoot = await shootClientFor(seed, namespace, { requestTimeoutMs: 10_000 });
  try {
    return await fn(shoot);
  } finally {
    shoot.close();
  }
}

/** Whether a Node of the shoot of a control plane namespace exists and is Ready (true without a shoot, see withShoot). */
export function shootNodeReadiness(seed: Pick<Client, 'get'>): ShootNodeReadiness {
  return (namespace, nodeName) =>
    withShoot(seed, namespace, true, async (shoot) => {
      const node = await shoot.get(Kinds.Node, { name: nodeName }).catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
      return node?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    });
}

/**
 * Deletes a Node in the shoot of a control plane namespace of the seed; a missing Node counts as deleted, and so does
 * a namespace without the shoot access Secret (no shoot was provisioned there: machines of a bare MachineDeployment).
 */
export function shootNodeDeleter(seed: Pick<Client, 'get'>): ShootNodeDeleter {
  return (namespace, nodeName) =>
    withShoot(seed, namespace, undefined, async (shoot) => {
      await shoot.delete(Kinds.Node, { name: nodeName }).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
    });
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
        shootNodeReadiness(seed),
      ),
    );
}
