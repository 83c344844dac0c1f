// The machines of a local Worker through a control plane migration (GEP-22), carried as Gardener carries them: the
// machine objects stay what they were and the shoot keeps its Machines and Node names.
// - Migrate (source seed): the MachineDeployments, MachineSets and Machines are held (the local machine controller
//   leaves them alone, as Gardener deletes machine-controller-manager first) and released — the MCM finalizer removed,
//   no drain, no Node deleted in the shoot — so the gardenlet keeps them in the ShootState's machine state and deletes
//   them shallowly. Gardener keeps the VMs; a local machine's VM is a Pod of this seed, which cannot move: it goes.
// - Restore (destination seed): the machine state (Gardener reads it from the ShootState; here the gardenlet hands it
//   over in the Worker's `status.state.machineDeployments`) is turned back into the MachineSets and Machines of each
//   wanted MachineDeployment, under their names, labels (with `node`), annotations and spec, owned by their
//   deployment and set; held until all exist (Gardener keeps MCM scaled to zero until then). A restored Machine has no
//   status: the machine controller creates its Pod like a new machine's, with a new bootstrap token, and its kubelet
//   registers the same Node again.
import { Kinds, ignoreNotFound, isAlreadyExists, removeFinalizer, type Client } from '@gardener-ts/controller-runtime';
import {
  MCMFinalizer,
  MachineAPIVersion,
  MachineDeploymentKind,
  MachineKind,
  MachineMigrationAnnotation,
  MachineSetKind,
  controllerRef,
  type Machine,
  type MachineDeployment,
  type MachineMigration,
  type MachineSet,
} from '../../machine/objects.js';
import { MachinePodLabels, machineUserDataSecretName } from '../../machine/controller/machine/reconciler.js';

/** The kept state of one MachineDeployment (Gardener's `MachineDeploymentState`). */
export interface MachineDeploymentState {
  replicas?: number;
  machineSets?: MachineSet[];
  machines?: Machine[];
}

