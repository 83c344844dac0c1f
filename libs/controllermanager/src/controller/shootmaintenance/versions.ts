// Which versions maintenance moves a shoot to (Gardener's shoot maintenance helpers): the Kubernetes version to the
// latest qualifying patch of its minor (auto-update), or — when its version is expired or gone from the CloudProfile —
// that, else the latest patch of the next minor (forced); machine images to the latest qualifying version their
// image's update strategy allows (`major` by default, `minor`: same major, `patch`: same minor). Qualifying: neither
// preview, unavailable nor expired. Pure.
import type { CloudProfile } from '@gardener-ts/api';

/** A CloudProfile version entry (Kubernetes or machine image). */
export interface VersionEntry {
  version: string;
  classification?: string;
  expirationDate?: string;
  lifecycle?: { classification: string; startTime?: string }[];
}

/** The classification of a version at `now`: its lifecycle stage, else its classification (expired once its date passed). */
export function currentClassification(v: VersionEntry, now: Date): string {
  if (v.lifecycle && v.lifecycle.length > 0) {
    let current = 'unavailable';
    for (const stage of v.lifecycle) {
      if (!stage.startTime || new Date(stage.startTime).getTime() <= now.getTime()) current = stage.classification;
    }
    return current;
  }
  if (v.expirationDate && new Date(v.expirationDate).getTime() <= now.getTime()) return 'expired';
  return v.classification ?? 'supported';
}

const qualifies = (v: VersionEntry, now: Date) =>
  !['preview', 'unavailable', 'expired'].includes(currentClassification(v, now));

/** `major.minor.patch` as numbers (missing parts 0, pre-release ignored); undefined when not a version. */
export function parseVersion(version: string): [number, number, number] | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:[-+].*)?$/.exec(version);
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : undefined;
}

/** Compares two versions numerically. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [parseVersion(a) ?? [0, 0, 0], parseVersion(b) ?? [0, 0, 0]];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/** The highest qualifying version above `current` that `accept` allows; '' when there is none. */
function highest(
  entries: readonly VersionEntry[],
  current: string,
  now: Date,
  accept: (v: [number, number, number]) => boolean,
): string {
  let best = '';
  for (const e of entries) {
    const parsed = parseVersion(e.version);
    if (!parsed || !qualifies(e, now) || !accept(parsed) || compareVersions(e.version, current) <= 0) continue;
    if (!best || compareVersions(e.version, best) > 0) best = e.version;
  }
  return best;
}

/** Why and how a version is to be updated. */
export interface UpdateDecision {
  reason: string;
  forced: boolean;
}

/** Gardener's shouldKubernetesVersionBeUpdated. */
export function kubernetesUpdateReason(
  version: string,
  autoUpdate: boolean,
  profile: CloudProfile,
  now: Date,
): UpdateDecision | undefined {
  const entry = (profile.spec.kubernetes?.versions ?? []).find((v) => v.version === version);
  if (!entry) return { reason: 'Version does not exist in CloudProfile', forced: true };
  if (currentClassification(entry, now) === 'expired')
    return { reason: 'Kubernetes version expired - force update required', forced: true };
  if (autoUpdate) return { reason: 'Automatic update of Kubernetes version configured', forced: false };
  return undefined;
}

/** The Kubernetes version to move to ('' when already the latest), or an error when a forced update finds none. */
export function nextKubernetesVersion(
  version: string,
  profile: CloudProfile,
  forced: boolean,
  now: Date,
): { version: string } | { error: string } {
  const versions = profile.spec.kubernetes?.versions ?? [];
  const current = parseVersion(version);
  if (!current) return { error: `invalid Kubernetes version "${version}"` };
  const samePatch = highest(versions, version, now, (v) => v[0] === current[0] && v[1] === current[1]);
  if (samePatch || !forced) return { version: samePatch };
  const nextMinor = highest(versions, version, now, (v) => v[0] === current[0] && v[1] === current[1] + 1);
  if (nextMinor) return { version: nextMinor };
  return {
    error: `no qualifying Kubernetes version found to update from "${version}" (same minor or consecutive minor)`,
  };
}

/** A worker pool's machine image as the shoot names it. */
export interface ShootMachineImage {
  name: string;
  version?: string;
}

/** Gardener's shouldMachineImageVersionBeUpdated. */
export function machineImageUpdateReason(
  image: ShootMachineImage,
  profile: CloudProfile,
  autoUpdate: boolean,
  now: Date,
): UpdateDecision | undefined {
  const profileImage = profile.spec.machineImages.find((m) => m.name === image.name);
  const strategy = profileImage?.updateStrategy ?? 'major';
  const entry = profileImage?.versions.find((v) => v.version === image.version);
  if (!entry) return { reason: 'Version does not exist in CloudProfile', forced: true };
  if (currentClassification(entry, now) === 'expired') {
    return {
      reason: `Machine image version expired - force update required (image update strategy: ${strategy})`,
      forced: true,
    };
  }
  if (autoUpdate)
    return {
      reason: `Automatic update of the machine image version is configured (image update strategy: ${strategy})`,
      forced: false,
    };
  return undefined;
}

/** The machine image version to move to ('' when already the latest allowed), or an error. */
export function nextMachineImageVersion(
  image: ShootMachineImage,
  profile: CloudProfile,
  forced: boolean,
  now: Date,
): { version: string } | { error: string } {
  const profileImage = profile.spec.machineImages.find((m) => m.name === image.name);
  if (!profileImage) return { error: `machine image "${image.name}" does not exist in the CloudProfile` };
  const current = parseVersion(image.version ?? '0.0.0') ?? [0, 0, 0];
  const strategy = profileImage.updateStrategy ?? 'major';
  const allowed = (v: [number, number, number]) =>
    strategy === 'major' || (v[0] === current[0] && (strategy === 'minor' || v[1] === current[1]));
  const best = highest(profileImage.versions, image.version ?? '0.0.0', now, allowed);
  if (best || !forced) return { version: best };
  const any = highest(profileImage.versions, image.version ?? '0.0.0', now, () => true);
  if (any) return { version: any };
  return {
    error: `no qualifying version of machine image "${image.name}" found to update from "${image.version ?? ''}"`,
  };
}
