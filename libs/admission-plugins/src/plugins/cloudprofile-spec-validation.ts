// The CloudProfile spec checks Gardener's NamespacedCloudProfileValidator runs beside its override rules
// (pkg/apis/core/validation cloudprofile.go + utils.go, as of the capability-aware API): `ValidateMachineImages` and
// `ValidateCloudProfileMachineImages` on each machine image the parent does not have, and
// `ValidateNamespacedCloudProfileStatus` on the simulated merge result (Kubernetes settings, machine images, machine
// and volume types). Pure functions of plain spec objects returning kube field errors with Gardener's paths and words.
import {
  compareVersions,
  duplicate,
  FieldPath,
  forbidden,
  invalid,
  notSupported,
  parseQuantity,
  parseVersion,
  qualifiedNameErrors,
  required,
  type FieldError,
} from '@gardener-ts/api';
import { kubeletVersionRange } from './shoot-worker-versions.js';

/** Capability name → supported values (Gardener's `Capabilities`, from a CloudProfile's `machineCapabilities`). */
export type Capabilities = Record<string, string[]>;

/** A Kubernetes or machine image version as the validators read it. */
export interface SpecVersion {
  version: string;
  expirationDate?: string;
  classification?: string;
  [key: string]: unknown;
}

/** A machine image version. */
export interface SpecImageVersion extends SpecVersion {
  cri?: { name: string; containerRuntimes?: { type: string }[] }[];
  architectures?: string[];
  kubeletVersionConstraint?: string;
  inPlaceUpdates?: { supported?: boolean; minVersionForUpdate?: string };
  capabilityFlavors?: Capabilities[];
}

/** A machine image. */
export interface SpecImage {
  name: string;
  updateStrategy?: string;
  versions?: SpecImageVersion[];
  [key: string]: unknown;
}

/** A machine type. */
export interface SpecMachineType {
  name: string;
  cpu?: string | number;
  gpu?: string | number;
  memory?: string | number;
  architecture?: string;
  capabilities?: Capabilities;
  storage?: { size?: string | number; minSize?: string | number; [key: string]: unknown };
  [key: string]: unknown;
}

/** A volume type. */
export interface SpecVolumeType {
  name: string;
  class?: string;
  minSize?: string | number;
  [key: string]: unknown;
}

/** The parts of a CloudProfile spec (a merge result) these checks read. */
export interface CloudProfileSpecInput {
  kubernetes?: { versions?: SpecVersion[] };
  machineImages?: SpecImage[];
  machineTypes?: SpecMachineType[];
  volumeTypes?: SpecVolumeType[];
  machineCapabilities?: { name: string; values: string[] }[];
  [key: string]: unknown;
}

const ArchitectureName = 'architecture';
const validArchitectures = ['amd64', 'arm64'];
const classifications = ['deprecated', 'preview', 'supported'];
const updateStrategies = ['major', 'minor', 'patch'];
const criNames = ['containerd'];
const kubernetesVersionPattern = /^([0-9]+\.){2}[0-9]+$/;

/** Gardener's `CapabilityDefinitionsToCapabilities`: the profile's capability definitions as a map. */
export function capabilitiesOf(spec: Pick<CloudProfileSpecInput, 'machineCapabilities'>): Capabilities {
  return Object.fromEntries((spec.machineCapabilities ?? []).map((c) => [c.name, [...c.values]]));
}

const hasCapabilities = (capabilities: Capabilities) => Object.keys(capabilities).length > 0;

/** Go's `time.Time.String()` of a timestamp (the API server's zone taken as UTC): `2024-12-31 23:59:59 +0000 UTC`. */
export function goTime(date: string): string {
  const t = new Date(Date.parse(date));
  if (Number.isNaN(t.getTime())) return JSON.stringify(date);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const nanos = t.getUTCMilliseconds() ? `.${pad(t.getUTCMilliseconds(), 3).replace(/0+$/, '')}` : '';
  return (
    `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())} ` +
    `${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}${nanos} +0000 UTC`
  );
}

