// @gardener-ts/api: Gardener's API types, CRDs, defaulting, validation and well-known constants.

// Well-known annotations, labels, finalizers, operations, condition types and error codes.
export * from './constants/index.js';

// TypeBox schemas and static types, one namespace per API group version (like Go import aliases).
export * as corev1beta1 from './core/v1beta1/index.js';
export * as securityv1alpha1 from './security/v1alpha1/index.js';
export * as seedmanagementv1alpha1 from './seedmanagement/v1alpha1/index.js';
export * as operationsv1alpha1 from './operations/v1alpha1/index.js';
export * as settingsv1alpha1 from './settings/v1alpha1/index.js';
export type {
  Shoot,
  Seed,
  CloudProfile,
  NamespacedCloudProfile,
  Project,
  Quota,
  SecretBinding,
  ControllerRegistration,
  ControllerDeployment,
  ControllerInstallation,
  BackupBucket,
  BackupEntry,
  ExposureClass,
  ShootState,
  InternalSecret,
} from './core/v1beta1/index.js';
export type { CredentialsBinding } from './security/v1alpha1/index.js';
export type { ManagedSeed, ManagedSeedSet, Gardenlet } from './seedmanagement/v1alpha1/index.js';
export type { Bastion } from './operations/v1alpha1/index.js';
export type { OpenIDConnectPreset, ClusterOpenIDConnectPreset } from './settings/v1alpha1/index.js';

// Types of the groups Gardener ships CRDs for (extensions, resources, operator, machine).
export * from './crd-types/index.js';

// Schema building blocks and kind metadata.
export * as schema from './schema/primitives.js';
export type { ObjectMeta, ObjectReference, LabelSelector, SecretReference } from './schema/meta.js';
export { apiVersionOf, type KindDefinition, type KindInfo, type ObjectOf, type PrinterColumn } from './schema/kind.js';
export { gardenerKinds, findKind } from './kinds.js';
// Go's zero values of non-omitempty fields, as Gardener's API server decodes them.
export { fillZeroValues, withStatusZeroValues, zeroValue } from './schema/zero-values.js';

export * from './crd/index.js';
export * from './serialization/index.js';
export * from './validation/index.js';
export * from './defaulting/index.js';

// Kubernetes resource quantities, label and field selectors, CIDR ranges and Go durations: one implementation each.
export * from './quantity.js';
export * from './selector.js';
export * from './field-selector.js';
export * from './cidr.js';
export * from './network-disjointedness.js';
export * from './duration.js';

// A NamespacedCloudProfile merged with its parent CloudProfile (its status, and what admission validates).
export * from './cloudprofile-merge.js';

// Machine image versions against a worker pool (kubelet constraint, CRI, architecture, capabilities), and the
// Kubernetes versions that know a feature gate or admission plugin.
export * from './machine-image-compatibility.js';
export * from './kubernetes-feature-versions.js';
