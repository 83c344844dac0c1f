// The rules of Gardener's NamespacedCloudProfileValidator (plugin/pkg/namespacedcloudprofile/validator) and of the
// NamespacedCloudProfile part of its CustomVerbAuthorizer, as pure functions of the profile, its old version and the
// parent CloudProfile's spec: machine types may not overwrite the parent's, Kubernetes and machine image versions of
// the parent may only get an expiration date (never one in the past on UPDATE, unless it was already in force), and
// changing `.spec.kubernetes`, `.spec.machineImages`, `.spec.providerConfig` or raising limits needs a custom verb.
// Machine images the parent does not have are checked as a CloudProfile's, and the profile merged with its parent
// (libs/api's `mergeCloudProfileSpec`, the controller-manager's status merge, as Gardener simulates it) must be a valid
// CloudProfile spec.
import {
  FieldPath,
  forbidden,
  mergeCloudProfileSpec,
  type CloudProfile,
  type FieldError,
  type NamespacedCloudProfile,
} from '@gardener-ts/api';
import {
  capabilitiesOf,
  invalidTime,
  validateCloudProfileMachineImages,
  validateMachineImages,
  validateNamespacedCloudProfileStatus,
  type CloudProfileSpecInput,
  type SpecImage,
} from './cloudprofile-spec-validation.js';

export { goTime } from './cloudprofile-spec-validation.js';

/** The parts of a (Namespaced)CloudProfile spec these rules read. */
export interface ProfileSpec {
  kubernetes?: { versions?: Version[] };
  machineImages?: MachineImage[];
  machineTypes?: NamedType[];
  volumeTypes?: NamedType[];
  providerConfig?: unknown;
  limits?: { maxNodesTotal?: number };
  [key: string]: unknown;
}

/** A machine or volume type. */
export interface NamedType {
  name: string;
  [key: string]: unknown;
}

interface Version {
  version: string;
  expirationDate?: string;
  [key: string]: unknown;
}

interface MachineImageVersion extends Version {
  classification?: string;
  cri?: unknown[];
  architectures?: string[];
  capabilitySets?: unknown[];
  capabilityFlavors?: unknown[];
  kubeletVersionConstraint?: string;
}

interface MachineImage {
  name: string;
  updateStrategy?: string;
  versions?: MachineImageVersion[];
  [key: string]: unknown;
}

/** The stored profile an UPDATE replaces: its spec and the merged `status.cloudProfileSpec`. */
export interface OldProfile {
  spec?: ProfileSpec;
  status?: { cloudProfileSpec?: ProfileSpec };
}

const isEmpty = (x: unknown): boolean =>
  x === undefined || x === null || (Array.isArray(x) && x.length === 0) || (typeof x === 'string' && x === '');

/**
 * Kubernetes' semantic equality of API objects as plain JSON: key order does not matter, and absent, null, empty
 * lists and empty strings are alike (Go's nil and empty slices, zero values that omitempty drops).
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmpty(a) || isEmpty(b)) return isEmpty(a) && isEmpty(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (typeof a === 'object' && typeof b === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
    return [...keys].every((k) => semanticEqual(x[k], y[k]));
  }
  return a === b;
}

/** metav1.Time's `Equal` on optional RFC 3339 timestamps (both absent is equal). */
function sameTime(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Date.parse(a) === Date.parse(b);
}

const isPast = (date: string | undefined, now: Date): boolean => date !== undefined && Date.parse(date) < now.getTime();

/**
 * A machine type of the profile that the parent defines too, unless (on UPDATE) the profile had it already — the parent
 * may have added it since. Gardener answers 400 `NamespacedCloudProfile attempts to overwrite parent CloudProfile with
 * machineType: <type>`.
 */
export function overwrittenMachineType(
  spec: ProfileSpec,
  parent: ProfileSpec,
  oldSpec?: ProfileSpec,
): NamedType | undefined {
  if (!spec.machineTypes || !parent.machineTypes) return undefined;
  const parentNames = new Set(parent.machineTypes.map((t) => t.name));
  const oldNames = new Set((oldSpec?.machineTypes ?? []).map((t) => t.name));
  return spec.machineTypes.find((t) => parentNames.has(t.name) && !(oldSpec && oldNames.has(t.name)));
}

/**
 * The first refused Kubernetes version override, in Gardener's words (a plain error): each must be a version of the
 * parent and set an expiration date; on UPDATE a date in the past only when the merged profile had it already.
 */
