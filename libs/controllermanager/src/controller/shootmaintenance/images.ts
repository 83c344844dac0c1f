// The machine image versions a worker pool may be maintained to (Gardener's shoot maintenance helper
// FilterMachineImageVersions): of the CloudProfile's versions of the pool's image, those offering the pool's CPU
// architecture (with machine capabilities: through the versions' capability flavors), fitting the machine type's
// capabilities (when the profile defines capabilities), offering the pool's CRI and container runtimes (containerd
// when the pool names none), accepting the pool's kubelet version (`kubeletVersionConstraint`) and — for pools updated
// in place — supporting in-place updates from the pool's current version (`inPlaceUpdates.minVersionForUpdate`).
// Versions that do not fit count as not offered: a pool on one of them is force-updated. Pure.
import {
  capabilitiesSupportedByImageFlavors,
  imageVersionArchitectures,
  satisfiesKubeletVersionConstraint,
  supportsCRI,
  type CapabilityDefinition,
  type CloudProfile,
  type Shoot,
} from '@gardener-ts/api';
import { compareVersions } from './versions.js';

type MachineImage = CloudProfile['spec']['machineImages'][number];
type MachineImageVersion = MachineImage['versions'][number];
type MachineType = CloudProfile['spec']['machineTypes'][number];
/** A worker pool of a Shoot. */
export type Worker = NonNullable<Shoot['spec']['provider']['workers']>[number];

/** Whether the pool is updated in place (`AutoInPlaceUpdate`, `ManualInPlaceUpdate`) instead of rolled. */
export const isInPlaceUpdate = (worker: Pick<Worker, 'updateStrategy'>) =>
  worker.updateStrategy === 'AutoInPlaceUpdate' || worker.updateStrategy === 'ManualInPlaceUpdate';

/** The kubelet version of a pool (Gardener's CalculateEffectiveKubernetesVersion): its own, else the control plane's. */
export const effectiveKubeletVersion = (controlPlaneVersion: string, worker: Pick<Worker, 'kubernetes'>) =>
  worker.kubernetes?.version ?? controlPlaneVersion;

/** Whether an in-place pool on `current` can move to `version` in place (or stay on it). */
function inPlaceReachable(version: MachineImageVersion, current: string | undefined): boolean {
  if (current === undefined || !version.inPlaceUpdates?.supported) return false;
  if (version.version === current) return true;
  const min = version.inPlaceUpdates.minVersionForUpdate;
  return min !== undefined && compareVersions(min, current) <= 0;
}

/** The reasons a machine image version does not fit the pool (empty when it fits). */
export function machineImageVersionMisfits(
  version: MachineImageVersion,
  worker: Worker,
  kubeletVersion: string,
  machineType: Pick<MachineType, 'capabilities'>,
  definitions: readonly CapabilityDefinition[],
): string[] {
  const misfits: string[] = [];
  const architecture = worker.machine.architecture ?? 'amd64';
  if (!imageVersionArchitectures(version, definitions).includes(architecture)) misfits.push('architecture');
  if (
    definitions.length > 0 &&
    !capabilitiesSupportedByImageFlavors(machineType.capabilities, version.capabilityFlavors, definitions)
  )
    misfits.push('capabilities');
  if (!supportsCRI(version, worker.cri)) misfits.push('cri');
  if (
    version.kubeletVersionConstraint !== undefined &&
    satisfiesKubeletVersionConstraint(kubeletVersion, version.kubeletVersionConstraint) === false
  )
    misfits.push('kubeletVersionConstraint');
  if (isInPlaceUpdate(worker) && !inPlaceReachable(version, worker.machine.image?.version))
    misfits.push('inPlaceUpdates');
  return misfits;
}

/** The pool's machine image with only the versions that fit the pool (see the file header). */
export function filterMachineImageVersions(
  image: MachineImage,
  worker: Worker,
  kubeletVersion: string,
  machineType: Pick<MachineType, 'capabilities'>,
  definitions: readonly CapabilityDefinition[] = [],
): MachineImage {
  return {
    ...image,
    versions: image.versions.filter(
      (v) => machineImageVersionMisfits(v, worker, kubeletVersion, machineType, definitions).length === 0,
    ),
  };
}
