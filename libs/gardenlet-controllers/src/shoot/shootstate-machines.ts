// The machine state of a ShootState (Gardener's `pkg/utils/gardener/shootstate/machines.go`): per MachineDeployment of
// the control plane namespace its replicas, its MachineSets and their Machines (only machines that have a Node — the
// `node` label — or a provider ID), each reduced to name, namespace, labels, annotations and spec (no status, no owner
// references: the machine controller adopts them again). It is kept in `spec.gardener` as the entry `machine-state`
// (type `machine-state`) whose data is `{"state": <base64 of the gzipped JSON>}`; no machine deployment, no entry.
// On restore the Worker of the destination seed recreates the MachineSets and Machines under their names, so the
// shoot keeps its machines and Node names. Pure, except for gzip.
import { gunzipSync, gzipSync, constants as zlib } from 'node:zlib';
import type { machinev1alpha1 } from '@gardener-ts/api';
import type { GardenerResourceData, ShootStateSpec } from './shootstate.js';

/** `spec.gardener[].name` and `.type` of the machine state (Gardener's `DataTypeMachineState`). */
export const DataTypeMachineState = 'machine-state';

type Meta = {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
};
type OwnerReference = { kind?: string; name?: string };

/** A MachineSet as read in the seed (the fields the machine state looks at). */
export type MachineSetObject = Omit<machinev1alpha1.MachineSet, 'metadata'> & {
  metadata?: Meta & { ownerReferences?: OwnerReference[] } & Record<string, unknown>;
};
/** A Machine as read in the seed (the fields the machine state looks at). */
export type MachineObject = Omit<machinev1alpha1.Machine, 'metadata'> & {
  metadata?: Meta & { ownerReferences?: OwnerReference[] } & Record<string, unknown>;
};
/** A MachineDeployment as read in the seed (the fields the machine state looks at). */
export interface MachineDeploymentObject {
  metadata?: { name?: string };
  spec?: { replicas?: number };
}

/** A MachineSet or Machine as the machine state keeps it. */
export interface KeptObject<S> {
  apiVersion?: string;
  kind?: string;
  metadata: Meta;
  spec?: S;
}

/** The kept state of one MachineDeployment (Gardener's `MachineDeploymentState`). */
export interface MachineDeploymentState {
  replicas?: number;
  machineSets?: KeptObject<machinev1alpha1.MachineSetSpec>[];
  machines?: KeptObject<machinev1alpha1.MachineSpec>[];
}

/** The machine state of a control plane namespace (Gardener's `MachineState`), by MachineDeployment name. */
export interface MachineState {
  machineDeployments?: Record<string, MachineDeploymentState>;
}

/** The label machine-controller-manager groups machine objects by when they have no owner reference. */
const DeploymentNameLabel = 'name';
/** The label naming a machine's Node. */
const NodeLabel = 'node';

