// The CloudProfile and NamespacedCloudProfile updates Gardener's ResourceReferenceManager refuses, beyond the version
// removals of cloudprofile-version-removal.ts: a CloudProfile may not add a machine image a NamespacedCloudProfile with
// this parent already defines; decreased `limits.maxNodesTotal` (of a CloudProfile or NamespacedCloudProfile) may not
// fall below what a Shoot using the profile has (a pool's maximum, the sum of minimums); a NamespacedCloudProfile may
// not drop a Kubernetes or machine image version override a Shoot of its namespace still uses unless the parent
// CloudProfile still offers the version without an expired expiration date. Pure: messages in Gardener's words.
import type { Shoot } from '@gardener-ts/api';
import type { KubeObject } from '../attributes.js';
import { cloudProfileReference } from './shoot-validator.js';
import { removedMachineImages, removedVersions } from './cloudprofile-version-removal.js';

type Limits = { maxNodesTotal?: number } | undefined;
type Worker = {
  name: string;
  minimum?: number;
  maximum?: number;
  machine?: { image?: { name?: string; version?: string } };
};

const workersOf = (shoot: KubeObject) => (shoot.spec?.provider?.workers ?? []) as Worker[];
const shootId = (shoot: KubeObject) => `${shoot.metadata?.namespace ?? ''}/${shoot.metadata?.name ?? ''}`;

/** Whether `limits` lowers the node limit of `old` (Gardener's hasDecreasedNodeLimits). */
export function hasDecreasedNodeLimits(limits: Limits, old: Limits): boolean {
  if (!limits || JSON.stringify(limits) === JSON.stringify(old ?? null)) return false;
  if (!old) return true;
  return (
    limits.maxNodesTotal !== undefined && (old.maxNodesTotal === undefined || limits.maxNodesTotal < old.maxNodesTotal)
  );
}

/** What of `shoot` exceeds `limits.maxNodesTotal` (Gardener's validateShootWorkerLimits). */
export function shootWorkerLimitErrors(shoot: KubeObject, limits: Limits): string[] {
  const max = limits?.maxNodesTotal;
  if (max === undefined) return [];
  const errors: string[] = [];
  let totalMinimum = 0;
  for (const worker of workersOf(shoot)) {
    totalMinimum += worker.minimum ?? 0;
    if ((worker.maximum ?? 0) > max)
      errors.push(
        `the maximum node count of worker pool "${worker.name}" in shoot "${shootId(shoot)}" exceeds the limit of ${max} total nodes configured in the cloud profile`,
      );
  }
  if (totalMinimum > max)
    errors.push(
      `the total minimum node count of all worker pools of shoot "${shootId(shoot)}" must not exceed the limit of ${max} configured in the cloud profile`,
    );
  return errors;
}

const liveChildren = (profile: KubeObject, namespacedProfiles: readonly KubeObject[]) =>
  namespacedProfiles.filter(
    (p) =>
      !p.metadata?.deletionTimestamp &&
      p.spec?.parent?.name === profile.metadata?.name &&
      (p.spec?.parent?.kind ?? 'CloudProfile') === 'CloudProfile',
  );

/**
 * The CloudProfile UPDATE checks beyond version removal: machine images added that a child NamespacedCloudProfile
 * already defines, and Shoots (directly or through a child) beyond decreased limits.
 */
