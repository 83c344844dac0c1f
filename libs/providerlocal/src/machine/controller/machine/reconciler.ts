// The Machine controller of the local machine controller (machine-controller-manager with the local driver): a Pod
// per Machine in the Machine's namespace (image from the MachineClass's `providerSpec.image`, `gardener-ts/machine`
// by default; the user data Secret of the MachineClass mounted at /etc/machine/userdata), the `node` label and the
// InternalIP address. The Machine's phase follows machine-controller-manager's health check (./health.ts): Pending →
// Running once the Pod is ready and its Node has joined the shoot and is Ready; Running → Unknown when the Pod or the
// Node is not healthy any more (Nodes are watched, ./node-watch.ts; a resync every health check period), back to
// Running when they are; Failed after the health timeout (at most one machine of a deployment at a time) or the
// creation timeout — the MachineSet replaces it; the Machine keeps a copy of its Node's conditions (`status.conditions`,
// as MCM). Timeouts, drain settings and Node conditions are the Machine's own (its pool's, ./settings.ts), else the
// controller's. On deletion, as MCM's deletion flow: Terminating, the Node drained in the shoot (./drain.ts,
// ./drainer.ts; forced after the drain timeout; the drain's start kept in its `lastOperation`, so a restarted
// controller continues it), the Pod deleted, its Node deleted in the shoot (through the `gardener` shoot access
// Secret, as extensions reach a shoot), then the finalizer removed.
// As machine-controller-manager, a machine whose user data carries the `<<BOOTSTRAP_TOKEN>>` placeholder gets its own
// bootstrap token in the shoot and its own user data Secret with the token filled in (see ../../bootstrap-token.ts);
// the token goes once the machine has joined.
// A machine held by a control plane migration (`local.gardener.cloud/machine-migration`, ../../objects.ts) is left
// alone — machine-controller-manager does not run for its namespace then — and, deleted, released without a drain or
// the deletion of its Node. A restored machine (no status, its `node` label naming a Node kept in the shoot) is
// created like a new one: that Node, left by the former VM, is deleted first (a bootstrap token is only honoured for a
// machine without a Node), then a new Pod with a new bootstrap token, whose kubelet registers the Node again under the
// same name (./health.ts does not count a Node from before the Pod as joined).
import {
  Kinds,
  addFinalizer,
  ignoreNotFound,
  removeFinalizer,
  type Client,
  type PodObject,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import {
  MCMFinalizer,
  MachineClassKind,
  MachineKind,
  NodeLabel,
  controllerRef,
  migrationOf,
  phaseOf,
  type Machine,
  type MachineClass,
  type MachinePhase,
} from '../../objects.js';
import { BootstrapTokenPlaceholder, withBootstrapToken } from '../../bootstrap-token.js';
import {
  decideMachineHealth,
  mayMarkFailed,
  type MachineNodeCondition,
  type MachineOperation,
  type NodeHealth,
  type PodHealth,
} from './health.js';
import { ForceDeletionLabel, forceReason } from './drain.js';
import type { DrainOutcome, DrainRequest } from './drainer.js';
import { DefaultMachineSettings, machineSettingsOf, type MachineSettingsDefaults } from './settings.js';

const FieldManager = 'provider-local';

/** The image of a machine Pod when the MachineClass names none. */
export const DefaultMachineImage = 'gardener-ts/machine';
/** Where the machine Pod finds its user data (key `userData` of the MachineClass's Secret). */
export const UserDataMountPath = '/etc/machine/userdata';
/** Labels of every machine Pod (the Infrastructure's NetworkPolicy selects them). */
export const MachinePodLabels = { app: 'machine', 'machine.sapcloud.io/provider': 'local' } as const;
/**
 * The local kubelet's annotation asking for a /24 of pod addresses for the Pods of the node the Pod runs (the local
 * counterpart of a node's pod CIDR; see the substrate's PodIPs).
 */
export const MachinePodRangeAnnotation = 'local.gardener.cloud/pod-range-prefix';
/** The label naming a machine Pod's Machine. */
export const MachineNameLabel = 'machine.sapcloud.io/name';

/** The name of a Machine's Pod, which is also its hostname and Node name. */
export function machinePodName(machineName: string): string {
  return `machine-${machineName}`.slice(0, 63).replace(/-+$/, '');
}

/** The name of a machine's own user data Secret (its class's, with the machine's bootstrap token). */
export function machineUserDataSecretName(machineName: string): string {
  return `${machinePodName(machineName)}-userdata`;
}

/** The Pod of a Machine; its user data is the Secret `userDataSecret` (default: the class's). */
export function machinePod(
  machine: Machine,
  machineClass: MachineClass,
  userDataSecret: string | undefined = machineClass.secretRef?.name,
): PodObject {
  type Container = NonNullable<NonNullable<PodObject['spec']>['containers']>[number] & Record<string, unknown>;
  const name = machinePodName(machine.metadata!.name!);
  const providerSpec = (machineClass.providerSpec ?? {}) as { image?: string };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: machine.metadata!.namespace!,
      labels: { ...MachinePodLabels, [MachineNameLabel]: machine.metadata!.name! },
      // The machine's kubelet gives its Pods addresses of their own: the seed's kubelet gives it a /24 of them.
      annotations: { [MachinePodRangeAnnotation]: '24' },
      ownerReferences: [controllerRef(machine)],
    },
    spec: {
      hostname: name,
      automountServiceAccountToken: false,
      containers: [
        {
          name: 'node',
          image: providerSpec.image ?? DefaultMachineImage,
          env: [
            { name: 'MACHINE_NAME', value: machine.metadata!.name! },
            { name: 'NODE_NAME', value: name },
            ...(userDataSecret ? [{ name: 'USER_DATA_FILE', value: `${UserDataMountPath}/userData` }] : []),
          ],
          ...(userDataSecret
            ? { volumeMounts: [{ name: 'userdata', mountPath: UserDataMountPath, readOnly: true }] }
            : {}),
        } as Container,
      ],
      ...(userDataSecret ? { volumes: [{ name: 'userdata', secret: { secretName: userDataSecret } }] } : {}),
    },
  };
}

