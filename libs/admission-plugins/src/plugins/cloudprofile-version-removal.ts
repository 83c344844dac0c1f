// The CloudProfile part of Gardener's ResourceReferenceManager (plugin/pkg/global/resourcereferencemanager): a
// Kubernetes version or machine image version cannot be removed from a CloudProfile while a Shoot (directly or through
// a NamespacedCloudProfile with this parent) or a NamespacedCloudProfile still uses it, nor a machine image a
// NamespacedCloudProfile extends.
import type { Shoot } from '@gardener-ts/api';
import type { KubeObject } from '../attributes.js';
import { cloudProfileReference } from './shoot-validator.js';

type Versions = readonly { version: string }[] | undefined;
type Images = readonly { name: string; versions?: Versions }[] | undefined;

const versionSet = (versions: Versions) => new Set((versions ?? []).map((v) => v.version));

/** The versions of `old` that `current` no longer lists. */
export function removedVersions(old: Versions, current: Versions): Set<string> {
  const kept = versionSet(current);
  return new Set([...versionSet(old)].filter((v) => !kept.has(v)));
}

/** Machine images `current` no longer lists, and per image the versions it no longer lists (all of a removed image). */
export function removedMachineImages(old: Images, current: Images) {
  const now = new Map((current ?? []).map((m) => [m.name, m]));
  const images = new Set<string>();
  const versions = new Map<string, Set<string>>();
  for (const image of old ?? []) {
    const kept = now.get(image.name);
    if (!kept) images.add(image.name);
    const gone = removedVersions(image.versions, kept?.versions);
    if (gone.size > 0) versions.set(image.name, gone);
  }
  return { images, versions };
}

/**
 * Why the update from `old` to `profile` (both CloudProfiles) may not be made, given all Shoots and
 * NamespacedCloudProfiles of the garden: one message per use of a removed version, in Gardener's words.
 */
export function cloudProfileRemovalErrors(
  profile: KubeObject,
  old: KubeObject,
  shoots: readonly KubeObject[],
  namespacedProfiles: readonly KubeObject[],
): string[] {
  const name = profile.metadata?.name ?? '';
  const kubernetes = removedVersions(old.spec?.kubernetes?.versions, profile.spec?.kubernetes?.versions);
  const machineImages = removedMachineImages(old.spec?.machineImages, profile.spec?.machineImages);
  if (kubernetes.size === 0 && machineImages.versions.size === 0) return [];
  const errors: string[] = [];

  const children = namespacedProfiles.filter(
    (p) =>
      !p.metadata?.deletionTimestamp &&
      p.spec?.parent?.name === name &&
      (p.spec?.parent?.kind ?? 'CloudProfile') === 'CloudProfile',
  );
  for (const child of children) {
    const id = `${child.metadata?.namespace ?? ''}/${child.metadata?.name ?? ''}`;
    for (const { version } of (child.spec?.kubernetes?.versions ?? []) as { version: string }[])
      if (kubernetes.has(version))
        errors.push(
          `unable to delete Kubernetes version "${version}" from CloudProfile "${name}" - version is still in use by NamespacedCloudProfile '${id}'`,
        );
    for (const image of (child.spec?.machineImages ?? []) as { name: string; versions?: { version: string }[] }[]) {
      if (machineImages.images.has(image.name))
        errors.push(
          `unable to delete MachineImage "${image.name}" from CloudProfile "${name}" - MachineImage is still in use by NamespacedCloudProfile "${id}"`,
        );
      const gone = machineImages.versions.get(image.name);
      for (const { version } of image.versions ?? [])
        if (gone?.has(version))
          errors.push(
            `unable to delete MachineImage version '${image.name}/${version}' from CloudProfile "${name}" - version is still in use by NamespacedCloudProfile '${id}'`,
          );
    }
  }

  const childIds = new Set(children.map((p) => `${p.metadata?.namespace}/${p.metadata?.name}`));
  for (const shoot of shoots) {
    if (shoot.metadata?.deletionTimestamp) continue;
    const ref = cloudProfileReference(shoot as unknown as Shoot);
    const related =
      ref !== undefined &&
      ((ref.kind === 'CloudProfile' && ref.name === name) ||
        (ref.kind === 'NamespacedCloudProfile' && childIds.has(`${shoot.metadata?.namespace}/${ref.name}`)));
    if (!related) continue;
    const id = `${shoot.metadata?.namespace ?? ''}/${shoot.metadata?.name ?? ''}`;
    const version: string | undefined = shoot.spec?.kubernetes?.version;
    if (version && kubernetes.has(version))
      errors.push(
        `unable to delete Kubernetes version "${version}" from CloudProfile "${name}" - version is still in use by shoot '${id}'`,
      );
    for (const worker of (shoot.spec?.provider?.workers ?? []) as {
      name: string;
      machine?: { image?: { name?: string; version?: string } };
    }[]) {
      const image = worker.machine?.image;
      if (image?.name && image.version && machineImages.versions.get(image.name)?.has(image.version))
        errors.push(
          `unable to delete Machine image version '${image.name}/${image.version}' from CloudProfile "${name}" - version is still in use by shoot '${id}' by worker "${worker.name}"`,
        );
    }
  }
  return errors;
}

/** hashicorp/go-multierror's text for a list of errors, which Gardener's plugins answer with. */
export function multiErrorText(errors: readonly string[]): string {
  if (errors.length === 1) return `1 error occurred:\n\t* ${errors[0]}\n\n`;
  return `${errors.length} errors occurred:\n\t${errors.map((e) => `* ${e}`).join('\n\t')}\n\n`;
}
