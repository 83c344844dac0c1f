// The machine.sapcloud.io objects the local machine controller works on (Gardener's vendored CRDs), their kinds, and
// the labels and names machine-controller-manager uses: `machine-template-hash` on MachineSets and Machines, the
// `node` label on a Machine naming its Node, and the MCM finalizer.
import { createHash } from 'node:crypto';
import type { machinev1alpha1 } from '@gardener-ts/api';
import { kind, type KubernetesObject } from '@gardener-ts/controller-runtime';

/** A MachineDeployment. */
export type MachineDeployment = machinev1alpha1.MachineDeployment & KubernetesObject;
/** A MachineSet. */
export type MachineSet = machinev1alpha1.MachineSet & KubernetesObject;
/** A Machine. */
export type Machine = machinev1alpha1.Machine & KubernetesObject;
/** A MachineClass. */
export type MachineClass = machinev1alpha1.MachineClass & KubernetesObject;
/** The Machine template of a MachineDeployment or MachineSet. */
export type MachineTemplate = MachineDeployment extends { spec?: infer S }
  ? NonNullable<S> extends { template: infer T }
    ? T
    : never
  : never;

export const MachineAPIVersion = 'machine.sapcloud.io/v1alpha1';
export const MachineDeploymentKind = kind<MachineDeployment>(MachineAPIVersion, 'MachineDeployment');
export const MachineSetKind = kind<MachineSet>(MachineAPIVersion, 'MachineSet');
export const MachineKind = kind<Machine>(MachineAPIVersion, 'Machine');
export const MachineClassKind = kind<MachineClass>(MachineAPIVersion, 'MachineClass');

/** The label with the hash of the Machine template a MachineSet and its Machines were made from. */
export const MachineTemplateHashLabel = 'machine-template-hash';
/** The label on a Machine naming its Node (machine-controller-manager's). */
export const NodeLabel = 'node';
/** machine-controller-manager's finalizer on Machines, MachineSets and MachineDeployments. */
export const MCMFinalizer = 'machine.sapcloud.io/machine-controller-manager';
/** The phases of a Machine (`status.currentStatus.phase`). */
export type MachinePhase = 'Pending' | 'Running' | 'Terminating' | 'Failed' | 'Unknown';

/** A short, stable hash of a Machine template (what makes a MachineSet "new" for a deployment). */
export function templateHash(template: unknown): string {
  return createHash('sha256').update(canonicalJSON(template)).digest('hex').slice(0, 10);
}

function canonicalJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJSON(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The owner reference making `owner` the controller of another object. */
export function controllerRef(owner: KubernetesObject) {
  return {
    apiVersion: owner.apiVersion!,
    kind: owner.kind!,
    name: owner.metadata!.name!,
    uid: owner.metadata!.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Whether `obj` is controlled by `owner`. */
export function isControlledBy(obj: KubernetesObject, owner: KubernetesObject): boolean {
  return (obj.metadata?.ownerReferences ?? []).some((r) => r.controller && r.uid === owner.metadata?.uid);
}

/** The phase of a Machine. */
export function phaseOf(machine: Machine): MachinePhase | undefined {
  return machine.status?.currentStatus?.phase as MachinePhase | undefined;
}

/** Whether a Machine counts as available: Running and not being deleted. */
export function isAvailable(machine: Machine): boolean {
  return phaseOf(machine) === 'Running' && !machine.metadata?.deletionTimestamp;
}

/**
 * The annotation holding a machine object (Machine, MachineSet, MachineDeployment) during a control plane migration:
 * `migrate` in the source seed (the objects are released, their machine Pods go, the shoot's Nodes stay), `restore`
 * in the destination seed while the Worker recreates them from the machine state. The local machine controllers leave
 * a held object alone, as Gardener's machine-controller-manager is deleted (source) or still scaled to zero
 * (destination) then. provider-local's own: its machine controller serves every shoot of the seed, it cannot be
 * stopped for one.
 */
export const MachineMigrationAnnotation = 'local.gardener.cloud/machine-migration';
/** The values of {@link MachineMigrationAnnotation}. */
export type MachineMigration = 'migrate' | 'restore';

/** The migration holding a machine object, if one does. */
export function migrationOf(obj: KubernetesObject): MachineMigration | undefined {
  const value = obj.metadata?.annotations?.[MachineMigrationAnnotation];
  return value === 'migrate' || value === 'restore' ? value : undefined;
}
