// One entry point per operation for any object of a kind this library knows: used by admission webhooks.
import {
  BackupBucketKind,
  BackupEntryKind,
  CloudProfileKind,
  ControllerDeploymentKind,
  ControllerInstallationKind,
  ControllerRegistrationKind,
  ExposureClassKind,
  NamespacedCloudProfileKind,
  ProjectKind,
  QuotaKind,
  SecretBindingKind,
  SeedKind,
  ShootKind,
} from '../core/v1beta1/index.js';
import { CredentialsBindingKind } from '../security/v1alpha1/index.js';
import { GardenletKind, ManagedSeedKind, ManagedSeedSetKind } from '../seedmanagement/v1alpha1/index.js';
import { BastionKind } from '../operations/v1alpha1/index.js';
import { ClusterOpenIDConnectPresetKind, OpenIDConnectPresetKind } from '../settings/v1alpha1/index.js';
import { defaultClusterOpenIDConnectPreset, defaultOpenIDConnectPreset } from '../defaulting/settings.js';
import {
  defaultCloudProfile,
  defaultNamespacedCloudProfile,
  defaultControllerRegistration,
  defaultManagedSeed,
  defaultProject,
  defaultSecretBinding,
  defaultSeed,
  defaultShoot,
} from '../defaulting/index.js';
import type { KindDefinition } from '../schema/kind.js';
import { withStatusZeroValues } from '../schema/zero-values.js';
import { type KubeObject, kindOf, schemaErrors } from '../serialization/manifests.js';
import { validateBackupBucket, validateBackupEntry } from './backup.js';
import { validateCloudProfile, validateNamespacedCloudProfile } from './cloudprofile.js';
import {
  validateControllerDeployment,
  validateControllerInstallation,
  validateControllerRegistration,
} from './controller.js';
import { type FieldError, FieldPath, invalid } from './field.js';
import { validateManagedSeed } from './managedseed.js';
import { validateManagedSeedSet } from './managedseedset.js';
import { validateGardenlet } from './gardenlet.js';
import { validateBastion } from './bastion.js';
import { validateClusterOpenIDConnectPreset, validateOpenIDConnectPreset } from './settings.js';
import {
  validateCredentialsBinding,
  validateExposureClass,
  validateProject,
  validateQuota,
  validateSecretBinding,
} from './project.js';
import { validateSeed } from './seed.js';
import { validateShoot } from './shoot/index.js';

type Validator = (object: any, old?: any) => FieldError[];
type Defaulter = (object: any) => any;

const key = (kind: KindDefinition) => `${kind.info.group}/${kind.info.version}/${kind.info.kind}`;

const validators = new Map<string, Validator>([
  [key(ShootKind), validateShoot],
  [key(SeedKind), validateSeed],
  [key(CloudProfileKind), validateCloudProfile],
  [key(NamespacedCloudProfileKind), validateNamespacedCloudProfile],
  [key(ProjectKind), validateProject],
  [key(QuotaKind), validateQuota],
  [key(SecretBindingKind), validateSecretBinding],
  [key(CredentialsBindingKind), validateCredentialsBinding],
  [key(ControllerRegistrationKind), validateControllerRegistration],
  [key(ControllerDeploymentKind), validateControllerDeployment],
  [key(ControllerInstallationKind), validateControllerInstallation],
  [key(BackupBucketKind), validateBackupBucket],
  [key(BackupEntryKind), validateBackupEntry],
  [key(ExposureClassKind), validateExposureClass],
  [key(ManagedSeedKind), validateManagedSeed],
  [key(ManagedSeedSetKind), validateManagedSeedSet],
  [key(GardenletKind), validateGardenlet],
  [key(BastionKind), validateBastion],
  [key(OpenIDConnectPresetKind), validateOpenIDConnectPreset],
  [key(ClusterOpenIDConnectPresetKind), validateClusterOpenIDConnectPreset],
]);

const defaulters = new Map<string, Defaulter>([
  [key(ShootKind), defaultShoot],
  [key(SeedKind), defaultSeed],
  [key(CloudProfileKind), defaultCloudProfile],
  [key(NamespacedCloudProfileKind), defaultNamespacedCloudProfile],
  [key(ProjectKind), defaultProject],
  [key(SecretBindingKind), defaultSecretBinding],
  [key(ControllerRegistrationKind), defaultControllerRegistration],
  [key(ManagedSeedKind), defaultManagedSeed],
  [key(OpenIDConnectPresetKind), defaultOpenIDConnectPreset],
  [key(ClusterOpenIDConnectPresetKind), defaultClusterOpenIDConnectPreset],
]);

/** Whether `validateObject` has semantic rules for this kind (beyond its schema). */
export function hasValidation(object: KubeObject): boolean {
  const kind = kindOf(object);
  return kind !== undefined && validators.has(key(kind));
}

/**
 * Validates an object of a known kind: first against its schema (wrong types are reported as invalid values and stop
 * there), then with the kind's rules. A field missing from `status` is no error: Gardener's API server decodes it as
 * Go's zero value (filled in here where it has one, see `withStatusZeroValues`), and status is written piecewise.
 * Throws for kinds this library does not define.
 */
export function validateObject(object: KubeObject, old?: KubeObject): FieldError[] {
  const kind = kindOf(object);
  if (!kind) throw new Error(`no schema for ${object.apiVersion} ${object.kind}`);
  const decoded = withStatusZeroValues(kind, object);
  const typeErrors = schemaErrors(kind, decoded)
    .filter((e) => !(isStatusPath(e.path) && valueAt(decoded, e.path) === undefined))
    .map((e) => invalid(FieldPath.root(e.path), valueAt(decoded, e.path), e.message));
  if (typeErrors.length > 0) return typeErrors;
  return validators.get(key(kind))?.(decoded, old && withStatusZeroValues(kind, old)) ?? [];
}

/**
 * Returns the object with the defaults of its kind applied and Go's zero values in its status (a copy; kinds without
 * defaults are returned as copies too).
 */
export function defaultObject<T extends KubeObject>(object: T): T {
  const kind = kindOf(object);
  const defaulter = kind && defaulters.get(key(kind));
  const defaulted: T = defaulter ? defaulter(object) : structuredClone(object);
  return kind ? withStatusZeroValues(kind, defaulted) : defaulted;
}

const isStatusPath = (path: string) => path === 'status' || path.startsWith('status.');

function valueAt(object: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined),
      object,
    );
}
