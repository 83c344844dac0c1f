// defaultCloudProfile: architectures, container runtimes, usability and the image update strategy.
import type { CloudProfile } from '../core/v1beta1/cloudprofile.js';
import { setDefault } from './util.js';

export function defaultCloudProfile(input: CloudProfile): CloudProfile {
  const profile = structuredClone(input);
  for (const image of profile.spec.machineImages ?? []) {
    setDefault(image, 'updateStrategy', () => 'major' as const);
    for (const version of image.versions ?? []) {
      setDefault(version, 'cri', () => [{ name: 'containerd' as const }]);
      setDefault(version, 'architectures', () => ['amd64']);
    }
  }
  for (const type of profile.spec.machineTypes ?? []) {
    setDefault(type, 'architecture', () => 'amd64');
    setDefault(type, 'usable', () => true);
  }
  for (const type of profile.spec.volumeTypes ?? []) setDefault(type, 'usable', () => true);
  return profile;
}
