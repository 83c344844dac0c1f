// The Machine controller of the local machine controller (machine-controller-manager with the local driver): a Pod
// per Machine in the Machine's namespace (image from the MachineClass's `providerSpec.image`, `gardener-ts/machine`
// by default; the user data Secret of the MachineClass mounted at /etc/machine/userdata), the Machine's phase from
// its Pod (Pending → Running when the Pod is ready and, as machine-controller-manager, its Node has joined the shoot
// and is Ready; Failed when it ended), the `node` label and the InternalIP
// address; on deletion Terminating, the Pod deleted, its Node deleted in the shoot (through the `gardener` shoot
// access Secret, as extensions reach a shoot), then the finalizer removed. As machine-controller-manager, a machine
// whose user data carries the `<<BOOTSTRAP_TOKEN>>` placeholder gets its own bootstrap token in the shoot and its own
// user data Secret with the token filled in (see ../../bootstrap-token.ts); the token goes once the machine runs.
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
  phaseOf,
  type Machine,
  type MachineClass,
  type MachinePhase,
} from '../../objects.js';
import { BootstrapTokenPlaceholder, MachineCreationTimeoutMs, withBootstrapToken } from '../../bootstrap-token.js';

const FieldManager = 'provider-local';

/** The image of a machine Pod when the MachineClass names none. */
export const DefaultMachineImage = 'gardener-ts/machine';
/** Where the machine Pod finds its user data (key `userData` of the MachineClass's Secret). */
export const UserDataMountPath = '/etc/machine/userdata';
/** Labels of every machine Pod (the Infrastructure's NetworkPolicy selects them). */
export const MachinePodLabels = { app: 'machine', 'machine.sapcloud.io/provider': 'local' } as const;
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

/**
 * Deletes the Node of a machine in the shoot of a control plane namespace; resolves when it is gone (or was never
 * there), rejects when the shoot cannot be reached.
 */
export type ShootNodeDeleter = (namespace: string, nodeName: string) => Promise<void>;

/**
 * Whether a machine's Node has joined the shoot of a control plane namespace and is Ready; true where no shoot was
 * provisioned (machines of a bare MachineDeployment), rejects when the shoot cannot be reached.
 */
export type ShootNodeReadiness = (namespace: string, nodeName: string) => Promise<boolean>;

/**
 * The bootstrap tokens of machines in the shoot of a control plane namespace: `ensure` returns the machine's token
 * (`<id>.<secret>`), creating its Secret valid until `expiration` when there is none; undefined where no shoot was
 * provisioned (machines of a bare MachineDeployment). `delete` removes it (gone counts as deleted).
 */
export interface MachineBootstrapTokens {
  ensure(namespace: string, machineName: string, expiration: Date): Promise<string | undefined>;
  delete(namespace: string, machineName: string): Promise<void>;
}

/** How long a deleted machine waits for its Node to be deleted in the shoot (MCM's drain timeout plays this role). */
export const NodeDeletionTimeoutMs = 120_000;

/** Reconciles Machines into Pods. */
export class MachineReconciler {
  constructor(
    private readonly client: Pick<Client, 'get' | 'create' | 'patch' | 'delete'>,
    private readonly now: () => Date = () => new Date(),
    private readonly deleteNode?: ShootNodeDeleter,
    private readonly log?: { warn(obj: object, msg: string): void },
    private readonly nodeReady?: ShootNodeReadiness,
    private readonly tokens?: MachineBootstrapTokens,
  ) {}

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
      new Date(this.now().getTime() + MachineCreationTimeoutMs),
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
    if (!machine) return;
    const podKey = { namespace: req.namespace, name: machinePodName(req.name) };

