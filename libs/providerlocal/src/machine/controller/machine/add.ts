// Wiring of the Machine controller: Machines, and the machine Pods they own; a machine's Node is looked at (joined,
// healthy) and a deleted machine's Node is deleted in its shoot, through the shoot access Secret of the Machine's
// namespace, which also carries the machines' bootstrap tokens.
import {
  Kinds,
  controllerFor,
  isNotFound,
  type Client,
  type Controller,
  type KubernetesObject,
  type Manager,
  type Secret,
} from '@gardener-ts/controller-runtime';
import { ShootAccessSecretName, shootClientFor } from '@gardener-ts/extensions';
import { MachineKind } from '../../objects.js';
import { nodeHealthOf } from './health.js';
import {
  bootstrapTokenID,
  bootstrapTokenSecret,
  bootstrapTokenSecretName,
  newTokenSecret,
} from '../../bootstrap-token.js';
import {
  DeploymentNameLabel,
  MachineReconciler,
  type MachineBootstrapTokens,
  type MachineReconcilerOptions,
  type ShootNodeDeleter,
  type ShootNodeReadiness,
} from './reconciler.js';

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

/**
 * The health of a Node of the shoot of a control plane namespace (see ./health.ts nodeHealthOf); Ready without a shoot
 * (see withShoot), rejects when the shoot does not answer.
 */
export function shootNodeReadiness(seed: Pick<Client, 'get'>): ShootNodeReadiness {
  return (namespace, nodeName) =>
    withShoot(seed, namespace, { state: 'Ready' } as const, async (shoot) => {
      const node = await shoot.get(Kinds.Node, { name: nodeName }).catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
      return node ? nodeHealthOf(node.status?.conditions) : ({ state: 'NotFound' } as const);
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

/** The machines' bootstrap tokens in the shoot of their control plane namespace (see ../../bootstrap-token.ts). */
export function shootBootstrapTokens(seed: Pick<Client, 'get'>): MachineBootstrapTokens {
  return {
    ensure: (namespace, machineName, expiration) =>
      withShoot(seed, namespace, undefined, async (shoot) => {
        const key = { namespace: 'kube-system', name: bootstrapTokenSecretName(bootstrapTokenID(machineName)) };
        const existing = await shoot.get(Kinds.Secret, key).catch((err: unknown) => {
          if (isNotFound(err)) return undefined;
          throw err;
        });
        const read = (s: typeof existing, k: string) => Buffer.from(s?.data?.[k] ?? '', 'base64').toString('utf8');
        if (existing) return `${read(existing, 'token-id')}.${read(existing, 'token-secret')}`;
        const created = await shoot.create(
          bootstrapTokenSecret(machineName, newTokenSecret(), expiration) as KubernetesObject as Secret,
        );
        return `${read(created, 'token-id')}.${read(created, 'token-secret')}`;
      }),
    delete: (namespace, machineName) =>
      withShoot(seed, namespace, undefined, async (shoot) => {
        await shoot
          .delete(Kinds.Secret, {
            namespace: 'kube-system',
            name: bootstrapTokenSecretName(bootstrapTokenID(machineName)),
          })
          .catch((err: unknown) => {
            if (!isNotFound(err)) throw err;
          });
      }),
  };
}

/**
 * Adds the controller; `options` are machine-controller-manager's timeouts and the health check period (defaults:
 * MCM's). The machines of a deployment are listed live for the replacement limit.
 */
export function addMachineController(mgr: Manager, options: MachineReconcilerOptions = {}): Controller {
  const seed = mgr.cluster().client;
  const api = mgr.cluster().api;
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
        shootBootstrapTokens(seed),
        {
          deploymentMachines: async (namespace, name) =>
            (await api.list(MachineKind, { namespace, labelSelector: { [DeploymentNameLabel]: name } })).items,
          ...options,
        },
      ),
    );
}
