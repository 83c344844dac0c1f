// Which versions maintenance moves a shoot to (Gardener's shoot maintenance helpers and its version helpers). Every
// update first looks for a higher version the update policy allows without force — the latest patch of the same
// minor; for machine images with update strategy `minor` then the latest of the same major, with `major` (the default)
// then the overall latest — never a preview, unavailable or expired one, and a deprecated one only when nothing else
// qualifies. Only an expired version (or one the CloudProfile no longer offers) is forced further: Kubernetes to the
// latest patch of the consecutive minor; machine images with `patch` to the next higher minor, with `minor` to the next
// higher major (an expired version there only when no other one qualifies or a non-expired one would skip that minor or
// major); images with `major` cannot be forced beyond the overall latest. Pure.
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

type Parsed = [number, number, number];

/** `major.minor.patch` as numbers (missing parts 0, pre-release ignored); undefined when not a version. */
export function parseVersion(version: string): Parsed | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:[-+].*)?$/.exec(version);
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : undefined;
}

const compareParsed = (x: Parsed, y: Parsed) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2];

/** Compares two versions numerically. */
export function compareVersions(a: string, b: string): number {
  return compareParsed(parseVersion(a) ?? [0, 0, 0], parseVersion(b) ?? [0, 0, 0]);
}

/** A version entry with its parsed version and its classification now. */
interface Candidate {
  entry: VersionEntry;
  v: Parsed;
  classification: string;
}

/** The entries maintenance may ever move to: parseable, neither preview nor not yet available. */
function candidates(entries: readonly VersionEntry[], now: Date): Candidate[] {
  const result: Candidate[] = [];
  for (const entry of entries) {
    const v = parseVersion(entry.version);
    const classification = currentClassification(entry, now);
    if (v && classification !== 'preview' && classification !== 'unavailable')
      result.push({ entry, v, classification });
  }
  return result;
}

const highestOf = (list: readonly Candidate[]) =>
  list.reduce<Candidate | undefined>((best, c) => (!best || compareParsed(c.v, best.v) > 0 ? c : best), undefined);

/**
 * The latest non-expired version above `current` that `accept` allows, a non-deprecated one when there is one
 * (Gardener's getVersionForAutoUpdate); '' when there is none.
 */
function latestForAutoUpdate(
  entries: readonly VersionEntry[],
  current: Parsed,
  now: Date,
  accept: (v: Parsed) => boolean,
): string {
  const eligible = candidates(entries, now).filter(
    (c) => c.classification !== 'expired' && compareParsed(c.v, current) > 0 && accept(c.v),
  );
  const best = highestOf(eligible.filter((c) => c.classification !== 'deprecated')) ?? highestOf(eligible);
  return best?.entry.version ?? '';
}

/** The update strategies of Gardener's machine images (`patch`, `minor`, `major`), Kubernetes versions update like `patch`. */
export type UpdateStrategy = 'patch' | 'minor' | 'major';

/** The version an automatic update moves to ('' when `current` is the latest the strategy allows). */
export function autoUpdateVersion(
  entries: readonly VersionEntry[],
  current: string,
  strategy: UpdateStrategy,
  now: Date,
): { version: string } | { error: string } {
  const c = parseVersion(current);
  if (!c) return { error: `invalid version "${current}"` };
  // A higher patch of the same minor always comes first.
  const patch = latestForAutoUpdate(entries, c, now, (v) => v[0] === c[0] && v[1] === c[1]);
  if (patch || strategy === 'patch') return { version: patch };
  return { version: latestForAutoUpdate(entries, c, now, (v) => strategy === 'major' || v[0] === c[0]) };
}

/** Kubernetes: the latest patch of the consecutive minor, a non-expired one when there is one. */
function consecutiveMinor(entries: readonly VersionEntry[], c: Parsed, now: Date): string {
  const next = candidates(entries, now).filter((x) => x.v[0] === c[0] && x.v[1] === c[1] + 1);
  return (highestOf(next.filter((x) => x.classification !== 'expired')) ?? highestOf(next))?.entry.version ?? '';
}

/**
 * Machine images: the latest version of the lowest next higher minor (`part` 1) or major (`part` 0) that has a
 * qualifying version (Gardener's GetQualifyingVersionForNextHigher), preferring non-expired ones unless that would skip
 * the very next minor/major (which may still have expired ones).
 */
