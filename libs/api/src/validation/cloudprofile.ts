// validateCloudProfile / validateNamespacedCloudProfile: versions, machine images and types, regions.
import type { Static } from '@sinclair/typebox';
import type { CloudProfile, CloudProfileSpec, NamespacedCloudProfile } from '../core/v1beta1/cloudprofile.js';
import { type FieldError, FieldPath, invalid, required } from './field.js';
import { validateQuantity, validateStringEnum, validateUnique } from './common.js';
import { isStrictVersion, parseVersion } from './formats.js';
import { validateDNS1123Label, validateObjectMeta, validateObjectMetaUpdate } from './names.js';

const spec = FieldPath.root('spec');
const classifications = ['preview', 'supported', 'deprecated'];
const architectures = ['amd64', 'arm64'];

type Spec = Static<typeof CloudProfileSpec>;

function validateKubernetesVersions(versions: Spec['kubernetes']['versions'], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  (versions ?? []).forEach((version, i) => {
    const p = path.index(i);
    if (!isStrictVersion(version.version)) {
      errors.push(
        invalid(p.child('version'), version.version, 'Kubernetes versions must match the regex ^([0-9]+\\.){2}[0-9]+$'),
      );
    }
    if (version.classification !== undefined)
      errors.push(...validateStringEnum(version.classification, p.child('classification'), classifications));
  });
  errors.push(...validateUnique(versions, path, (v) => v.version, 'version'));
  return errors;
}

function validateMachineImages(images: Spec['machineImages'] | undefined, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  (images ?? []).forEach((image, i) => {
    const p = path.index(i);
    if (!image.name) errors.push(required(p.child('name'), 'machine image name must not be empty'));
    if (!image.versions || image.versions.length === 0)
      errors.push(
        required(p.child('versions'), `must provide at least one version for the machine image '${image.name}'`),
      );
    (image.versions ?? []).forEach((version, j) => {
      const v = p.child('versions').index(j);
      if (!parseVersion(version.version))
        errors.push(invalid(v.child('version'), version.version, 'could not parse version. Use a semantic version.'));
      if (version.classification !== undefined)
        errors.push(...validateStringEnum(version.classification, v.child('classification'), classifications));
      (version.cri ?? []).forEach((cri, k) =>
        errors.push(...validateStringEnum(cri.name, v.child('cri').index(k).child('name'), ['containerd'])),
      );
      (version.architectures ?? []).forEach((arch, k) =>
        errors.push(...validateStringEnum(arch, v.child('architectures').index(k), architectures)),
      );
    });
    errors.push(...validateUnique(image.versions, p.child('versions'), (v) => v.version, 'version'));
    if (image.updateStrategy !== undefined)
      errors.push(...validateStringEnum(image.updateStrategy, p.child('updateStrategy'), ['patch', 'minor', 'major']));
  });
  errors.push(...validateUnique(images, path, (m) => m.name, 'name'));
  return errors;
}

function validateMachineTypes(types: Spec['machineTypes'] | undefined, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  (types ?? []).forEach((type, i) => {
    const p = path.index(i);
    if (!type.name) errors.push(required(p.child('name'), 'must provide a name'));
    for (const field of ['cpu', 'gpu', 'memory'] as const)
      errors.push(...validateQuantity(type[field], p.child(field)));
    if (type.storage) {
      errors.push(...validateQuantity(type.storage.size, p.child('storage', 'size')));
      errors.push(...validateQuantity(type.storage.minSize, p.child('storage', 'minSize')));
      if (type.storage.size === undefined && type.storage.minSize === undefined) {
        errors.push(invalid(p.child('storage'), type.storage, 'must either configure "size" or "minSize"'));
      }
    }
    if (type.architecture !== undefined)
      errors.push(...validateStringEnum(type.architecture, p.child('architecture'), architectures));
  });
  errors.push(...validateUnique(types, path, (t) => t.name, 'name'));
  return errors;
}