/** The phase a Machine has with this Pod. */
export function phaseFromPod(pod: PodObject | undefined): MachinePhase {
  if (!pod) return 'Pending';
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return 'Failed';
  const ready = pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
  return phase === 'Running' && ready ? 'Running' : 'Pending';
}

/** The health of a machine's Pod, its VM. */
export function podHealthOf(pod: PodObject | undefined): PodHealth {
  if (!pod) return { state: 'Missing' };
  const name = pod.metadata?.name ?? '';
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return { state: 'Ended', name, phase };
  return phaseFromPod(pod) === 'Running' ? { state: 'Ready' } : { state: 'NotReady', name };
}

/**
 * Deletes the Node of a machine in the shoot of a control plane namespace; resolves when it is gone (or was never
 * there), rejects when the shoot cannot be reached.
 */
export type ShootNodeDeleter = (namespace: string, nodeName: string) => Promise<void>;

/**
 * The health of a machine's Node in the shoot of a control plane namespace (Ready, NotReady with its bad conditions,
 * NotFound); Ready where no shoot was provisioned (machines of a bare MachineDeployment), rejects when the shoot cannot
 * be reached.
 */
export type ShootNodeReadiness = (
  namespace: string,
  nodeName: string,
  /** The Node conditions that make the machine unhealthy unless `False` (the machine's `nodeConditions`). */
  failureConditions?: readonly string[],
  /** `conditions`: also return the Node's conditions (`nodeConditions`, the Machine's copy). */
  options?: { conditions?: boolean },
) => Promise<ShootNodeState>;

/** A machine's Node as the shoot shows it: its health and, when it is there, its conditions (the Machine's copy). */
export type ShootNodeState = Exclude<NodeHealth, { state: 'Unreachable' }> & {
  nodeConditions?: MachineNodeCondition[];
};

/**
 * One step of the drain of a deleted machine's Node in the shoot of a control plane namespace (see ./drainer.ts);
 * Done where no shoot was provisioned, rejects when the shoot cannot be reached.
 */
export type ShootNodeDrain = (namespace: string, request: DrainRequest) => Promise<DrainOutcome>;

/** The Machines of a MachineDeployment (label `name`), read live: the replacement limit must see the latest phases. */
export type DeploymentMachines = (namespace: string, deploymentName: string) => Promise<Machine[]>;

