// Well-known names of the resources.gardener.cloud API that the resource-manager's controllers use
// (Gardener's pkg/apis/resources/v1alpha1), and the reasons of the ManagedResource conditions.
export const Annotation = {
  Ignore: 'resources.gardener.cloud/ignore',
  Mode: 'resources.gardener.cloud/mode',
  Origin: 'resources.gardener.cloud/origin',
  Description: 'resources.gardener.cloud/description',
  KeepObject: 'resources.gardener.cloud/keep-object',
  DeleteOnInvalidUpdate: 'resources.gardener.cloud/delete-on-invalid-update',
  SkipHealthCheck: 'resources.gardener.cloud/skip-health-check',
  PreserveReplicas: 'resources.gardener.cloud/preserve-replicas',
  PreserveResources: 'resources.gardener.cloud/preserve-resources',
} as const;

export const Label = {
  ManagedBy: 'resources.gardener.cloud/managed-by',
  GarbageCollectable: 'resources.gardener.cloud/garbage-collectable-reference',
} as const;

/** The value of `resources.gardener.cloud/mode` that releases an object from its ManagedResource. */
export const ModeIgnore = 'Ignore';

export const DescriptionText =
  'DO NOT EDIT - This resource is managed by gardener-resource-manager.\nAny modifications are discarded and the resource is returned to the original state.';

export const ConditionType = {
  ResourcesApplied: 'ResourcesApplied',
  ResourcesHealthy: 'ResourcesHealthy',
  ResourcesProgressing: 'ResourcesProgressing',
} as const;

export const Reason = {
  ApplySucceeded: 'ApplySucceeded',
  ApplyFailed: 'ApplyFailed',
  DecodingFailed: 'DecodingFailed',
  ApplyProgressing: 'ApplyProgressing',
  DeletionFailed: 'DeletionFailed',
  DeletionPending: 'DeletionPending',
  ReleaseOfOrphanedResourcesFailed: 'ReleaseOfOrphanedResourcesFailed',
  ManagedResourceIgnored: 'ManagedResourceIgnored',
  ChecksPending: 'ChecksPending',
  CannotReadSecret: 'CannotReadSecret',
  ResourcesHealthy: 'ResourcesHealthy',
  ResourcesRolledOut: 'ResourcesRolledOut',
  HealthCheckError: 'HealthCheckError',
} as const;

/** The ManagedResource finalizer base name; other classes than the default append `-<class>`. */
export const FinalizerName = 'resources.gardener.cloud/gardener-resource-manager';
export const DefaultResourceClass = 'resources';

/** Go's strconv.ParseBool truthy values, as Gardener reads boolean annotations. */
export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value);
}