function validateVolumeTypes(types: Spec['volumeTypes'], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  (types ?? []).forEach((type, i) => {
    if (!type.name) errors.push(required(path.index(i).child('name'), 'must provide a name'));
    if (!type.class) errors.push(required(path.index(i).child('class'), 'must provide a class'));
    errors.push(...validateQuantity(type.minSize, path.index(i).child('minSize')));
  });
  errors.push(...validateUnique(types, path, (t) => t.name, 'name'));
  return errors;
}

function validateRegions(regions: Spec['regions'] | undefined, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  (regions ?? []).forEach((region, i) => {
    const p = path.index(i);
    if (!region.name) errors.push(required(p.child('name'), 'must provide a region name'));
    (region.zones ?? []).forEach((zone, j) => {
      if (!zone.name) errors.push(required(p.child('zones').index(j).child('name'), 'zone name cannot be empty'));
    });
    errors.push(...validateUnique(region.zones, p.child('zones'), (z) => z.name, 'name'));
  });
  errors.push(...validateUnique(regions, path, (r) => r.name, 'name'));
  return errors;
}

export function validateCloudProfile(profile: CloudProfile, old?: CloudProfile): FieldError[] {
  const errors = validateObjectMeta(profile.metadata, { namespaced: false, name: validateDNS1123Label });
  const s = profile.spec;
  if (!s) return [...errors, required(spec)];
  if (!s.type) errors.push(required(spec.child('type'), 'must provide a provider type'));
  const versions = s.kubernetes?.versions ?? [];
  if (versions.length === 0)
    errors.push(required(spec.child('kubernetes', 'versions'), 'must provide at least one Kubernetes version'));
  errors.push(...validateKubernetesVersions(versions, spec.child('kubernetes', 'versions')));
  if (!s.machineImages?.length)
    errors.push(required(spec.child('machineImages'), 'must provide at least one machine image'));
  errors.push(...validateMachineImages(s.machineImages, spec.child('machineImages')));
  if (!s.machineTypes?.length)
    errors.push(required(spec.child('machineTypes'), 'must provide at least one machine type'));
  errors.push(...validateMachineTypes(s.machineTypes, spec.child('machineTypes')));
  errors.push(...validateVolumeTypes(s.volumeTypes, spec.child('volumeTypes')));
  if (!s.regions?.length) errors.push(required(spec.child('regions'), 'must provide at least one region'));
  errors.push(...validateRegions(s.regions, spec.child('regions')));
  if (s.limits?.maxNodesTotal !== undefined && s.limits.maxNodesTotal <= 0) {
    errors.push(
      invalid(spec.child('limits', 'maxNodesTotal'), s.limits.maxNodesTotal, 'maxNodesTotal must be greater than 0'),
    );
  }
  if (old) errors.push(...validateObjectMetaUpdate(profile.metadata, old.metadata));
  return errors;
}

export function validateNamespacedCloudProfile(
  profile: NamespacedCloudProfile,
  old?: NamespacedCloudProfile,
): FieldError[] {
  const errors = validateObjectMeta(profile.metadata, { namespaced: true, name: validateDNS1123Label });
  const s = profile.spec;
  if (!s) return [...errors, required(spec)];
  if (!s.parent?.name) errors.push(required(spec.child('parent', 'name'), 'must provide a parent name'));
  errors.push(...validateStringEnum(s.parent?.kind, spec.child('parent', 'kind'), ['CloudProfile']));
  errors.push(...validateKubernetesVersions(s.kubernetes?.versions, spec.child('kubernetes', 'versions')));
  errors.push(...validateMachineImages(s.machineImages, spec.child('machineImages')));
  errors.push(...validateMachineTypes(s.machineTypes, spec.child('machineTypes')));
  errors.push(...validateVolumeTypes(s.volumeTypes, spec.child('volumeTypes')));
  if (old) {
    errors.push(...validateObjectMetaUpdate(profile.metadata, old.metadata));
    if (old.spec.parent.name !== s.parent?.name)
      errors.push(invalid(spec.child('parent'), s.parent, 'field is immutable'));
  }
  return errors;
}