export function cloudProfileUpdateErrors(
  profile: KubeObject,
  old: KubeObject,
  shoots: readonly KubeObject[],
  namespacedProfiles: readonly KubeObject[],
): string[] {
  const name = profile.metadata?.name ?? '';
  const errors: string[] = [];
  const children = liveChildren(profile, namespacedProfiles);
  const before = new Set(((old.spec?.machineImages ?? []) as { name: string }[]).map((m) => m.name));
  const added = new Set(
    ((profile.spec?.machineImages ?? []) as { name: string; versions?: unknown[] }[])
      .filter((m) => !before.has(m.name) && (m.versions ?? []).length > 0)
      .map((m) => m.name),
  );
  for (const child of children)
    for (const image of (child.spec?.machineImages ?? []) as { name: string }[])
      if (added.has(image.name))
        errors.push(
          `unable to add MachineImage "${image.name}" to CloudProfile "${name}" - MachineImage is already defined by NamespacedCloudProfile "${child.metadata?.namespace ?? ''}/${child.metadata?.name ?? ''}"`,
        );

  if (hasDecreasedNodeLimits(profile.spec?.limits, old.spec?.limits)) {
    const childIds = new Set(children.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`));
    for (const shoot of shoots) {
      if (shoot.metadata?.deletionTimestamp) continue;
      const ref = cloudProfileReference(shoot as unknown as Shoot);
      const related =
        (ref?.kind === 'CloudProfile' && ref.name === name) ||
        (ref?.kind === 'NamespacedCloudProfile' && childIds.has(`${shoot.metadata?.namespace}/${ref.name}`));
      if (related) errors.push(...shootWorkerLimitErrors(shoot, profile.spec?.limits));
    }
  }
  return errors;
}

const expiredAt = (version: { expirationDate?: string } | undefined, now: Date) =>
  version?.expirationDate !== undefined && new Date(version.expirationDate).getTime() < now.getTime();

/**
 * Why an UPDATE of a NamespacedCloudProfile may not be made, given the Shoots of its namespace and its parent
 * CloudProfile: removed version overrides still in use (unless the parent still offers them unexpired) and Shoots
 * beyond decreased limits.
 */
export function namespacedCloudProfileUpdateErrors(
  profile: KubeObject,
  old: KubeObject,
  shoots: readonly KubeObject[],
  parent: KubeObject,
  now = new Date(),
): string[] {
  const id = `${profile.metadata?.namespace ?? ''}/${profile.metadata?.name ?? ''}`;
  const kubernetes = removedVersions(old.spec?.kubernetes?.versions, profile.spec?.kubernetes?.versions);
  const images = removedMachineImages(old.spec?.machineImages, profile.spec?.machineImages).versions;
  const decreased = hasDecreasedNodeLimits(profile.spec?.limits, old.spec?.limits);
  const parentKubernetes = new Map(
    ((parent.spec?.kubernetes?.versions ?? []) as { version: string; expirationDate?: string }[]).map((v) => [
      v.version,
      v,
    ]),
  );
  const parentImages = new Map(
    (
      (parent.spec?.machineImages ?? []) as {
        name: string;
        versions?: { version: string; expirationDate?: string }[];
      }[]
    ).map((m) => [m.name, new Map((m.versions ?? []).map((v) => [v.version, v]))]),
  );
  const errors: string[] = [];
  for (const shoot of shoots) {
    const ref = shoot.spec?.cloudProfile;
    if (
      shoot.metadata?.deletionTimestamp ||
      ref?.kind !== 'NamespacedCloudProfile' ||
      ref.name !== profile.metadata?.name
    )
      continue;
    const version: string | undefined = shoot.spec?.kubernetes?.version;
    // A version the parent does not have at all is not reported (as in Gardener).
    if (version && kubernetes.has(version) && expiredAt(parentKubernetes.get(version), now))
      errors.push(
        `unable to delete Kubernetes version "${version}" from NamespacedCloudProfile '${id}' - version with extended expiration date is still in use by shoot '${shootId(shoot)}'`,
      );
    for (const worker of workersOf(shoot)) {
      const image = worker.machine?.image;
      if (!image?.name || !image.version || !images.get(image.name)?.has(image.version)) continue;
      const inParent = parentImages.get(image.name)?.get(image.version);
      if (!inParent || expiredAt(inParent, now))
        errors.push(
          `unable to delete Machine image version '${image.name}/${image.version}' from NamespacedCloudProfile '${id}' - version is still in use by shoot '${shootId(shoot)}' by worker "${worker.name}"`,
        );
    }
    if (decreased) errors.push(...shootWorkerLimitErrors(shoot, profile.spec?.limits));
  }
  return errors;
}