/**
 * Options of the Machine reconciler: MCM's timeouts, drain settings and the health check period (defaults: MCM's, see
 * ./settings.ts; a Machine's own spec overrides them).
 */
export interface MachineReconcilerOptions extends Partial<MachineSettingsDefaults> {
  /** Lists a deployment's machines for the replacement limit; default: the reconciler's client. */
  deploymentMachines?: DeploymentMachines;
  /** Drains the Node of a deleted machine before its Pod goes (none: no drain). */
  drain?: ShootNodeDrain;
  /** Called when a namespace has no Machine left (its shoot's Node watch can stop). */
  onNamespaceEmpty?: (namespace: string) => void | Promise<void>;
}

/** The steps of MCM's deletion flow named at the end of `lastOperation.description`. */
export const DeletionSteps = {
  drain: 'Initiate node drain',
  volumeAttachments: 'Delete Volume Attachments',
  vmDeletion: 'Initiate VM deletion',
  nodeDeletion: 'Initiate node object deletion',
  finalizerRemoval: 'Initiate machine object finalizer removal',
} as const;

/** Whether the drain of a deleted machine is behind it (its last operation names a later step, as MCM reads it). */
export function drainFinished(lastOperation: { type?: string; description?: string } | undefined): boolean {
  if (lastOperation?.type !== 'Delete') return false;
  const d = lastOperation.description ?? '';
  return [
    DeletionSteps.volumeAttachments,
    DeletionSteps.vmDeletion,
    DeletionSteps.nodeDeletion,
    DeletionSteps.finalizerRemoval,
  ].some((step) => d.endsWith(step));
}

/**
 * When the drain of a deleted machine began, ms since the epoch, read from its `lastOperation`: a drain in progress
 * (`Delete`, `Processing`, at the "Initiate node drain" step) keeps the `lastUpdateTime` of its first step, as MCM's
 * one blocking drain call leaves the operation it started with. Undefined when no drain is in progress (none began, or
 * the last one failed: MCM's next sync starts a new drain).
 */
export function drainStartedAt(
  lastOperation: { type?: string; state?: string; description?: string; lastUpdateTime?: string } | undefined,
): number | undefined {
  if (!lastOperation || !isDrainInProgress(lastOperation)) return undefined;
  const at = Date.parse(lastOperation.lastUpdateTime ?? '');
  return Number.isNaN(at) ? undefined : at;
}

/** Whether an operation is a drain in progress (`Delete`, `Processing`, at the "Initiate node drain" step). */
function isDrainInProgress(operation: { type?: string; state?: string; description?: string }): boolean {
  return (
    operation.type === 'Delete' &&
    operation.state === 'Processing' &&
    (operation.description ?? '').endsWith(DeletionSteps.drain)
  );
}

/** The `lastOperation` of a drain step (MCM's descriptions), and whether the deletion goes on to the machine's VM. */
export function drainOperation(outcome: DrainOutcome): { operation: MachineOperation; proceed: boolean } {
  if (outcome.state === 'Done') {
    return {
      operation: {
        type: 'Delete',
        state: 'Processing',
        description: outcome.forced
          ? `Force Drain successful. ${DeletionSteps.volumeAttachments}`
          : `Drain successful. ${DeletionSteps.vmDeletion}`,
      },
      proceed: true,
    };
  }
  if (outcome.state === 'Failed' && outcome.forced) {
    return {
      operation: {
        type: 'Delete',
        state: 'Processing',
        description:
          `Drain failed due to - ${outcome.message}. However, since it's a force deletion shall continue deletion ` +
          `of VM. ${DeletionSteps.volumeAttachments}`,
      },
      proceed: true,
    };
  }
  if (outcome.state === 'Failed') {
    return {
      operation: {
        type: 'Delete',
        state: 'Failed',
        description: `Drain failed due to - ${outcome.message}. Will retry in next sync. ${DeletionSteps.drain}`,
      },
      proceed: false,
    };
  }
  return {
    operation: {
      type: 'Delete',
      state: 'Processing',
      description: `Draining: ${outcome.message}. ${DeletionSteps.drain}`,
    },
    proceed: false,
  };
}

/** The label on a Machine naming its MachineDeployment (MCM's `name`). */
export const DeploymentNameLabel = 'name';