    if (machine.metadata?.deletionTimestamp) {
      await this.setStatus(machine, 'Terminating', 'Delete', 'Processing', 'Deleting the machine Pod');
      const pod = await this.client.get(Kinds.Pod, podKey).catch(ignoreNotFound);
      if (pod) {
        if (!pod.metadata?.deletionTimestamp) await this.client.delete(Kinds.Pod, podKey).catch(ignoreNotFound);
        return { requeueAfter: 1000 };
      }
      // As machine-controller-manager: once the machine is gone, its Node goes from the shoot (a woken-up or
      // rolled pool must not leave NotReady Nodes behind). A shoot that stays unreachable past the timeout does not
      // keep the machine forever.
      const nodeName = machine.metadata?.labels?.[NodeLabel];
      if (nodeName && this.deleteNode) {
        try {
          await this.deleteNode(req.namespace, nodeName);
        } catch (err) {
          const since = Date.parse(machine.metadata.deletionTimestamp);
          if (this.now().getTime() - since < NodeDeletionTimeoutMs) {
            await this.setStatus(
              machine,
              'Terminating',
              'Delete',
              'Processing',
              `Deleting Node ${nodeName} in the shoot: ${(err as Error).message}`,
            );
            return { requeueAfter: 5000 };
          }
          this.log?.warn(
            { err, machine: `${req.namespace}/${req.name}`, node: nodeName },
            'the Node of the deleted machine could not be deleted in the shoot; the machine goes without it',
          );
        }
      }
      await this.deleteToken(machine);
      await this.client
        .delete(Kinds.Secret, { namespace: req.namespace, name: machineUserDataSecretName(req.name) })
        .catch(ignoreNotFound);
      await removeFinalizer(this.client, machine, MCMFinalizer);
      return;
    }

    const current = await addFinalizer(this.client, machine, MCMFinalizer);
    const className = machine.spec?.class?.name;
    const machineClass = className
      ? await this.client.get(MachineClassKind, { namespace: req.namespace, name: className }).catch(ignoreNotFound)
      : undefined;
    if (!machineClass) {
      await this.setStatus(
        current,
        'Pending',
        'Create',
        'Failed',
        `MachineClass ${req.namespace}/${className ?? '<none>'} not found`,
      );
      return { requeueAfter: 5000 };
    }
    let pod = await this.client.get(Kinds.Pod, podKey).catch(ignoreNotFound);
    if (!pod)
      pod = await this.client.create(
        machinePod(current, machineClass, await this.userDataSecretFor(current, machineClass)),
      );

    let phase = phaseFromPod(pod);
    // A machine becomes Running once its Node has joined and is Ready (machine-controller-manager's rule), so a
    // rolled-out Worker means nodes the shoot can schedule on. Once Running, a Node going NotReady does not turn it back.
    let waitingForNode: string | undefined;
    if (phase === 'Running' && phaseOf(current) !== 'Running' && this.nodeReady) {
      const ready = await this.nodeReady(req.namespace, podKey.name).catch((err: unknown) => {
        waitingForNode = `Waiting for Node ${podKey.name} to join the shoot: ${(err as Error).message}`;
        return false;
      });
      if (!ready) {
        phase = 'Pending';
        waitingForNode ??= `Waiting for Node ${podKey.name} to join the shoot and be Ready`;
      }
    }
    // Its node-agent and kubelet have their own credentials now (machine-controller-manager deletes the token here).
    if (phase === 'Running' && phaseOf(current) !== 'Running') await this.deleteToken(current);
    if (current.metadata?.labels?.[NodeLabel] !== podKey.name) {
      await this.client.patch(MachineKind, req, {
        type: 'merge',
        patch: { metadata: { labels: { [NodeLabel]: podKey.name } } },
      });
    }
    await this.setStatus(
      current,
      phase,
      'Create',
      phase === 'Running' ? 'Successful' : phase === 'Failed' ? 'Failed' : 'Processing',
      phase === 'Running'
        ? 'Machine is running'
        : phase === 'Failed'
          ? `Machine Pod ${podKey.name} ended (${pod.status?.phase})`
          : (waitingForNode ?? `Waiting for machine Pod ${podKey.name} to be ready`),
      pod.status?.podIP,
    );
    if (waitingForNode) return { requeueAfter: 1000 };
  }

  private async setStatus(
    machine: Machine,
    phase: MachinePhase,
    type: string,
    state: string,
    description: string,
    ip?: string,
  ): Promise<void> {
    const status = machine.status ?? {};
    const addresses = ip ? [{ type: 'InternalIP', address: ip }] : status.addresses;
    if (
      phaseOf(machine) === phase &&
      status.lastOperation?.description === description &&
      JSON.stringify(status.addresses) === JSON.stringify(addresses)
    ) {
      return;
    }
    const at = this.now().toISOString();
    await this.client.patch(
      MachineKind,
      { namespace: machine.metadata!.namespace!, name: machine.metadata!.name! },
      {
        type: 'merge',
        patch: {
          status: {
            currentStatus: { phase, lastUpdateTime: at, timeoutActive: false },
            lastOperation: { type, state, description, lastUpdateTime: at },
            ...(addresses ? { addresses } : {}),
          },
        },
      },
      { subresource: 'status' },
    );
  }
}