/**
 * field.Invalid with a `*metav1.Time` value, printed as kube's field.Error prints it: the time's `String()`, and a nil
 * pointer as the quoted string `"null"`.
 */
export function invalidTime(path: FieldPath, date: string | undefined, detail: string): FieldError {
  const error = invalid(path, date ?? null, detail);
  const value = date === undefined ? '"null"' : goTime(date);
  return { ...error, message: `${path.toString()}: Invalid value: ${value}: ${detail}` };
}

/** Masterminds' `semver.NewVersion` as Gardener parses machine image versions (lenient: `1.2`, `v1`, `18.4.201906170`). */
const isSemanticVersion = (version: string) => parseVersion(version) !== undefined;

/** kube's `%v` of a string slice: `[a b]`. */
const goList = (items: readonly string[]) => `[${items.join(' ')}]`;

/** Gardener's validateUnprefixedQualifiedName: a qualified name without a `prefix/`. */
function unprefixedQualifiedNameErrors(name: string): string[] {
  const errors = qualifiedNameErrors(name);
  if (errors.length > 0) return errors;
  return name.includes('/') ? [`name '${name}' must not contain a prefix`] : [];
}

/**
 * The highest of `versions` (Gardener's DetermineLatestExpirableVersion without filtering previews): by semantic
 * version, a release above its pre-releases; unparsable versions are skipped (their format error is reported).
 */
function latestVersion(versions: readonly SpecVersion[]): SpecVersion | undefined {
  let latest: { version: SpecVersion; parsed: NonNullable<ReturnType<typeof parseVersion>> } | undefined;
  for (const version of versions) {
    const parsed = parseVersion(version.version);
    if (!parsed) continue;
    const order = latest
      ? compareVersions(parsed, latest.parsed) ||
        (parsed.prerelease === latest.parsed.prerelease ? 0 : parsed.prerelease === undefined ? 1 : -1)
      : 1;
    if (order > 0) latest = { version, parsed };
  }
  return latest?.version;
}

/** kube's ValidateResourceQuantityValue: a quantity must not be negative. */
function validateQuantity(value: string | number | undefined, path: FieldPath): FieldError[] {
  if (value === undefined) return [];
  const parsed = parseQuantity(value);
  return parsed !== undefined && parsed < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
}

/** Only one `supported` version per minor version (Gardener's validateSupportedVersionsConfiguration). */
function supportedVersionErrors(version: SpecVersion, all: readonly SpecVersion[], path: FieldPath): FieldError[] {
  if (version.classification !== 'supported') return [];
  const own = parseVersion(version.version);
  if (!own) return [];
  const others = all.filter((v) => {
    if (v.classification !== 'supported') return false;
    const other = parseVersion(v.version);
    if (!other) return false;
    const equal = other.major === own.major && other.minor === own.minor && other.patch === own.patch;
    return !equal && other.major === own.major && other.minor === own.minor;
  });
  if (others.length === 0) return [];
  return [
    forbidden(
      path,
      `unable to add version ${JSON.stringify(version.version)} with classification "supported". Only one "supported" version is allowed per minor version`,
    ),
  ];
}

/** Gardener's validateKubernetesVersions: the version format, duplicates and the classification of each version. */
export function validateKubernetesVersions(
  versions: readonly SpecVersion[] | undefined,
  path: FieldPath,
): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (versions ?? []).forEach((version, i) => {
    const p = path.child('versions').index(i);
    if (!kubernetesVersionPattern.test(version.version))
      errors.push(
        invalid(p, version, `all Kubernetes versions must match the regex ${kubernetesVersionPattern.source}`),
      );
    else if (seen.has(version.version)) errors.push(duplicate(p.child('version'), version.version));
    else seen.add(version.version);
    if (version.classification !== undefined && !classifications.includes(version.classification))
      errors.push(notSupported(p.child('classification'), version.classification, classifications));
  });
  return errors;
}

/**
 * Gardener's validateCloudProfileKubernetesSettings: at least one version, none of the latest's expiration date, the
 * versions themselves and one `supported` version per minor.
 */
