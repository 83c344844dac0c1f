// Defaults a Shoot takes from its CloudProfile (done by Gardener's admission plugin before validation): the
// Kubernetes version and the machine images of its worker pools.
import type { CloudProfileSpec, ExpirableVersion } from '../core/v1beta1/cloudprofile.js';
import type { Shoot } from '../core/v1beta1/shoot.js';
import { compareVersions, parseVersion } from '../validation/formats.js';

/** Versions a Shoot may get by default: no preview, no expired ones. */
function defaultable(versions: readonly ExpirableVersion[], now: Date): ExpirableVersion[] {
  return versions.filter(
    (v) =>
      v.classification !== 'preview' &&
      v.classification !== 'expired' &&
      (v.expirationDate === undefined || new Date(v.expirationDate) > now) &&
      parseVersion(v.version) !== undefined,
  );
}

function highest(versions: readonly ExpirableVersion[]): string | undefined {
  return [...versions].sort((a, b) => compareVersions(parseVersion(b.version)!, parseVersion(a.version)!))[0]?.version;
}

/**
 * The version a Shoot gets for `requested`: the highest eligible version when empty, the highest patch of a given
 * `major.minor`, or the requested version itself when it is complete.
 */
export function resolveKubernetesVersion(
  requested: string | undefined,
  profile: CloudProfileSpec,
  now = new Date(),
): string | undefined {
  const candidates = defaultable(profile.kubernetes.versions ?? [], now);
  if (!requested) return highest(candidates);
  const parts = requested.replace(/^v/, '').split('.');
  if (parts.length >= 3) return requested;
  return highest(candidates.filter((v) => v.version.split('.').slice(0, parts.length).join('.') === parts.join('.')));
}

export function applyCloudProfileDefaults(input: Shoot, profile: CloudProfileSpec, now = new Date()): Shoot {
  const shoot = structuredClone(input);
  const version = resolveKubernetesVersion(shoot.spec.kubernetes.version, profile, now);
  if (version) shoot.spec.kubernetes.version = version;

  for (const worker of shoot.spec.provider.workers ?? []) {
    const architecture = worker.machine.architecture ?? 'amd64';
    const supportsArch = (v: { architectures?: string[] }) => (v.architectures ?? ['amd64']).includes(architecture);
    const image = worker.machine.image?.name
      ? profile.machineImages.find((m) => m.name === worker.machine.image?.name)
      : profile.machineImages.find((m) => defaultable(m.versions.filter(supportsArch), now).length > 0);
    if (!image) continue;
    const latest = highest(defaultable(image.versions.filter(supportsArch), now));
    worker.machine.image = { ...worker.machine.image, name: image.name };
    if (!worker.machine.image.version && latest) worker.machine.image.version = latest;
  }
  return shoot;
}
