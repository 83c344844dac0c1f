// What Gardener's ShootValidator checks of a worker pool's machine beyond its types (plugin/pkg/shoot/validator):
// machine capabilities (GEP-33: the CloudProfile's `spec.machineCapabilities` define every capability and its values,
// a capability a machine type or image flavor leaves out has all of them; a machine type and an image version fit when
// one of the version's `capabilityFlavors` shares at least one value of every capability with the machine type; a
// machine type's CPU architecture is its single `architecture` capability, else its `architecture` field), the minimum
// size of the volume and of each data volume (the machine type's `storage.minSize` for its storage type first, then the
// volume type's `minSize`), and the kubelet's reservations (`kubeReserved` + `systemReserved` CPU and memory must stay below the
// machine type's capacity).
import {
  capabilitiesSupportedByImageFlavors,
  invalid,
  Quantity,
  tryParseQuantity,
  type corev1beta1,
  type FieldError,
  type FieldPath,
  type Shoot,
} from '@gardener-ts/api';

// The capability and architecture helpers live in libs/api (the shoot maintenance filters machine images with them).
export {
  ArchitectureCapability,
  areCapabilitiesCompatible,
  capabilitiesSupportedByImageFlavors,
  capabilitiesWithDefaults,
  imageFlavorsWithDefaults,
  imageVersionArchitectures,
  machineTypeArchitecture,
  type Capabilities,
  type CapabilityDefinition,
} from '@gardener-ts/api';

type CloudProfileSpec = corev1beta1.CloudProfileSpec;
type MachineType = CloudProfileSpec['machineTypes'][number];
type Worker = NonNullable<Shoot['spec']['provider']['workers']>[number];
type KubeletConfig = NonNullable<Shoot['spec']['kubernetes']['kubelet']>;

const sameImage = (a: Worker['machine']['image'], b: Worker['machine']['image']) =>
  a?.name === b?.name && a?.version === b?.version;

/**
 * The pool's machine type and image version against the profile's machine capabilities, when either changed and the
 * profile defines capabilities: some flavor of the image version must fit the machine type (else Invalid value on
 * `machine.image`, listing the versions of the image that would fit). Unknown types and versions are reported by the
 * type and image checks.
 */
export function validateMachineCapabilities(
  worker: Worker,
  oldWorker: Worker | undefined,
  profile: CloudProfileSpec,
  path: FieldPath,
): FieldError[] {
  const definitions = profile.machineCapabilities ?? [];
  const image = worker.machine.image;
  if (definitions.length === 0 || !image?.name || !image.version) return [];
  if (oldWorker && worker.machine.type === oldWorker.machine.type && sameImage(image, oldWorker.machine.image))
    return [];
  const machineType = profile.machineTypes.find((t) => t.name === worker.machine.type);
  const machineImage = profile.machineImages.find((m) => m.name === image.name);
  const version = machineImage?.versions.find((v) => v.version === image.version);
  if (!machineType || !machineImage || !version) return [];
  if (capabilitiesSupportedByImageFlavors(machineType.capabilities, version.capabilityFlavors, definitions)) return [];
  const fitting = machineImage.versions
    .filter((v) => capabilitiesSupportedByImageFlavors(machineType.capabilities, v.capabilityFlavors, definitions))
    .map((v) => `${machineImage.name}:${v.version}`)
    .sort();
  return [
    invalid(
      path.child('machine', 'image'),
      image,
      `machine image version '${image.name}:${image.version}' does not support the capabilities of machine type "${machineType.name}", supported machine image versions are: [${fitting.join(' ')}]`,
    ),
  ];
}

/**
 * Whether `size` is below the minimum Gardener's validateVolumeSize applies to a volume of `type` on a machine of
 * `machineTypeName`: the machine type's `storage.minSize` when its storage type is `type`, then the volume type's
 * `minSize`. Returns the violated minimum; sizes that do not parse are the static validation's to report.
 */