export function validateCloudProfileKubernetesSettings(
  kubernetes: CloudProfileSpecInput['kubernetes'],
  path: FieldPath,
): FieldError[] {
  const errors: FieldError[] = [];
  const versions = kubernetes?.versions ?? [];
  if (versions.length === 0)
    errors.push(required(path.child('versions'), 'must provide at least one Kubernetes version'));
  const latest = latestVersion(versions);
  if (latest?.expirationDate !== undefined)
    errors.push(
      invalidTime(
        path.child('versions[]').child('expirationDate'),
        latest.expirationDate,
        `expiration date of latest kubernetes version ('${latest.version}') must not be set`,
      ),
    );
  errors.push(...validateKubernetesVersions(versions, path));
  versions.forEach((v, i) => errors.push(...supportedVersionErrors(v, versions, path.child('versions').index(i))));
  return errors;
}

/** Gardener's validateMachineImageVersionArchitecture (the architecture part of validateMachineImageVersionFlavors). */
function imageVersionArchitectureErrors(
  version: SpecImageVersion,
  capabilities: Capabilities,
  path: FieldPath,
): FieldError[] {
  const errors: FieldError[] = [];
  let supported = validArchitectures;
  if (hasCapabilities(capabilities)) {
    supported = capabilities[ArchitectureName] ?? [];
    const flavors = version.capabilityFlavors ?? [];
    if (supported.length > 1 && flavors.length === 0)
      return [
        required(
          path.child('capabilityFlavors'),
          'must provide at least one image flavor when multiple architectures are defined in spec.machineCapabilities',
        ),
      ];
    flavors.forEach((flavor, i) => {
      const values = flavor[ArchitectureName] ?? [];
      const archPath = path.child('capabilityFlavors').index(i).child('architecture');
      if (values.length === 0 && supported.length > 1)
        errors.push(
          required(
            archPath,
            'must specify one architecture explicitly as multiple architectures are defined in spec.machineCapabilities',
          ),
        );
      else if (values.length > 1)
        errors.push(invalid(archPath, values, 'must not define more than one architecture within an image flavor'));
    });
    let flavorArchitectures = [...new Set(flavors.flatMap((f) => f[ArchitectureName] ?? []))];
    if (flavorArchitectures.length === 0 && supported.length === 1) flavorArchitectures = [...supported];
    const architectures = version.architectures ?? [];
    if (architectures.length > 0 && !architectures.every((a) => flavorArchitectures.includes(a)))
      errors.push(
        invalid(
          path.child('architectures'),
          architectures,
          `architecture field values set (${architectures.join(',')}) conflict with the capability architectures (${flavorArchitectures.join(',')})`,
        ),
      );
  }
  (version.architectures ?? []).forEach((arch, i) => {
    if (!supported.includes(arch)) errors.push(notSupported(path.child('architectures').index(i), arch, supported));
  });
  return errors;
}

/** Gardener's validateMachineImageVersionFlavors: architectures, then each flavor's capabilities against the profile's. */
function imageVersionFlavorErrors(
  version: SpecImageVersion,
  capabilities: Capabilities,
  path: FieldPath,
): FieldError[] {
  const errors = imageVersionArchitectureErrors(version, capabilities, path);
  if (!hasCapabilities(capabilities)) return errors;
  const keys = Object.keys(capabilities);
  (version.capabilityFlavors ?? []).forEach((flavor, i) => {
    const flavorPath = path.child('capabilityFlavors').index(i);
    for (const [key, values] of Object.entries(flavor)) {
      const supported = capabilities[key];
      if (!supported) {
        errors.push(notSupported(flavorPath, key, keys));
        continue;
      }
      values.forEach((value, j) => {
        if (!supported.includes(value)) errors.push(notSupported(flavorPath.child(key).index(j), value, supported));
      });
    }
  });
  return errors;
}