/**
 * The bootstrap tokens of machines in the shoot of a control plane namespace: `ensure` returns the machine's token
 * (`<id>.<secret>`), creating its Secret valid until `expiration` when there is none; undefined where no shoot was
 * provisioned (machines of a bare MachineDeployment). `delete` removes it (gone counts as deleted).
 */
export interface MachineBootstrapTokens {
  ensure(namespace: string, machineName: string, expiration: Date): Promise<string | undefined>;
  delete(namespace: string, machineName: string): Promise<void>;
}

/** How long a deleted machine, its drain done and its Pod gone, retries to delete its Node in an unreachable shoot. */
export const NodeDeletionTimeoutMs = 120_000;

/** Reconciles Machines into Pods. */
export class MachineReconciler {
  private readonly options: MachineSettingsDefaults;
  private readonly deploymentMachines: DeploymentMachines;
  private readonly drain?: ShootNodeDrain;
  private readonly onNamespaceEmpty?: (namespace: string) => void | Promise<void>;
  /** Per shoot namespace: since when its shoot does not answer (in memory, as MCM's freeze). */
  private readonly unreachableSince = new Map<string, number>();
  /** Per shoot namespace: when its shoot answered again after an outage; Unknown machines' timeouts restart then. */
  private readonly backSince = new Map<string, number>();
  /** Per deleted machine: since when its Node could not be deleted in the shoot. */
  private readonly nodeDeletionFailingSince = new Map<string, number>();
  /** Per MachineDeployment: the tail of the chain of machines being marked Failed (MCM's permit). */
  private readonly failing = new Map<string, Promise<unknown>>();

  constructor(
    private readonly client: Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'>,
    private readonly now: () => Date = () => new Date(),
    private readonly deleteNode?: ShootNodeDeleter,
    private readonly log?: { warn(obj: object, msg: string): void },
    private readonly nodeReady?: ShootNodeReadiness,
    private readonly tokens?: MachineBootstrapTokens,
    options: MachineReconcilerOptions = {},
  ) {
    const { deploymentMachines, drain, onNamespaceEmpty, ...settings } = options;
    this.options = { ...DefaultMachineSettings, ...settings };
    this.drain = drain;
    this.onNamespaceEmpty = onNamespaceEmpty;
    this.deploymentMachines =
      deploymentMachines ??
      (async (namespace, name) =>
        (await this.client.list(MachineKind, { namespace, labelSelector: { [DeploymentNameLabel]: name } })).items);
  }

