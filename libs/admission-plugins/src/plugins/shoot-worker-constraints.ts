// What a worker pool's machine may be, as Gardener's ShootValidator checks it against the CloudProfile
// (plugin/pkg/shoot/validator validateWorkerMachine, validateWorkerVolume, validateContainerRuntimeInterface): the
// machine type and the volume type must be offered, usable, of the pool's architecture (with machine capabilities, the
// type's single `architecture` capability) and available in every zone of
// the pool (a region's zones list `unavailableMachineTypes`/`unavailableVolumeTypes`); the machine image version must
// offer the pool's CRI and each of its container runtimes (`cri` of the profile's image version).
import {
  invalid,
  notSupported,
  offeredCRIs,
  type corev1beta1,
  type FieldError,
  type FieldPath,
  type Shoot,
} from '@gardener-ts/api';
import { machineTypeArchitecture } from './shoot-worker-machine.js';

type CloudProfileSpec = corev1beta1.CloudProfileSpec;
type Region = CloudProfileSpec['regions'][number];
type Worker = NonNullable<Shoot['spec']['provider']['workers']>[number];

/** Go's `%+v` of a string slice: `[a b]`. */
const goList = (values: readonly string[]) => `[${values.join(' ')}]`;

/** Whether `type` is listed as unavailable in one of `zones` of the Shoot's region (Gardener's isUnavailableInAtleastOneZone). */
function unavailableInSomeZone(
  region: Region | undefined,
  zones: readonly string[] | undefined,
  type: string,
  unavailable: (zone: NonNullable<Region['zones']>[number]) => readonly string[] | undefined,
): boolean {
  return (zones ?? []).some((name) =>
    (region?.zones ?? []).some((zone) => zone.name === name && (unavailable(zone) ?? []).includes(type)),
  );
}

/** Gardener's Invalid value for a type the profile has but the pool cannot use, naming each reason (none: no error). */
function unusableType(
  path: FieldPath,
  noun: 'machine type' | 'volume type',
  type: string,
  supported: readonly string[],
  reasons: readonly (string | false)[],
): FieldError[] {
  const detail = reasons.filter(Boolean).map((reason) => `${reason as string}, `);
  if (detail.length === 0) return [];
  return [invalid(path, type, `${noun} "${type}" ${detail.join('')}supported types are ${goList(supported)}`)];
}

/** Types of the profile whose `usable` is not false (CloudProfile defaulting makes it true). */
const isUsable = (t: { usable?: boolean }) => t.usable !== false;

/**
 * The pool's machine type when it or the architecture changed: offered by the profile (else Unsupported value with
 * the types the pool could use), usable, of the pool's architecture and available in all of the pool's zones (else
 * Invalid value naming what is wrong).
 */
export function validateMachineType(
  worker: Worker,
  oldWorker: Worker | undefined,
  profile: CloudProfileSpec,
  region: Region | undefined,
  path: FieldPath,
): FieldError[] {
  const type = worker.machine.type;
  const architecture = worker.machine.architecture ?? 'amd64';
  if (type === oldWorker?.machine.type && architecture === (oldWorker.machine.architecture ?? 'amd64')) return [];
  const available = (name: string) =>
    !unavailableInSomeZone(region, worker.zones, name, (zone) => zone.unavailableMachineTypes);
  const supported = profile.machineTypes
    .filter((t) => machineTypeArchitecture(t) === architecture && available(t.name) && isUsable(t))
    .map((t) => t.name)
    .sort();
  const machineType = profile.machineTypes.find((t) => t.name === type);
  const typePath = path.child('machine', 'type');
  if (!machineType) return [notSupported(typePath, type, supported)];
  return unusableType(typePath, 'machine type', type, supported, [
    !isUsable(machineType) && 'is unusable',
    !available(type) && 'is unavailable in at least one zone',
    machineTypeArchitecture(machineType) !== architecture && `does not support CPU architecture "${architecture}"`,
  ]);
}

/**
 * The pool's volume type when it changed: offered by the profile (else Unsupported value), usable and available in all
 * of the pool's zones (else Invalid value naming what is wrong).
 */
export function validateVolumeType(
  worker: Worker,
  oldWorker: Worker | undefined,
  profile: CloudProfileSpec,
  region: Region | undefined,
  path: FieldPath,
): FieldError[] {
  const type = worker.volume?.type;
  if (!type || type === oldWorker?.volume?.type) return [];
  const volumeTypes = profile.volumeTypes ?? [];
  const available = (name: string) =>
    !unavailableInSomeZone(region, worker.zones, name, (zone) => zone.unavailableVolumeTypes);
  const supported = volumeTypes
    .filter((v) => isUsable(v) && available(v.name))
    .map((v) => v.name)
    .sort();
  const volumeType = volumeTypes.find((v) => v.name === type);
  const typePath = path.child('volume', 'type');
  if (!volumeType) return [notSupported(typePath, type, supported)];
  return unusableType(typePath, 'volume type', type, supported, [
    !isUsable(volumeType) && 'is unusable',
    !available(type) && 'is unavailable in at least one zone',
  ]);
}

/**
 * The pool's CRI and container runtimes when they or the machine image changed: the profile's machine image version
 * must offer the CRI (`cri[].name`; a version without `cri` offers containerd, the CloudProfile default) and each
 * container runtime type of it. An image version the profile does not have is reported by the image check.
 */
export function validateContainerRuntimeInterface(
  worker: Worker,
  oldWorker: Worker | undefined,
  machineImages: CloudProfileSpec['machineImages'],
  path: FieldPath,
): FieldError[] {
  const cri = worker.cri;
  const image = worker.machine.image;
  if (!cri || !image) return [];
  if (
    JSON.stringify(cri) === JSON.stringify(oldWorker?.cri) &&
    JSON.stringify(image) === JSON.stringify(oldWorker?.machine.image)
  )
    return [];
  const version = machineImages.find((m) => m.name === image.name)?.versions.find((v) => v.version === image.version);
  if (!version) return [];
  const offered = offeredCRIs(version);
  const reference = `${image.name}@${image.version}`;
  const criPath = path.child('cri');
  const found = offered.find((c) => c.name === cri.name);
  if (!found)
    return [
      invalid(
        criPath.child('name'),
        cri.name,
        `machine image '${reference}' does not support CRI '${cri.name}', supported values: ${goList(offered.map((c) => c.name))}`,
      ),
    ];
  const runtimes = (found.containerRuntimes ?? []).map((r) => r.type);
  return (cri.containerRuntimes ?? []).flatMap((runtime, j) =>
    runtimes.includes(runtime.type)
      ? []
      : [
          invalid(
            criPath.child('containerRuntimes').index(j).child('type'),
            runtime.type,
            `machine image '${reference}' does not support container runtime '${runtime.type}', supported values: ${goList(runtimes)}`,
          ),
        ],
  );
}
