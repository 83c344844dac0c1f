// The shell of the ShootState (Gardener's `shootstate.Deploy`/`Delete`): reads the persisted secrets, the machine
// objects (MachineDeployments, MachineSets, Machines: the `machine-state` entry, ./shootstate-machines.ts), the
// extension resources and what they reference in the control plane namespace of the seed, and writes the ShootState
// named as the Shoot in its project namespace of the garden (merged into an existing one), stamped
// `gardener.cloud/timestamp`.
import { Annotations, corev1beta1 } from '@gardener-ts/api';
import {
  NoKindMatchError,
  SecretKind,
  isNotFound,
  kind,
  kindFrom,
  type Client,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import {
  LabelKeyPersist,
  ShootStateExtensionKinds,
  extensionStatesOf,
  gardenerDataOf,
  mergeShootStateSpec,
  resourceDataOf,
  type ExtensionObjectView,
  type ShootStateSpec,
} from './shootstate.js';
import {
  machineStateEntry,
  machineStateOf,
  type MachineDeploymentObject,
  type MachineObject,
  type MachineSetObject,
} from './shootstate-machines.js';
import type { Shoot } from './kinds.js';

/** The garden's ShootState kind. */
export const ShootStateKind = kindFrom<corev1beta1.ShootState>(corev1beta1.ShootStateKind);

const extensionKind = (name: string) => kind<ExtensionObjectView>('extensions.gardener.cloud/v1alpha1', name);
const machineKind = <T extends KubernetesObject>(name: string) => kind<T>('machine.sapcloud.io/v1alpha1', name);

/**
 * The machine objects of a namespace (Gardener's computeMachineState); none where the seed does not serve the machine
 * API (no machine-controller-manager CRDs).
 */
async function listMachineObjects(
  seed: Pick<Client, 'list'>,
  namespace: string,
): Promise<
  { deployments: MachineDeploymentObject[]; sets: MachineSetObject[]; machines: MachineObject[] } | undefined
> {
  const list = async <T extends KubernetesObject>(name: string) => {
    try {
      return (await seed.list(machineKind<T>(name), { namespace })).items;
    } catch (err) {
      if (err instanceof NoKindMatchError || isNotFound(err)) return undefined;
      throw new Error(`listing the ${name}s of ${namespace} for the ShootState failed`, { cause: err });
    }
  };
  const deployments = await list<KubernetesObject & MachineDeploymentObject>('MachineDeployment');
  if (!deployments) return undefined;
  const sets = (await list<KubernetesObject & MachineSetObject>('MachineSet')) ?? [];
  const machines = (await list<KubernetesObject & MachineObject>('Machine')) ?? [];
  return { deployments, sets, machines };
}

/** Computes the ShootState spec of a control plane namespace from the seed (Gardener's `computeSpec`). */
export async function computeShootStateSpec(
  seed: Pick<Client, 'get' | 'list'>,
  namespace: string,
): Promise<ShootStateSpec> {
  const secrets = await seed.list(SecretKind, { namespace, labelSelector: { [LabelKeyPersist]: 'true' } });
  const spec: Required<ShootStateSpec> = { gardener: gardenerDataOf(secrets.items), extensions: [], resources: [] };
  const machineObjects = await listMachineObjects(seed, namespace);
  const machineState =
    machineObjects &&
    machineStateEntry(machineStateOf(machineObjects.deployments, machineObjects.sets, machineObjects.machines));
  if (machineState) spec.gardener.push(machineState);
  for (const kindName of ShootStateExtensionKinds) {
    let objects: ExtensionObjectView[];
    try {
      objects = (await seed.list(extensionKind(kindName), { namespace })).items;
    } catch (err) {
      throw new Error(`listing the ${kindName} resources of ${namespace} for the ShootState failed`, { cause: err });
    }
    const { states, references } = extensionStatesOf(kindName, objects);
    spec.extensions.push(...states);
    for (const ref of references) {
      let obj: KubernetesObject;
      try {
        obj = await seed.get(kind(ref.apiVersion ?? 'v1', ref.kind), { namespace, name: ref.name });
      } catch (err) {
        throw new Error(`reading ${ref.kind} ${namespace}/${ref.name}, referenced by a ${kindName}, failed`, {
          cause: err,
        });
      }
      spec.resources.push(resourceDataOf(ref, obj));
    }
  }
  return mergeShootStateSpec(undefined, spec);
}

/** The key of a Shoot's ShootState: its name in its project namespace. */
function keyOf(shoot: Shoot) {
  return { namespace: shoot.metadata?.namespace, name: shoot.metadata?.name ?? '' };
}

/** Reads a Shoot's ShootState; undefined when there is none. */
export async function readShootState(
  garden: Pick<Client, 'get'>,
  shoot: Shoot,
): Promise<corev1beta1.ShootState | undefined> {
  try {
    return await garden.get(ShootStateKind, keyOf(shoot));
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw new Error(`reading the ShootState of Shoot ${shoot.metadata?.namespace}/${shoot.metadata?.name} failed`, {
      cause: err,
    });
  }
}

/**
 * "Persisting ShootState in garden cluster": the state of the control plane namespace merged into the Shoot's
 * ShootState (created when missing), stamped with the time. With `overwriteSpec` (the periodic backup, Gardener's
 * `Deploy(..., overwriteSpec=true)`) the computed state replaces the stored one instead. Returns what was written.
 */
export async function deployShootState(
  garden: Pick<Client, 'get' | 'create' | 'patch'>,
  seed: Pick<Client, 'get' | 'list'>,
  shoot: Shoot,
  namespace: string,
  now: Date,
  options: { overwriteSpec?: boolean } = {},
): Promise<corev1beta1.ShootState> {
  const computed = await computeShootStateSpec(seed, namespace);
  const existing = await readShootState(garden, shoot);
  const spec = options.overwriteSpec ? computed : mergeShootStateSpec(existing?.spec, computed);
  const timestamp = { [Annotations.GardenerTimestamp]: now.toISOString().replace(/\.\d{3}Z$/, 'Z') };
  const describe = `ShootState ${shoot.metadata?.namespace}/${shoot.metadata?.name}`;
  try {
    if (!existing) {
      return await garden.create<corev1beta1.ShootState>({
        apiVersion: 'core.gardener.cloud/v1beta1',
        kind: 'ShootState',
        metadata: { ...keyOf(shoot), annotations: timestamp },
        spec,
      });
    }
    // The merged lists replace the stored ones (a merge patch replaces arrays), guarded by the version read.
    return await garden.patch(ShootStateKind, keyOf(shoot), {
      type: 'merge',
      patch: {
        metadata: { annotations: timestamp, resourceVersion: existing.metadata?.resourceVersion },
        spec: {
          gardener: spec.gardener ?? null,
          extensions: spec.extensions ?? null,
          resources: spec.resources ?? null,
        },
      },
    });
  } catch (err) {
    throw new Error(`writing ${describe} failed`, { cause: err });
  }
}

/** "Deleting Shoot State": confirms the deletion (ShootStates are protected) and deletes; gone already is fine. */
export async function deleteShootState(garden: Pick<Client, 'patch' | 'delete'>, shoot: Shoot): Promise<void> {
  try {
    await garden.patch(ShootStateKind, keyOf(shoot), {
      type: 'merge',
      patch: { metadata: { annotations: { [Annotations.ConfirmationDeletion]: 'true' } } },
    });
    await garden.delete(ShootStateKind, keyOf(shoot));
  } catch (err) {
    if (isNotFound(err)) return;
    throw new Error(`deleting the ShootState of Shoot ${shoot.metadata?.namespace}/${shoot.metadata?.name} failed`, {
      cause: err,
    });
  }
}