function nextHigher(entries: readonly VersionEntry[], c: Parsed, part: 0 | 1, now: Date): string {
  // The very next minor/major among all versions, even those that will not qualify.
  let next: number | undefined;
  for (const e of entries) {
    const v = parseVersion(e.version);
    if (v && v[part] > c[part] && (next === undefined || v[part] < next)) next = v[part];
  }
  const allowed = candidates(entries, now).filter((x) => x.v[part] > c[part] && (part === 0 || x.v[0] === c[0]));
  const pick = (list: Candidate[]) => {
    const lowest = list.reduce<number | undefined>(
      (m, x) => (m === undefined || x.v[part] < m ? x.v[part] : m),
      undefined,
    );
    return highestOf(list.filter((x) => x.v[part] === lowest));
  };
  const nonExpired = pick(allowed.filter((x) => x.classification !== 'expired'));
  if (nonExpired && nonExpired.v[part] === next) return nonExpired.entry.version;
  return pick(allowed)?.entry.version ?? '';
}

/**
 * Gardener's DetermineVersionForStrategy: an automatic update first; when there is none and the current version is
 * expired (or gone), the forced update; an error when that finds nothing either.
 */
function determineVersion(
  auto: () => { version: string } | { error: string },
  forced: () => { version: string } | { error: string },
  current: string,
  expired: boolean,
): { version: string } | { error: string } {
  const a = auto();
  if ('error' in a) return { error: `failed to determine a higher patch version for automatic update: ${a.error}` };
  if (a.version || !expired) return a;
  const f = forced();
  if ('error' in f) return { error: `failed to determine version for forceful update: ${f.error}` };
  if (!f.version)
    return {
      error: `cannot perform forceful update of expired version "${current}". No suitable version found in CloudProfile - this is most likely a misconfiguration of the CloudProfile`,
    };
  return f;
}

/** Why and how a version is to be updated. */
export interface UpdateDecision {
  reason: string;
  /** The current version is expired or not offered: an update beyond the automatic one may be forced. */
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
  return determineVersion(
    () => autoUpdateVersion(versions, version, 'patch', now),
    () => {
      const c = parseVersion(version);
      return c ? { version: consecutiveMinor(versions, c, now) } : { error: `invalid version "${version}"` };
    },
    version,
    forced,
  );
}

/** A worker pool's machine image as the shoot names it. */
export interface ShootMachineImage {
  name: string;
  version?: string;
}

/** A CloudProfile machine image (possibly with its versions filtered for one worker pool). */
export interface ProfileMachineImage {
  name: string;
  versions: readonly VersionEntry[];
  updateStrategy?: UpdateStrategy;
}

/** Gardener's shouldMachineImageVersionBeUpdated, against the image's versions that fit the pool. */
export function machineImageUpdateReason(
  image: ShootMachineImage,
  profileImage: ProfileMachineImage,
  autoUpdate: boolean,
  now: Date,
): UpdateDecision | undefined {
  const strategy = profileImage.updateStrategy ?? 'major';
  const entry = profileImage.versions.find((v) => v.version === image.version);
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

/** The machine image version to move to ('' when already the latest allowed), or an error (Gardener's wording). */
export function nextMachineImageVersion(
  image: ShootMachineImage,
  profileImage: ProfileMachineImage,
  forced: boolean,
  now: Date,
): { version: string } | { error: string } {
  const strategy = profileImage.updateStrategy ?? 'major';
  const current = image.version ?? '';
  const result = determineVersion(
    () => autoUpdateVersion(profileImage.versions, current, strategy, now),
    () => {
      const c = parseVersion(current);
      if (!c) return { error: `invalid version "${current}"` };
      if (strategy === 'patch') return { version: nextHigher(profileImage.versions, c, 1, now) };
      if (strategy === 'minor') return { version: nextHigher(profileImage.versions, c, 0, now) };
      return {
        error: `either the machine image "${image.name}" is reaching end of life and migration to another machine image is required or there is a misconfiguration in the CloudProfile. If it is the latter, make sure the machine image in the CloudProfile has at least one version that is not expired, not in preview and greater or equal to the current Shoot image version "${current}"`,
      };
    },
    current,
    forced,
  );
  if ('error' in result)
    return {
      error: `failed to determine the target version for maintenance of machine image "${profileImage.name}" with strategy "${strategy}": ${result.error}`,
    };
  return result;
}
