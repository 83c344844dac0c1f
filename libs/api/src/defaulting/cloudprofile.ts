// defaultCloudProfile: architectures, container runtimes, usability and the image update strategy.
// defaultNamespacedCloudProfile: what Gardener's defaulter gives a NamespacedCloudProfile's spec — its machine types'
// architecture and usability and its volume types' usability (not its machine images: they may only extend the parent's).
import type { CloudProfile, NamespacedCloudProfile } from '../core/v1beta1/cloudprofile.js';
import { setDefault } from './util.js';

type MachineType = { architecture?: string; usable?: boolean };
type VolumeType = { usable?: boolean };

function defaultTypes(spec: { machineTypes?: MachineType[]; volumeTypes?: VolumeType[] }): void {
  for (const type of spec.machineTypes ?? []) {
    setDefault(type, 'architecture', () => 'amd64');
    setDefault(type, 'usable', () => true);
  }
  for (const type of spec.volumeTypes ?? []) setDefault(type, 'usable', () => true);
}

export function defaultCloudProfile(input: CloudProfile): CloudProfile {
  const profile = structuredClone(input);
  for (const image of profile.spec.machineImages ?? []) {
    setDefault(image, 'updateStrategy', () => 'major' as const);
    for (const version of image.versions ?? []) {
      setDefault(version, 'cri', () => [{ name: 'containerd' as const }]);
      setDefault(version, 'architectures', () => ['amd64']);
    }
  }
  defaultTypes(profile.spec);
  return profile;
}

export function defaultNamespacedCloudProfile(input: NamespacedCloudProfile): NamespacedCloudProfile {
  const profile = structuredClone(input);
  if (profile.spec) defaultTypes(profile.spec);
  return profile;
}
