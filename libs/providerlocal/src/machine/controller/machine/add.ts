// Wiring of the Machine controller: Machines, the machine Pods they own, and the Nodes of the shoots (a watch per
// shoot, ./node-watch.ts, declared as a raw source: a Node's change enqueues the Machine whose `node` label names it).
// Through the shoot access Secret of the Machine's namespace a machine's Node is looked at (joined, healthy), a
// deleted machine's Node is drained (./drainer.ts) and deleted, and the machines' bootstrap tokens are kept.
import {
  Kinds,
  channelSource,
  controllerFor,
  isNotFound,
  type Client,
  type Controller,
  type KubernetesObject,
  type Manager,
  type Request,
  type Secret,
} from '@gardener-ts/controller-runtime';
import { ShootAccessSecretName, shootClientFor } from '@gardener-ts/extensions';
import { MachineKind, NodeLabel } from '../../objects.js';
import { nodeStateOf } from './health.js';
import { NodeDrainer, drainShootOf, type DrainOutcome } from './drainer.js';
import { ShootNodeWatches } from './node-watch.js';
import {
  bootstrapTokenExpired,
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
  type ShootNodeDrain,
  type ShootNodeReadiness,
  type ShootNodeState,
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
  return (namespace, nodeName, failureConditions, options) =>
    withShoot<ShootNodeState>(seed, namespace, { state: 'Ready' }, async (shoot) => {
      const node = await shoot.get(Kinds.Node, { name: nodeName }).catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
      return node
        ? nodeStateOf(node.status?.conditions, failureConditions, options?.conditions)
        : ({ state: 'NotFound' } as const);
    });
}

/**
 * Drains the Node of a deleted machine in the shoot of a control plane namespace, one step per call (see
 * ./drainer.ts); done at once where the namespace has no shoot access Secret.
 */
export function shootNodeDrain(seed: Pick<Client, 'get'>, drainer: NodeDrainer = new NodeDrainer()): ShootNodeDrain {
  const none: DrainOutcome = { state: 'Done', nodeMissing: true, message: 'no shoot', warnings: [] };
  return (namespace, request) =>
    withShoot(seed, namespace, none, (shoot) => drainer.step(drainShootOf(shoot), request));
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
        if (existing && !bootstrapTokenExpired(existing.data, new Date())) {
          return `${read(existing, 'token-id')}.${read(existing, 'token-secret')}`;
        }
        // An expired token (kept in the shoot from a machine restored after a migration) is replaced.
        if (existing) {
          await shoot.delete(Kinds.Secret, key).catch((err: unknown) => {
            if (!isNotFound(err)) throw err;
          });
        }
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
 * The requests of the Machines of a control plane namespace whose `node` label names a Node of its shoot (the mapper
 * of the Node watch; read from the seed's cache, no request per event).
 */
export function machinesOfNode(
  seed: Pick<Client, 'list'>,
): (namespace: string, nodeName: string) => Promise<Request[]> {
  return async (namespace, nodeName) => {
    if (!nodeName) return [];
    const machines = await seed.list(MachineKind, { namespace, labelSelector: { [NodeLabel]: nodeName } });
    return machines.items.map((m) => ({ namespace, name: m.metadata!.name! }));
  };
}

/**
 * Adds the controller; `options` are machine-controller-manager's timeouts, drain settings and the health check
 * period (defaults: MCM's; a Machine's spec overrides them). The machines of a deployment are listed live for the
 * replacement limit. The Nodes of each shoot are watched while it has machines.
 */
export function addMachineController(mgr: Manager, options: MachineReconcilerOptions = {}): Controller {
  const seed = mgr.cluster().client;
  const api = mgr.cluster().api;
  const log = mgr.log.child({ controller: ControllerName });
  const nodeEvents = channelSource();
  const machinesOf = machinesOfNode(seed);
  const watches = new ShootNodeWatches(
    seed,
    (namespace, node) => {
      void machinesOf(namespace, node.metadata?.name ?? '')
        .then((requests) => nodeEvents.push(...requests))
        .catch((err: unknown) => log.warn({ err, namespace }, 'the machine of a Node could not be found'));
    },
    { log },
  );
  mgr.add({ needLeaderElection: true, start: () => undefined, stop: () => watches.stopAll() });
  return controllerFor(mgr, ControllerName)
    .for(MachineKind)
    .owns(Kinds.Pod)
    .watchesRawSource(nodeEvents)
    .withOptions({ maxConcurrentReconciles: 5 })
    .complete(
      new MachineReconciler(
        seed,
        () => new Date(),
        shootNodeDeleter(seed),
        log,
        watches.readiness,
        shootBootstrapTokens(seed),
        {
          deploymentMachines: async (namespace, name) =>
            (await api.list(MachineKind, { namespace, labelSelector: { [DeploymentNameLabel]: name } })).items,
          drain: shootNodeDrain(seed),
          onNamespaceEmpty: (namespace) => watches.stop(namespace),
          ...options,
        },
      ),
    );
}