/** One MachineDeployment to restore: its kept MachineSets and, per set, its Machines. */
export interface DeploymentRestore {
  name: string;
  replicas?: number;
  machineSets: MachineSet[];
  /** The Machines with the name of the set whose selector they match. */
  machines: { machine: Machine; machineSet: string }[];
  /** Kept machines no kept set selects (not restored: no set would own them). */
  orphans: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/**
 * The machine state handed to a Worker (`status.state.machineDeployments`), by deployment name; empty when there is
 * none. Throws, naming the Worker and the field, when it is not a map of deployment states.
 */
export function machineStateOfWorker(worker: {
  metadata?: { namespace?: string; name?: string };
  status?: { state?: unknown };
}): Record<string, MachineDeploymentState> {
  const state = worker.status?.state;
  const deployments = isObject(state) ? state.machineDeployments : undefined;
  if (deployments === undefined || deployments === null) return {};
  const where = `Worker ${worker.metadata?.namespace}/${worker.metadata?.name}: status.state.machineDeployments`;
  if (!isObject(deployments)) throw new Error(`${where} is not a map of machine deployment states`);
  for (const [name, value] of Object.entries(deployments)) {
    if (!isObject(value)) throw new Error(`${where}[${name}] is not a machine deployment state`);
    for (const field of ['machineSets', 'machines'] as const) {
      const list = value[field];
      if (list !== undefined && (!Array.isArray(list) || list.some((o) => !isObject(o) || !isObject(o.metadata)))) {
        throw new Error(`${where}[${name}].${field} is not a list of objects with metadata`);
      }
    }
  }
  return deployments as Record<string, MachineDeploymentState>;
}

/** Whether every `matchLabels` pair of a set's selector is among a machine's labels. */
function selects(set: MachineSet, machine: Machine): boolean {
  const wanted = set.spec?.selector?.matchLabels ?? {};
  const labels = machine.metadata?.labels ?? {};
  return Object.keys(wanted).length > 0 && Object.entries(wanted).every(([k, v]) => labels[k] === v);
}

/**
 * What to restore (Gardener's addStateToMachineDeployment and removeWantedDeploymentWithoutState): the wanted
 * deployments with kept state and at least one MachineSet, except those in `done` (restored before: they exist and
 * are not held). Each kept machine goes to the set whose selector matches it (machine-controller-manager adopts by
 * selector). Pure.
 */
export function restorePlan(
  state: Record<string, MachineDeploymentState>,
  wanted: readonly string[],
  done: ReadonlySet<string> = new Set(),
): DeploymentRestore[] {
  const plan: DeploymentRestore[] = [];
  for (const name of wanted) {
    const kept = state[name];
    if (!kept || !kept.machineSets?.length || done.has(name)) continue;
    const machines: DeploymentRestore['machines'] = [];
    const orphans: string[] = [];
    for (const machine of kept.machines ?? []) {
      const set = kept.machineSets.find((s) => selects(s, machine));
      if (set) machines.push({ machine, machineSet: set.metadata!.name! });
      else orphans.push(machine.metadata?.name ?? '');
    }
    plan.push({
      name,
      ...(kept.replicas !== undefined ? { replicas: kept.replicas } : {}),
      machineSets: kept.machineSets,
      machines,
      orphans,
    });
  }
  return plan;
}

/** A kept object as it is created again in `namespace`: its name, labels, annotations and spec, held, owned. */
function recreated<T extends MachineSet | Machine>(
  kept: T,
  kind: 'MachineSet' | 'Machine',
  namespace: string,
  owner: ReturnType<typeof controllerRef>,
): T {
  return {
    apiVersion: MachineAPIVersion,
    kind,
    metadata: {
      name: kept.metadata!.name!,
      namespace,
      ...(kept.metadata?.labels ? { labels: { ...kept.metadata.labels } } : {}),
      annotations: { ...kept.metadata?.annotations, [MachineMigrationAnnotation]: 'restore' },
      ownerReferences: [owner],
    },
    ...(kept.spec !== undefined ? { spec: structuredClone(kept.spec) } : {}),
  } as unknown as T;
}

type SeedClient = Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'>;

async function createOrGet<T extends MachineSet | Machine>(client: SeedClient, obj: T): Promise<T> {
  try {
    return (await client.create(obj)) as T;
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    const key = { namespace: obj.metadata!.namespace!, name: obj.metadata!.name! };
    return (
      obj.kind === 'MachineSet' ? await client.get(MachineSetKind, key) : await client.get(MachineKind, key)
    ) as T;
  }
}

/**
 * Creates the MachineSets and Machines of a planned deployment, held, owned by `deployment` (written already) and
 * their set. Objects that exist already (a restore that is retried) are kept.
 */
export async function restoreDeployment(
  client: SeedClient,
  deployment: MachineDeployment,
  restore: DeploymentRestore,
): Promise<{ machineSets: string[]; machines: string[] }> {
  const namespace = deployment.metadata!.namespace!;
  const owner = controllerRef({ ...deployment, apiVersion: MachineAPIVersion, kind: 'MachineDeployment' });
  const sets = new Map<string, MachineSet>();
  for (const kept of restore.machineSets) {
    const set = await createOrGet(client, recreated(kept, 'MachineSet', namespace, owner));
    sets.set(kept.metadata!.name!, { ...set, apiVersion: MachineAPIVersion, kind: 'MachineSet' });
  }
  for (const { machine, machineSet } of restore.machines) {
    await createOrGet(client, recreated(machine, 'Machine', namespace, controllerRef(sets.get(machineSet)!)));
  }
  return { machineSets: [...sets.keys()], machines: restore.machines.map((m) => m.machine.metadata!.name!) };
}

/** Sets (`migrate`/`restore`) or removes (undefined) the migration hold of a machine object. */
export async function setMigrationHold(
  client: Pick<Client, 'patch'>,
  kind: typeof MachineDeploymentKind | typeof MachineSetKind | typeof MachineKind,
  key: { namespace: string; name: string },
  hold: MachineMigration | undefined,
): Promise<void> {
  await client
    .patch(kind as typeof MachineKind, key, {
      type: 'merge',
      patch: { metadata: { annotations: { [MachineMigrationAnnotation]: hold ?? null } } },
    })
    .catch(ignoreNotFound);
}

/**
 * Migrate of the machines of a namespace: every MachineDeployment, MachineSet and Machine held (`migrate`) and
 * released (MCM finalizer removed), the machine Pods and the machines' user data Secrets deleted. The shoot is not
 * touched: its Nodes stay, undrained. Returns how many machine Pods are still there (terminating).
 */
export async function releaseMachines(client: SeedClient, namespace: string): Promise<number> {
  const kinds = [MachineDeploymentKind, MachineSetKind, MachineKind] as const;
  const objects = [];
  for (const kind of kinds) {
    for (const obj of (await client.list(kind as typeof MachineKind, { namespace })).items) {
      objects.push({ kind, obj });
    }
  }
  // First all held, so no controller acts on one while the others are released.
  for (const { kind, obj } of objects) {
    await setMigrationHold(client, kind, { namespace, name: obj.metadata!.name! }, 'migrate');
  }
  for (const { kind, obj } of objects) {
    await removeFinalizer(
      client,
      {
        ...obj,
        apiVersion: MachineAPIVersion,
        kind: kind.kind,
        metadata: { ...obj.metadata, resourceVersion: undefined },
      },
      MCMFinalizer,
    );
  }
  // A local VM is a Pod of this seed: it cannot move with the control plane. The destination creates it again.
  for (const { kind, obj } of objects) {
    if (kind !== MachineKind) continue;
    await client
      .delete(Kinds.Secret, { namespace, name: machineUserDataSecretName(obj.metadata!.name!) })
      .catch(ignoreNotFound);
  }
  const pods = (await client.list(Kinds.Pod, { namespace, labelSelector: { ...MachinePodLabels } })).items;
  for (const pod of pods) {
    if (!pod.metadata?.deletionTimestamp) {
      await client.delete(Kinds.Pod, { namespace, name: pod.metadata!.name! }).catch(ignoreNotFound);
    }
  }
  return pods.length;
}