function violatedMinimumSize(
  type: string | undefined,
  sizeText: string | undefined,
  machineTypeName: string,
  profile: CloudProfileSpec,
): Quantity | undefined {
  const size = sizeText !== undefined ? tryParseQuantity(sizeText) : undefined;
  if (!type || !size) return undefined;
  const tooSmall = (minSize: string | number | undefined) => {
    const min = minSize !== undefined ? tryParseQuantity(minSize) : undefined;
    return min && size.cmp(min) < 0 ? min : undefined;
  };
  const machineType = profile.machineTypes.find((t) => t.name === machineTypeName);
  const byMachineType = machineType?.storage?.type === type ? tooSmall(machineType.storage.minSize) : undefined;
  return byMachineType ?? tooSmall((profile.volumeTypes ?? []).find((v) => v.name === type)?.minSize);
}

/**
 * The minimum size of the pool's volume (Gardener's validateVolumeSize): the machine type's `storage.minSize` when its
 * storage type is the volume's type, then the volume type's `minSize`. A size that does not parse is the static
 * validation's to report. Checked on every change of the Shoot, as in Gardener.
 */
export function validateVolumeMinimumSize(worker: Worker, profile: CloudProfileSpec, path: FieldPath): FieldError[] {
  const volume = worker.volume;
  const min = violatedMinimumSize(volume?.type, volume?.size, worker.machine.type, profile);
  return min ? [invalid(path.child('volume', 'size'), volume!.size, `size must be >= ${min.toString()}`)] : [];
}

/**
 * The minimum sizes of the pool's data volumes, by the same rule as the root volume (the machine type's storage
 * minimum when its storage type is the data volume's type, then the volume type's `minSize`):
 * `spec.provider.workers[i].dataVolumes[j].size: Invalid value: "5Gi": size must be >= 20Gi`. A data volume without a
 * type or with a type the profile does not know has no minimum here.
 */
export function validateDataVolumeMinimumSizes(
  worker: Worker,
  profile: CloudProfileSpec,
  path: FieldPath,
): FieldError[] {
  return (worker.dataVolumes ?? []).flatMap((volume, j) => {
    const min = violatedMinimumSize(volume.type, volume.size, worker.machine.type, profile);
    return min
      ? [invalid(path.child('dataVolumes').index(j).child('size'), volume.size, `size must be >= ${min.toString()}`)]
      : [];
  });
}

const sum = (...values: (string | number | undefined)[]) =>
  values.reduce<Quantity>((total, v) => {
    const q = v === undefined ? undefined : tryParseQuantity(v);
    return q ? total.add(q) : total;
  }, Quantity.of(0));

/**
 * The kubelet's reservations against the pool's machine type (Gardener's validateKubeletConfig): `kubeReserved` plus
 * `systemReserved` CPU, and memory, must be less than the machine type's CPU and memory.
 */
export function validateKubeletReservations(
  kubelet: KubeletConfig | undefined,
  machineType: MachineType | undefined,
  path: FieldPath,
): FieldError[] {
  if (!kubelet || !machineType) return [];
  const errors: FieldError[] = [];
  const cpu = sum(kubelet.kubeReserved?.cpu, kubelet.systemReserved?.cpu);
  const memory = sum(kubelet.kubeReserved?.memory, kubelet.systemReserved?.memory);
  const capacityCPU = tryParseQuantity(machineType.cpu);
  const capacityMemory = tryParseQuantity(machineType.memory);
  if (capacityCPU && cpu.cmp(capacityCPU) >= 0)
    errors.push(
      invalid(
        path,
        `kubeReserved CPU + systemReserved CPU: ${cpu.toString()}`,
        `total reserved CPU (kubeReserved + systemReserved) cannot be more than the Node's CPU capacity '${capacityCPU.toString()}'`,
      ),
    );
  if (capacityMemory && memory.cmp(capacityMemory) >= 0)
    errors.push(
      invalid(
        path,
        `kubeReserved memory + systemReserved memory: ${memory.toString()}`,
        `total reserved memory (kubeReserved + systemReserved) cannot be more than the Node's memory capacity '${capacityMemory.toString()}'`,
      ),
    );
  return errors;
}