/** Gardener's ValidateMachineImageVersion. `seen` collects `<image>-<version>` keys across all images. */
function validateMachineImageVersion(
  image: SpecImage,
  version: SpecImageVersion,
  capabilities: Capabilities,
  seen: Set<string>,
  path: FieldPath,
): FieldError[] {
  const errors: FieldError[] = [];
  const key = `${image.name}-${version.version}`;
  if (seen.has(key)) errors.push(duplicate(path, key));
  seen.add(key);
  if (!version.version) errors.push(required(path.child('version')));
  if (!isSemanticVersion(version.version ?? ''))
    errors.push(
      invalid(
        path.child('version'),
        version.version ?? '',
        'could not parse version. Use a semantic version. In case there is no semantic version for this image use the extensibility provider (define mapping in the CloudProfile) to map to the actual non semantic version',
      ),
    );
  const minVersion = version.inPlaceUpdates?.minVersionForUpdate;
  if (minVersion !== undefined && !isSemanticVersion(minVersion))
    errors.push(
      invalid(path.child('minVersionForInPlaceUpdate'), minVersion, 'could not parse version. Use a semantic version.'),
    );
  if (version.classification !== undefined && !classifications.includes(version.classification))
    errors.push(notSupported(path.child('classification'), version.classification, classifications));
  errors.push(...imageVersionFlavorErrors(version, capabilities, path));
  const constraint = version.kubeletVersionConstraint;
  if (constraint !== undefined && kubeletVersionRange(constraint) === undefined)
    errors.push(
      invalid(
        path.child('kubeletVersionConstraint'),
        constraint,
        `cannot parse the kubeletVersionConstraint: improper constraint: ${constraint}`,
      ),
    );
  return errors;
}

/**
 * Gardener's ValidateMachineImages: each image's name (set, a qualified name, unique), its versions (at least one
 * unless `allowEmptyVersions`, each unique, a semantic version, a known classification, supported architectures and
 * capabilities, a parsable kubelet version constraint) and its update strategy.
 */
export function validateMachineImages(
  images: readonly SpecImage[] | undefined,
  capabilities: Capabilities,
  path: FieldPath,
  allowEmptyVersions: boolean,
): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  const versionKeys = new Set<string>();
  (images ?? []).forEach((image, i) => {
    const p = path.index(i);
    if (names.has(image.name)) errors.push(duplicate(p, image.name));
    names.add(image.name);
    if (!image.name) errors.push(required(p.child('name'), 'machine image name must not be empty'));
    else {
      const nameErrors = unprefixedQualifiedNameErrors(image.name);
      if (nameErrors.length > 0)
        errors.push(
          invalid(p.child('name'), image.name, `machine image name must be a qualified name: ${goList(nameErrors)}`),
        );
    }
    if ((image.versions ?? []).length === 0 && !allowEmptyVersions)
      errors.push(
        required(p.child('versions'), `must provide at least one version for the machine image '${image.name}'`),
      );
    if (image.updateStrategy !== undefined && !updateStrategies.includes(image.updateStrategy))
      errors.push(notSupported(p.child('updateStrategy'), image.updateStrategy, updateStrategies));
    (image.versions ?? []).forEach((version, j) =>
      errors.push(
        ...validateMachineImageVersion(image, version, capabilities, versionKeys, p.child('versions').index(j)),
      ),
    );
  });
  return errors;
}

/** Gardener's validateContainerRuntimesInterfaces: at least one CRI, unique and supported, unique runtime types. */
function validateContainerRuntimeInterfaces(cris: SpecImageVersion['cri'], path: FieldPath): FieldError[] {
  if (!cris || cris.length === 0) return [required(path, 'must provide at least one supported container runtime')];
  const errors: FieldError[] = [];
  const names = new Set<string>();
  cris.forEach((cri, i) => {
    const p = path.index(i);
    if (names.has(cri.name)) errors.push(duplicate(p, cri.name));
    names.add(cri.name);
    if (!criNames.includes(cri.name)) errors.push(notSupported(p.child('name'), cri.name, criNames));
    const types = new Set<string>();
    (cri.containerRuntimes ?? []).forEach((runtime, j) => {
      if (types.has(runtime.type))
        errors.push(duplicate(p.child('containerRuntimes').index(j).child('type'), runtime.type));
      types.add(runtime.type);
    });
  });
  return errors;
}

