// The CloudProfile a NamespacedCloudProfile stands for (Gardener's MergeCloudProfiles, the namespacedcloudprofile
// controller's `status.cloudProfileSpec`, which gardener-apiserver's NamespacedCloudProfileValidator simulates too): the
// parent's spec, with the namespaced profile's Kubernetes version expiration dates (it may only extend existing
// versions), its machine images merged by name (versions by version: expiration dates overridden, new versions and
// images added, its update strategy winning), its machine and volume types added (same name: the namespaced one
// replaces the parent's), its limits and caBundle winning. Pure and idempotent. Moved here from the controller-manager
// so that the admission plugin shares it without bundling the controllers.
import type { CloudProfile, NamespacedCloudProfile } from './core/v1beta1/cloudprofile.js';

type Spec = CloudProfile['spec'];

function mergeByName<T extends { name: string }>(
  parent: readonly T[] | undefined,
  extra: readonly T[] | undefined,
): T[] {
  const out = [...(parent ?? [])];
  for (const item of extra ?? []) {
    const i = out.findIndex((x) => x.name === item.name);
    if (i >= 0) out[i] = item;
    else out.push(item);
  }
  return out;
}

/** The parent's spec merged with the namespaced profile's. */
export function mergeCloudProfileSpec(parent: Spec, namespaced: NamespacedCloudProfile['spec']): Spec {
  const spec = structuredClone(parent);
  const versions = spec.kubernetes.versions ?? [];
  for (const v of namespaced.kubernetes?.versions ?? []) {
    const existing = versions.find((x) => x.version === v.version);
    if (existing && v.expirationDate) existing.expirationDate = v.expirationDate;
  }
  for (const image of namespaced.machineImages ?? []) {
    const existing = spec.machineImages.find((m) => m.name === image.name);
    if (!existing) {
      spec.machineImages.push(structuredClone(image));
      continue;
    }
    if (image.updateStrategy) existing.updateStrategy = image.updateStrategy;
    for (const v of image.versions) {
      const known = existing.versions.find((x) => x.version === v.version);
      if (!known) existing.versions.push(structuredClone(v));
      else if (v.expirationDate) known.expirationDate = v.expirationDate;
    }
  }
  spec.machineTypes = mergeByName(spec.machineTypes, namespaced.machineTypes);
  if (namespaced.volumeTypes) spec.volumeTypes = mergeByName(spec.volumeTypes, namespaced.volumeTypes);
  if (namespaced.limits) spec.limits = { ...spec.limits, ...namespaced.limits };
  if (namespaced.caBundle) spec.caBundle = namespaced.caBundle;
  return spec;
}