export function kubernetesOverrideError(
  spec: ProfileSpec,
  parent: ProfileSpec,
  old: OldProfile | undefined,
  now: Date,
): string | undefined {
  if (!spec.kubernetes) return undefined;
  const parentVersions = new Set((parent.kubernetes?.versions ?? []).map((v) => v.version));
  const merged = new Map((old?.status?.cloudProfileSpec?.kubernetes?.versions ?? []).map((v) => [v.version, v]));
  for (const v of spec.kubernetes.versions ?? []) {
    if (!parentVersions.has(v.version))
      return `invalid kubernetes version specified: '${v.version}' does not exist in parent CloudProfile and thus cannot be overridden`;
    if (v.expirationDate === undefined) return `specified version '${v.version}' does not set expiration date`;
    if (old && isPast(v.expirationDate, now)) {
      const current = merged.get(v.version);
      if (!current || !sameTime(current.expirationDate, v.expirationDate))
        return `expiration date for version ${JSON.stringify(v.version)} is in the past`;
    }
  }
  return undefined;
}

// `capabilitySets` is the field's name in the Gardener version read, `capabilityFlavors` its name in our API types.
const extendedVersionFields: [
  'classification' | 'cri' | 'architectures' | 'capabilitySets' | 'capabilityFlavors' | 'kubeletVersionConstraint',
  string,
][] = [
  ['classification', 'a classification'],
  ['cri', 'a cri'],
  ['architectures', 'an architecture'],
  ['capabilitySets', 'capabilities'],
  ['capabilityFlavors', 'capabilities'],
  ['kubeletVersionConstraint', 'a kubelet version constraint'],
];

/**
 * The field errors of the profile's machine images. Versions it takes from the parent: only their expiration date may
 * be set (and must be), not in the past on UPDATE unless the merged profile had that date already; an image or version
 * that the profile had before the parent added it keeps its fields but may not change them. New versions of a parent
 * image are left to the merged result (`mergedProfileErrors`). An image the parent does not have is validated as a
 * CloudProfile's (Gardener's ValidateMachineImages and ValidateCloudProfileMachineImages on the image alone, whose
 * path `spec.machineImages[i]` they index once more: `spec.machineImages[i][0].versions[0]...`, as in Gardener).
 * Gardener aggregates the list, which drops repeated messages: use {@link aggregateErrors}.
 */
export function machineImageOverrideErrors(
  spec: ProfileSpec,
  parent: ProfileSpec,
  old: OldProfile | undefined,
  now: Date,
): FieldError[] {
  const errors: FieldError[] = [];
  const parentImages = new Map((parent.machineImages ?? []).map((m) => [m.name, m]));
  const image = (images: MachineImage[] | undefined, name: string) => images?.find((m) => m.name === name);
  const version = (m: MachineImage | undefined, v: string) => m?.versions?.find((x) => x.version === v);
  const capabilities = capabilitiesOf(parent as CloudProfileSpecInput);
  (spec.machineImages ?? []).forEach((img, i) => {
    const parentImage = parentImages.get(img.name);
    const path = FieldPath.root('spec', 'machineImages').index(i);
    if (!parentImage) {
      const own = [img as SpecImage];
      errors.push(...validateMachineImages(own, capabilities, path, false));
      errors.push(...validateCloudProfileMachineImages(own, capabilities, path));
      return;
    }
    const oldImage = old ? image(old.spec?.machineImages, img.name) : undefined;
    if (oldImage && (img.updateStrategy ?? '') !== (oldImage.updateStrategy ?? ''))
      errors.push(
        forbidden(
          path.child('updateStrategy'),
          `cannot update the machine image update strategy of ${JSON.stringify(img.name)}, as this version has been added to the parent CloudProfile by now`,
        ),
      );
    (img.versions ?? []).forEach((v, j) => {
      if (!version(parentImage, v.version)) return;
      const vPath = path.child('versions').index(j);
      const oldVersion = version(oldImage, v.version);
      if (oldVersion && !semanticEqual(oldVersion, v))
        errors.push(
          forbidden(
            vPath,
            `cannot update the machine image version spec of "${img.name}@${v.version}", as this version has been added to the parent CloudProfile by now`,
          ),
        );
      if (!oldVersion) {
        for (const [field, what] of extendedVersionFields) {
          if (!isEmpty(v[field]))
            errors.push(
              forbidden(
                vPath.child(field),
                `must not provide ${what} to an extended machine image in NamespacedCloudProfile`,
              ),
            );
        }
        if (v.expirationDate === undefined)
          errors.push(
            invalidTime(
              vPath.child('expirationDate'),
              undefined,
              `expiration date for version ${JSON.stringify(v.version)} must be set`,
            ),
          );
      }
      if (old && isPast(v.expirationDate, now)) {
        const current = version(image(old.status?.cloudProfileSpec?.machineImages, img.name), v.version);
        if (!current || !sameTime(current.expirationDate, v.expirationDate))
          errors.push(
            invalidTime(
              vPath.child('expirationDate'),
              v.expirationDate,
              `expiration date for version ${JSON.stringify(v.version)} is in the past`,
            ),
          );
      }
    });
  });
  return errors;
}