const byName = (a: { metadata?: { name?: string } }, b: { metadata?: { name?: string } }) => {
  const x = a.metadata?.name ?? '';
  const y = b.metadata?.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The owner of a machine object: its owner reference of `kind`, else its `name` label (Gardener's BuildOwnerTo*Map). */
function ownersOf(
  obj: { metadata?: { ownerReferences?: OwnerReference[]; labels?: Record<string, string> } },
  kind: string,
): string[] {
  const refs = obj.metadata?.ownerReferences ?? [];
  if (refs.length > 0) return refs.filter((r) => r.kind === kind && r.name).map((r) => r.name!);
  const label = obj.metadata?.labels?.[DeploymentNameLabel];
  return label ? [label] : [];
}

/** Name, namespace, labels, annotations and spec: what is kept of a machine object (Gardener's resetObjectMeta). */
function kept<S>(obj: { apiVersion?: string; kind?: string; metadata?: Meta; spec?: S }): KeptObject<S> {
  const m = obj.metadata ?? {};
  return {
    ...(obj.apiVersion ? { apiVersion: obj.apiVersion } : {}),
    ...(obj.kind ? { kind: obj.kind } : {}),
    metadata: {
      name: m.name ?? '',
      ...(m.namespace ? { namespace: m.namespace } : {}),
      ...(m.annotations ? { annotations: { ...m.annotations } } : {}),
      ...(m.labels ? { labels: { ...m.labels } } : {}),
    },
    ...(obj.spec !== undefined ? { spec: structuredClone(obj.spec) } : {}),
  };
}

/**
 * The machine state of a namespace's MachineDeployments, MachineSets and Machines (Gardener's computeMachineState):
 * a deployment without a MachineSet is left out; machines without a Node (no `node` label) and provider ID are left
 * out (created but never joined); sets and machines sorted by name (a state that did not change compares equal).
 */
export function machineStateOf(
  deployments: readonly MachineDeploymentObject[],
  machineSets: readonly MachineSetObject[],
  machines: readonly MachineObject[],
): MachineState {
  const setsOf = new Map<string, MachineSetObject[]>();
  for (const set of [...machineSets].sort(byName)) {
    for (const owner of ownersOf(set, 'MachineDeployment')) setsOf.set(owner, [...(setsOf.get(owner) ?? []), set]);
  }
  const machinesOf = new Map<string, MachineObject[]>();
  const joined = machines.filter((m) => m.metadata?.labels?.[NodeLabel] !== undefined || Boolean(m.spec?.providerID));
  for (const machine of [...joined].sort(byName)) {
    for (const owner of ownersOf(machine, 'MachineSet')) {
      machinesOf.set(owner, [...(machinesOf.get(owner) ?? []), machine]);
    }
  }
  const state: Record<string, MachineDeploymentState> = {};
  for (const deployment of deployments) {
    const name = deployment.metadata?.name ?? '';
    const sets = setsOf.get(name);
    if (!sets) continue;
    // Machines owned by the deployment itself (a `name` label without a set), then those of each set.
    const owned = [
      ...(machinesOf.get(name) ?? []),
      ...sets.flatMap((s) => machinesOf.get(s.metadata?.name ?? '') ?? []),
    ];
    state[name] = {
      ...(deployment.spec?.replicas ? { replicas: deployment.spec.replicas } : {}),
      machineSets: sets.map((s) => kept(s)),
      ...(owned.length > 0 ? { machines: owned.map((m) => kept(m)) } : {}),
    };
  }
  return Object.keys(state).length > 0 ? { machineDeployments: state } : {};
}

/** The `machine-state` data: `{state: <base64 gzip of the JSON>}`; undefined for an empty state (Gardener keeps none). */
export function encodeMachineState(state: MachineState): { state: string } | undefined {
  const json = JSON.stringify(state);
  if (json === '{}') return undefined;
  return { state: gzipSync(Buffer.from(json, 'utf8'), { level: zlib.Z_BEST_COMPRESSION }).toString('base64') };
}

/**
 * The machine state of `machine-state` data (Gardener's UnmarshalMachineState); empty for no data, `null` or an empty
 * `state`. Throws, naming what is wrong, for data that is not gzipped machine state JSON.
 */
export function decodeMachineState(data: unknown): MachineState {
  if (data == null) return {};
  const compressed = (data as { state?: unknown }).state;
  if (typeof data !== 'object' || (compressed !== undefined && typeof compressed !== 'string')) {
    throw new Error(`the machine state data is not {"state": "<base64 gzip>"}`);
  }
  if (!compressed) return {};
  let json: string;
  try {
    json = gunzipSync(Buffer.from(compressed, 'base64')).toString('utf8');
  } catch (err) {
    throw new Error('failed decompressing machine state', { cause: err });
  }
  if (json === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    throw new Error('failed decoding machine state', { cause: err });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error('failed decoding machine state: not an object');
  }
  return parsed as MachineState;
}

/** The `spec.gardener` entry of a machine state; undefined for an empty state. */
export function machineStateEntry(state: MachineState): GardenerResourceData | undefined {
  const data = encodeMachineState(state);
  return data ? { name: DataTypeMachineState, type: DataTypeMachineState, data } : undefined;
}

/** The machine state a ShootState keeps (its `machine-state` entry of type `machine-state`); empty when none. */
export function machineStateFrom(spec: ShootStateSpec | undefined): MachineState {
  const entry = (spec?.gardener ?? []).find((d) => d.name === DataTypeMachineState && d.type === DataTypeMachineState);
  return entry ? decodeMachineState(entry.data) : {};
}

/**
 * The `status.state` the restore gives the shoot's Worker: its own kept state with the machine state's
 * `machineDeployments` added. A gardener-ts deviation: Gardener's Worker actuator reads the machine state from the
 * ShootState in the garden itself; extensions here have no garden access, so the gardenlet hands it over in the
 * Worker's state (where Gardener's Worker kept its machine state before the state moved to `spec.gardener`).
 * Undefined when there is neither.
 */
export function workerRestoreState(ownState: unknown, machineState: MachineState): unknown {
  const deployments = machineState.machineDeployments;
  if (!deployments || Object.keys(deployments).length === 0) return ownState ?? undefined;
  const own = ownState && typeof ownState === 'object' && !Array.isArray(ownState) ? ownState : {};
  return { ...own, machineDeployments: deployments };
}
