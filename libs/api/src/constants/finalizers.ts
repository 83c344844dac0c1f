// Finalizers Gardener puts on objects it manages.

/** On Gardener's own API objects (Shoot, Project, Seed, BackupBucket, ...). */
export const GardenerFinalizer = 'gardener';
/** On Kubernetes core objects Gardener depends on (secrets referenced by bindings, namespaces, ...). */
export const ExternalGardenerFinalizer = 'gardener.cloud/gardener';
/** Keeps objects referenced from `spec.resources` of a Shoot or Seed from being deleted while in use. */
export const ReferenceProtectionFinalizer = 'gardener.cloud/reference-protection';
/** The gardener-resource-manager's finalizer on ManagedResources. */
export const ResourceManagerFinalizer = 'resources.gardener.cloud/gardener-resource-manager';