  /**
   * The user data Secret of a new machine: its own, with its bootstrap token filled in, when the class's user data
   * has the placeholder and the machine has a shoot; else the class's.
   */
  private async userDataSecretFor(machine: Machine, machineClass: MachineClass): Promise<string | undefined> {
    const classSecret = machineClass.secretRef;
    if (!classSecret?.name || !this.tokens) return classSecret?.name;
    const namespace = machine.metadata!.namespace!;
    // A missing Secret is the Pod's to report (its volume cannot be mounted), as before there were tokens.
    const secret = await this.client
      .get(Kinds.Secret, { namespace: classSecret.namespace ?? namespace, name: classSecret.name })
      .catch(ignoreNotFound);
    const userData = Buffer.from(secret?.data?.userData ?? '', 'base64').toString('utf8');
    if (!userData.includes(BootstrapTokenPlaceholder)) return classSecret.name;
    const token = await this.tokens.ensure(
      namespace,
      machine.metadata!.name!,
      new Date(this.now().getTime() + machineSettingsOf(machine, this.options).creationTimeoutMs),
    );
    if (token === undefined) return classSecret.name;
    const name = machineUserDataSecretName(machine.metadata!.name!);
    await this.client.patch(
      Kinds.Secret,
      { namespace, name },
      {
        type: 'apply',
        fieldManager: FieldManager,
        force: true,
        patch: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name, namespace, ownerReferences: [controllerRef(machine)] },
          type: 'Opaque',
          data: { userData: Buffer.from(withBootstrapToken(userData, token)).toString('base64') },
        },
      },
    );
    return name;
  }

  /** Deletes the machine's bootstrap token; a failure is logged (the token expires by itself). */
  private async deleteToken(machine: Machine): Promise<void> {
    await this.tokens?.delete(machine.metadata!.namespace!, machine.metadata!.name!).catch((err: unknown) => {
      this.log?.warn(
        { err, machine: machine.metadata!.name },
        'the bootstrap token of the machine could not be deleted',
      );
    });
  }

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const machine = await this.client.get(MachineKind, req).catch(ignoreNotFound);
    if (!machine) {
      await this.checkNamespaceEmpty(req.namespace);
      return;
    }
    const podKey = { namespace: req.namespace, name: machinePodName(req.name) };

    // Held by a control plane migration: machine-controller-manager does not run for the namespace then.
    if (migrationOf(machine)) {
      if (machine.metadata?.deletionTimestamp) return this.release(machine, podKey);
      return;
    }

    if (machine.metadata?.deletionTimestamp) {
      const deletedAt = Date.parse(machine.metadata.deletionTimestamp);
      const nodeName = machine.metadata?.labels?.[NodeLabel];
      let pod = await this.client.get(Kinds.Pod, podKey).catch(ignoreNotFound);
      // As machine-controller-manager: the Node is cordoned and drained before the VM (the Pod) goes.
      if (this.drain && !drainFinished(machine.status?.lastOperation) && !pod?.metadata?.deletionTimestamp) {
        const drained = await this.drainStep(machine, nodeName, deletedAt);
        if (!drained.proceed) return drained.result;
        machine.status = {
          ...machine.status,
          currentStatus: { ...machine.status?.currentStatus, phase: 'Terminating' },
          lastOperation: drained.operation,
        };
      }
      if (pod) {
        if (!pod.metadata?.deletionTimestamp) {
          await this.client.delete(Kinds.Pod, podKey).catch(ignoreNotFound);
          pod = await this.client.get(Kinds.Pod, podKey).catch(ignoreNotFound);
        }
      }
      if (pod) {
        await this.setStatus(machine, 'Terminating', {
          type: 'Delete',
          state: 'Processing',
          description: `Deleting machine Pod ${podKey.name}. ${DeletionSteps.vmDeletion}`,
        });
        return { requeueAfter: 1000 };
      }
      // As machine-controller-manager: once the machine is gone, its Node goes from the shoot (a woken-up or
      // rolled pool must not leave NotReady Nodes behind). A shoot that stays unreachable past the timeout does not
      // keep the machine forever.
      if (nodeName && this.deleteNode) {
        const key = `${req.namespace}/${req.name}`;
        try {
          await this.deleteNode(req.namespace, nodeName);
          this.nodeDeletionFailingSince.delete(key);
        } catch (err) {
          // The time-out counts from the first failed attempt (a drain may have taken long before it).
          const now = this.now().getTime();
          if (!this.nodeDeletionFailingSince.has(key)) this.nodeDeletionFailingSince.set(key, now);
          if (now - this.nodeDeletionFailingSince.get(key)! < NodeDeletionTimeoutMs) {
            await this.setStatus(machine, 'Terminating', {
              type: 'Delete',
              state: 'Failed',
              description: `Deletion of Node Object ${JSON.stringify(nodeName)} failed due to error: ${(err as Error).message}. ${DeletionSteps.nodeDeletion}`,
            });
            return { requeueAfter: 5000 };
          }
          this.nodeDeletionFailingSince.delete(key);
          this.log?.warn(
            { err, machine: key, node: nodeName },
            'the Node of the deleted machine could not be deleted in the shoot; the machine goes without it',
          );
        }
      }
      await this.deleteToken(machine);
      await this.client
        .delete(Kinds.Secret, { namespace: req.namespace, name: machineUserDataSecretName(req.name) })
        .catch(ignoreNotFound);
      await removeFinalizer(this.client, machine, MCMFinalizer);
      await this.checkNamespaceEmpty(req.namespace);
      return;
    }

    const current = await addFinalizer(this.client, machine, MCMFinalizer);
    const className = machine.spec?.class?.name;
    const machineClass = className
      ? await this.client.get(MachineClassKind, { namespace: req.namespace, name: className }).catch(ignoreNotFound)
      : undefined;
    if (!machineClass) {
      await this.setStatus(current, phaseOf(current) ?? 'Pending', {
        type: 'Create',
        state: 'Failed',
        description: `MachineClass ${req.namespace}/${className ?? '<none>'} not found`,
      });
      return { requeueAfter: 5000 };
    }
    let pod = await this.client.get(Kinds.Pod, podKey).catch(ignoreNotFound);
    const phase = phaseOf(current) ?? 'Pending';
    // As machine-controller-manager, only a machine being created gets a VM: one whose Pod went away later is
    // unhealthy and replaced by its MachineSet.
    if (!pod && phase === 'Pending') {
      // A machine restored after a control plane migration names its Node (`node`), which is still in the shoot while
      // the kubelet that registered it went with the old VM. gardener-resource-manager denies a bootstrap token for a
      // machine whose Node exists (Gardener's rule: "already bootstrapped"), so that Node goes before the new VM is
      // created; the new kubelet registers it again under the same name.
      const staleNode = current.metadata?.labels?.[NodeLabel];
      if (staleNode && this.deleteNode) {
        try {
          await this.deleteNode(req.namespace, staleNode);
        } catch (err) {
          await this.setStatus(current, phase, {
            type: 'Create',
            state: 'Failed',
            description: `Deletion of Node Object ${JSON.stringify(staleNode)} of the machine's former VM failed due to error: ${(err as Error).message}`,
          });
          return { requeueAfter: 5000 };
        }
      }
      pod = await this.client.create(
        machinePod(current, machineClass, await this.userDataSecretFor(current, machineClass)),
      );
    }
    if (current.metadata?.labels?.[NodeLabel] !== podKey.name) {
      await this.client.patch(MachineKind, req, {
        type: 'merge',
        patch: { metadata: { labels: { [NodeLabel]: podKey.name } } },
      });
    }

    const podHealth = podHealthOf(pod);
    const now = this.now().getTime();
    // The machine's own timeouts and Node conditions (its pool's), else the controller's.
    const settings = machineSettingsOf(current, this.options);
    // The Node is only looked at when the Pod is ready (the shoot's API server is asked no more than needed).
    const node =
      podHealth.state === 'Ready'
        ? await this.nodeHealth(req.namespace, podKey.name, now, settings.failureConditions)
        : undefined;
    const since = Date.parse(
      current.status?.currentStatus?.lastUpdateTime ?? current.metadata?.creationTimestamp ?? '',
    );
    const vmCreatedAt = Date.parse(pod?.metadata?.creationTimestamp ?? '');
    const readyHeartbeat = Date.parse(
      (node && 'nodeConditions' in node ? node.nodeConditions : undefined)?.find((c) => c.type === 'Ready')
        ?.lastHeartbeatTime ?? '',
    );
    const decision = decideMachineHealth({
      name: req.name,
      nodeName: podKey.name,
      phase,
      lastOperation: current.status?.lastOperation,
      phaseSince: Number.isNaN(since) ? now : since,
      shootBackSince: this.backSince.get(req.namespace),
      pod: podHealth,
      node,
      ...(Number.isNaN(vmCreatedAt) ? {} : { vmCreatedAt }),
      ...(Number.isNaN(readyHeartbeat) ? {} : { nodeReadyHeartbeat: readyHeartbeat }),
      now,
      options: settings,
    });
    const ip = pod?.status?.podIP;
    if (decision.phase === 'Failed' && phase === 'Unknown') {
      return this.markFailed(current, decision.operation!, ip);
    }
    // Its node-agent and kubelet have their own credentials now (machine-controller-manager deletes the token here).
    // Without a view of the shoot's Nodes, joining is not known: the token stays until it expires or the machine goes.
    if (decision.joined && this.nodeReady) await this.deleteToken(current);
    // As MCM, the Machine keeps a copy of its Node's conditions.
    const conditions = node && 'nodeConditions' in node ? node.nodeConditions : undefined;
    await this.setStatus(current, decision.phase, decision.operation, { ip, conditions });
    return decision.recheckAfterMs === undefined ? undefined : { requeueAfter: decision.recheckAfterMs };
  }

  /**
   * Releases a deleted machine held by a control plane migration (Gardener's shallow deletion, MCM not running): its
   * Pod goes — a local VM cannot move to another seed — and its finalizer is removed; its Node is neither drained nor
   * deleted in the shoot (the machine comes back under its name in the destination seed), its bootstrap token and
   * the shoot are not touched.
   */
  private async release(
    machine: Machine,
    podKey: { namespace: string; name: string },
  ): Promise<ReconcileResult | void> {
    await this.client.delete(Kinds.Pod, podKey).catch(ignoreNotFound);
    await this.client
      .delete(Kinds.Secret, { namespace: podKey.namespace, name: machineUserDataSecretName(machine.metadata!.name!) })
      .catch(ignoreNotFound);
    await removeFinalizer(this.client, machine, MCMFinalizer);
    await this.checkNamespaceEmpty(podKey.namespace);
  }

  /**
   * One drain step of a deleted machine; its `lastOperation` is written. Returns where the deletion goes on (the
   * drain is done, skipped or given up by force) or when to look again.
   */
  private async drainStep(
    machine: Machine,
    nodeName: string | undefined,
    deletedAt: number,
  ): Promise<{ proceed: true; operation: MachineOperation } | { proceed: false; result: ReconcileResult }> {
    const namespace = machine.metadata!.namespace!;
    const name = machine.metadata!.name!;
    if (!nodeName) {
      const operation: MachineOperation = {
        type: 'Delete',
        state: 'Processing',
        description: `Skipping drain as nodeName is not a valid one for machine. ${DeletionSteps.vmDeletion}`,
      };
      await this.setStatus(machine, 'Terminating', operation);
      return { proceed: true, operation };
    }
    const settings = machineSettingsOf(machine, this.options);
    const now = this.now().getTime();
    const forceLabel = machine.metadata?.labels?.[ForceDeletionLabel] === 'True';
    const startedAt = drainStartedAt(machine.status?.lastOperation);
    let outcome: DrainOutcome;
    try {
      outcome = await this.drain!(namespace, {
        machine: `${namespace}/${name}`,
        nodeName,
        phase: phaseOf(machine),
        deletedAt,
        ...(startedAt !== undefined ? { startedAt } : {}),
        now,
        drainTimeoutMs: settings.drainTimeoutMs,
        maxEvictRetries: settings.maxEvictRetries,
        forceLabel,
      });
    } catch (err) {
      // The shoot does not answer: the drain fails; past the drain timeout the deletion goes on (MCM's force).
      const forced = forceReason({ now, deletedAt, drainTimeoutMs: settings.drainTimeoutMs, forceLabel });
      outcome = {
        state: 'Failed',
        message: (err as Error).message,
        warnings: [],
        ...(forced ? { forced } : {}),
        recheckAfterMs: 5000,
      };
    }
    if (outcome.warnings.length > 0 && outcome.state !== 'Draining') {
      this.log?.warn({ machine: `${namespace}/${name}`, node: nodeName, warnings: outcome.warnings }, 'drain warnings');
    }
    const { operation, proceed } = drainOperation(outcome);
    // A drain going on keeps the time it began (what a restarted controller continues from).
    const since =
      startedAt !== undefined && isDrainInProgress(operation)
        ? machine.status?.lastOperation?.lastUpdateTime
        : undefined;
    await this.setStatus(machine, 'Terminating', operation, { operationSince: since });
    if (proceed) return { proceed: true, operation };
    return { proceed: false, result: { requeueAfter: outcome.recheckAfterMs ?? 5000 } };
  }

  /** Tells `onNamespaceEmpty` when no Machine is left in a namespace. */
  private async checkNamespaceEmpty(namespace: string): Promise<void> {
    if (!this.onNamespaceEmpty) return;
    const left = await this.client.list(MachineKind, { namespace });
    const remaining = left.items.filter((m) => !(m.metadata?.deletionTimestamp && !m.metadata.finalizers?.length));
    if (remaining.length === 0) await this.onNamespaceEmpty(namespace);
  }

  /** The health of a machine's Node; an unanswered call is Unreachable, and outages of the shoot are tracked. */
  private async nodeHealth(
    namespace: string,
    nodeName: string,
    now: number,
    failureConditions: readonly string[],
  ): Promise<ShootNodeState | Extract<NodeHealth, { state: 'Unreachable' }> | undefined> {
    if (!this.nodeReady) return undefined;
    try {
      const health = await this.nodeReady(namespace, nodeName, failureConditions, { conditions: true });
      const down = this.unreachableSince.get(namespace);
      if (down !== undefined) {
        this.unreachableSince.delete(namespace);
        if (now - down >= this.options.shootOutageMs) this.backSince.set(namespace, now);
      }
      const back = this.backSince.get(namespace);
      if (back !== undefined && now - back > this.options.healthTimeoutMs) this.backSince.delete(namespace);
      return health;
    } catch (err) {
      if (!this.unreachableSince.has(namespace)) this.unreachableSince.set(namespace, now);
      return { state: 'Unreachable', error: (err as Error).message };
    }
  }

  /**
   * Marks an Unknown machine Failed unless another machine of its MachineDeployment is being replaced (MCM's
   * `maxReplacements`); one at a time per deployment, so two machines never pass the check together.
   */
  private async markFailed(machine: Machine, operation: MachineOperation, ip?: string): Promise<ReconcileResult> {
    const namespace = machine.metadata!.namespace!;
    const deployment = machine.metadata?.labels?.[DeploymentNameLabel];
    const mark = async (): Promise<ReconcileResult> => {
      if (deployment !== undefined && !mayMarkFailed(await this.deploymentMachines(namespace, deployment))) {
        this.log?.warn(
          { machine: `${namespace}/${machine.metadata!.name}`, deployment },
          'the machine cannot be marked Failed yet, another machine of its deployment is being replaced',
        );
        return { requeueAfter: this.options.healthCheckPeriodMs };
      }
      await this.setStatus(machine, 'Failed', operation, { ip });
      return {};
    };
    if (deployment === undefined) return mark();
    const key = `${namespace}/${deployment}`;
    const previous = this.failing.get(key) ?? Promise.resolve();
    const result = previous.then(mark, mark);
    const tail = result.catch(() => undefined);
    this.failing.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.failing.get(key) === tail) this.failing.delete(key);
    }
  }

  /**
   * Writes the machine's phase, last operation (the current one when `operation` is absent) and address, unless they
   * are as they were; `currentStatus.lastUpdateTime` is when the machine entered its phase (timeouts count from it),
   * `lastOperation.lastUpdateTime` when the operation changed, or `operationSince` (an operation going on);
   * `conditions` (the Node's, when known) replace the Machine's copy.
   */
  private async setStatus(
    machine: Machine,
    phase: MachinePhase,
    operation?: MachineOperation,
    extra: { ip?: string; operationSince?: string; conditions?: MachineNodeCondition[] } = {},
  ): Promise<void> {
    const { ip, operationSince } = extra;
    const status = machine.status ?? {};
    const conditions =
      extra.conditions && JSON.stringify(extra.conditions) !== JSON.stringify(status.conditions ?? [])
        ? extra.conditions
        : undefined;
    const addresses = ip ? [{ type: 'InternalIP', address: ip }] : status.addresses;
    const last = status.lastOperation;
    const op = operation ?? {
      type: last?.type ?? 'Create',
      state: (last?.state ?? 'Processing') as MachineOperation['state'],
      description: last?.description ?? '',
    };
    const samePhase = phaseOf(machine) === phase;
    if (
      samePhase &&
      last?.description === op.description &&
      last?.type === op.type &&
      last?.state === op.state &&
      JSON.stringify(status.addresses) === JSON.stringify(addresses) &&
      conditions === undefined
    ) {
      return;
    }
    const at = this.now().toISOString();
    const operationChanged = last?.description !== op.description || last?.type !== op.type || last?.state !== op.state;
    await this.client.patch(
      MachineKind,
      { namespace: machine.metadata!.namespace!, name: machine.metadata!.name! },
      {
        type: 'merge',
        patch: {
          status: {
            currentStatus: {
              phase,
              lastUpdateTime: (samePhase && status.currentStatus?.lastUpdateTime) || at,
              timeoutActive: false,
            },
            lastOperation: {
              ...op,
              lastUpdateTime: operationSince ?? (operationChanged ? at : (last?.lastUpdateTime ?? at)),
            },
            ...(addresses ? { addresses } : {}),
            ...(conditions ? { conditions } : {}),
          },
        },
      },
      { subresource: 'status' },
    );
  }
}