/**
 * Gardener's ValidateCloudProfileMachineImages: at least one image, ValidateMachineImages without empty version
 * lists, an update strategy on each image, and on each version its CRIs, one `supported` version per minor and —
 * without capability definitions — architectures but no capability flavors.
 */
export function validateCloudProfileMachineImages(
  images: readonly SpecImage[] | undefined,
  capabilities: Capabilities,
  path: FieldPath,
): FieldError[] {
  const errors: FieldError[] = [];
  if (!images || images.length === 0) errors.push(required(path, 'must provide at least one machine image'));
  errors.push(...validateMachineImages(images, capabilities, path, false));
  (images ?? []).forEach((image, i) => {
    const p = path.index(i);
    if (image.updateStrategy === undefined)
      errors.push(required(p.child('updateStrategy'), 'must provide an update strategy'));
    const versions = image.versions ?? [];
    versions.forEach((version, j) => {
      const v = p.child('versions').index(j);
      errors.push(...validateContainerRuntimeInterfaces(version.cri, v.child('cri')));
      errors.push(...supportedVersionErrors(version, versions, v));
      if (!hasCapabilities(capabilities)) {
        if ((version.architectures ?? []).length === 0)
          errors.push(required(v.child('architectures'), 'must provide at least one architecture'));
        if ((version.capabilityFlavors ?? []).length > 0)
          errors.push(
            forbidden(v.child('capabilityFlavors'), 'must not provide capabilities without global definition'),
          );
      }
    });
  });
  return errors;
}

/** Gardener's validateMachineTypeStorage: `size` or `minSize`, not both, each a non-negative quantity. */
function validateMachineTypeStorage(storage: NonNullable<SpecMachineType['storage']>, path: FieldPath): FieldError[] {
  if (storage.size === undefined && storage.minSize === undefined)
    return [invalid(path, storage, 'must either configure "size" or "minSize"')];
  if (storage.size !== undefined && storage.minSize !== undefined)
    return [invalid(path, storage, 'not allowed to configure both "size" and "minSize"')];
  return [
    ...validateQuantity(storage.size, path.child('size')),
    ...validateQuantity(storage.minSize, path.child('minSize')),
  ];
}

/** Gardener's validateMachineTypeCapabilities (with validateMachineTypeArchitecture). */
function machineTypeCapabilityErrors(type: SpecMachineType, capabilities: Capabilities, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const arch = type.architecture ?? '';
  if (hasCapabilities(capabilities)) {
    const values = type.capabilities?.[ArchitectureName] ?? [];
    if (values.length > 1)
      errors.push(
        invalid(path.child('capabilities.architecture'), values, 'must not define more than one architecture'),
      );
    if (values.length === 1 && arch !== '' && arch !== values[0])
      errors.push(
        invalid(
          path.child('architecture'),
          values[0],
          `machine type architecture (${arch}) conflicts with the capability architecture (${values[0]})`,
        ),
      );
  }
  if (arch !== '' && !validArchitectures.includes(arch))
    errors.push(notSupported(path.child('architecture'), arch, validArchitectures));
  if (hasCapabilities(capabilities)) {
    const keys = Object.keys(capabilities);
    for (const [key, values] of Object.entries(type.capabilities ?? {})) {
      const supported = capabilities[key];
      if (!supported) {
        errors.push(notSupported(path.child('capabilities'), key, keys));
        continue;
      }
      values.forEach((value, i) => {
        if (!supported.includes(value))
          errors.push(notSupported(path.child('capabilities').child(key).index(i), value, supported));
      });
    }
  }
  return errors;
}