/**
 * The message of an aggregated error list as kube's `ErrorList.ToAggregate().Error()` words it: repeated messages
 * dropped, one message alone, more in brackets joined by `, `.
 */
export function aggregateErrors(errors: readonly FieldError[]): string {
  const messages = [...new Set(errors.map((e) => e.message))];
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}

/**
 * The errors of the simulated `status.cloudProfileSpec`: the parent's spec merged with the profile's (libs/api's
 * `mergeCloudProfileSpec`, which the controller-manager writes to the status) validated as Gardener's
 * ValidateNamespacedCloudProfileStatus does.
 */
export function mergedProfileErrors(parent: ProfileSpec, spec: ProfileSpec): FieldError[] {
  // The merge walks every image's versions; an image listed without any (a parent image extended by nothing) has none.
  const namespaced = { ...spec, machineImages: spec.machineImages?.map((m) => ({ ...m, versions: m.versions ?? [] })) };
  const merged = mergeCloudProfileSpec(
    parent as unknown as CloudProfile['spec'],
    namespaced as unknown as NamespacedCloudProfile['spec'],
  );
  return validateNamespacedCloudProfileStatus(
    merged as unknown as CloudProfileSpecInput,
    FieldPath.root('status.cloudProfileSpec'),
  );
}

/**
 * Gardener's refusal of an invalid merge result: `error while validating merged NamespacedCloudProfile: [...]`, the
 * field errors printed as Go prints a list (`%+v`: joined by spaces, nothing dropped).
 */
export function mergedProfileMessage(errors: readonly FieldError[]): string {
  return `error while validating merged NamespacedCloudProfile: [${errors.map((e) => e.message).join(' ')}]`;
}

/** A custom verb a change needs (CustomVerbAuthorizer) and the operation its refusal names. */
export interface NeededVerb {
  verb: string;
  operation: string;
}

export const ModifySpecKubernetes = 'modify-spec-kubernetes';
export const ModifySpecMachineImages = 'modify-spec-machineimages';
export const ModifySpecProviderConfig = 'modify-spec-providerconfig';
export const RaiseSpecLimits = 'raise-spec-limits';

/**
 * The custom verbs on `namespacedcloudprofiles` a CREATE (no old spec) or UPDATE needs, in Gardener's order: any change
 * of `.spec.kubernetes`, `.spec.machineImages`, `.spec.providerConfig`, and changed limits whose `maxNodesTotal`
 * exceeds the parent's.
 */
export function neededVerbs(spec: ProfileSpec, oldSpec: ProfileSpec | undefined, parent: ProfileSpec): NeededVerb[] {
  const verbs: NeededVerb[] = [];
  if (!semanticEqual(oldSpec?.kubernetes, spec.kubernetes))
    verbs.push({ verb: ModifySpecKubernetes, operation: 'modify .spec.kubernetes' });
  if (!semanticEqual(oldSpec?.machineImages, spec.machineImages))
    verbs.push({ verb: ModifySpecMachineImages, operation: 'modify .spec.machineImages' });
  if (!semanticEqual(oldSpec?.providerConfig, spec.providerConfig))
    verbs.push({ verb: ModifySpecProviderConfig, operation: 'modify .spec.providerConfig' });
  const parentMax = parent.limits?.maxNodesTotal;
  if (
    spec.limits !== undefined &&
    !semanticEqual(oldSpec?.limits, spec.limits) &&
    parentMax !== undefined &&
    (spec.limits.maxNodesTotal ?? 0) > parentMax
  )
    verbs.push({ verb: RaiseSpecLimits, operation: 'increase .spec.limits above parent CloudProfile limits' });
  return verbs;
}