/** Gardener's validateMachineTypes: each type named (a qualified name, unique), its quantities, capabilities, storage. */
export function validateMachineTypes(
  types: readonly SpecMachineType[] | undefined,
  capabilities: Capabilities,
  path: FieldPath,
): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  (types ?? []).forEach((type, i) => {
    const p = path.index(i);
    if (!type.name) errors.push(required(p.child('name'), 'must provide a name'));
    else {
      const nameErrors = unprefixedQualifiedNameErrors(type.name);
      if (nameErrors.length > 0)
        errors.push(
          invalid(p.child('name'), type.name, `machine type name must be a qualified name: ${goList(nameErrors)}`),
        );
    }
    if (names.has(type.name)) {
      errors.push(duplicate(p.child('name'), type.name));
      return;
    }
    names.add(type.name);
    for (const field of ['cpu', 'gpu', 'memory'] as const)
      errors.push(...validateQuantity(type[field], p.child(field)));
    errors.push(...machineTypeCapabilityErrors(type, capabilities, p));
    if (type.storage) errors.push(...validateMachineTypeStorage(type.storage, p.child('storage')));
  });
  return errors;
}

/**
 * Gardener's validateCloudProfileMachineTypes: at least one type, validateMachineTypes, and an architecture on each
 * (the field, or the capability when the profile defines capabilities); capabilities only with a global definition.
 */
export function validateCloudProfileMachineTypes(
  types: readonly SpecMachineType[] | undefined,
  capabilities: Capabilities,
  path: FieldPath,
): FieldError[] {
  const errors: FieldError[] = [];
  if (!types || types.length === 0) errors.push(required(path, 'must provide at least one machine type'));
  errors.push(...validateMachineTypes(types, capabilities, path));
  (types ?? []).forEach((type, i) => {
    const withCapabilities = hasCapabilities(capabilities);
    if (!type.architecture && (!withCapabilities || (type.capabilities?.[ArchitectureName] ?? []).length === 0))
      errors.push(required(path.index(i).child('architecture'), 'must provide an architecture'));
    if (!withCapabilities && Object.keys(type.capabilities ?? {}).length > 0)
      errors.push(
        forbidden(path.index(i).child('capabilities'), 'must not provide capabilities without global definition'),
      );
  });
  return errors;
}

/** Gardener's validateVolumeTypes: names and classes (qualified names), unique names (stops at the first clash). */
export function validateVolumeTypes(types: readonly SpecVolumeType[] | undefined, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  for (const [i, type] of (types ?? []).entries()) {
    const p = path.index(i);
    if (!type.name) errors.push(required(p.child('name'), 'must provide a name'));
    else {
      const nameErrors = unprefixedQualifiedNameErrors(type.name);
      if (nameErrors.length > 0)
        errors.push(
          invalid(p.child('name'), type.name, `volume type name must be a qualified name: ${goList(nameErrors)}`),
        );
    }
    if (names.has(type.name)) {
      errors.push(duplicate(p.child('name'), type.name));
      break;
    }
    names.add(type.name);
    if (!type.class) errors.push(required(p.child('class'), 'must provide a class'));
    else {
      const classErrors = unprefixedQualifiedNameErrors(type.class);
      if (classErrors.length > 0)
        errors.push(
          invalid(p.child('class'), type.class, `volume class must be a qualified name: ${goList(classErrors)}`),
        );
    }
    errors.push(...validateQuantity(type.minSize, p.child('minSize')));
  }
  return errors;
}

/**
 * Gardener's ValidateNamespacedCloudProfileStatus: the merged spec's Kubernetes settings, and its machine images,
 * machine types and volume types when it has any, checked as a CloudProfile's.
 */
export function validateNamespacedCloudProfileStatus(spec: CloudProfileSpecInput, path: FieldPath): FieldError[] {
  const capabilities = capabilitiesOf(spec);
  const errors = validateCloudProfileKubernetesSettings(spec.kubernetes, path.child('kubernetes'));
  if ((spec.machineImages ?? []).length > 0)
    errors.push(...validateCloudProfileMachineImages(spec.machineImages, capabilities, path.child('machineImages')));
  if ((spec.machineTypes ?? []).length > 0)
    errors.push(...validateCloudProfileMachineTypes(spec.machineTypes, capabilities, path.child('machineTypes')));
  if ((spec.volumeTypes ?? []).length > 0)
    errors.push(...validateVolumeTypes(spec.volumeTypes, path.child('volumeTypes')));
  return errors;
}
