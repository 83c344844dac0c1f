// @gardener-ts/extensions: the extension SDK — write a Gardener extension (provider) in TypeScript. An extension
// implements an `Actuator` per kind; `addExtensionController` runs it under Gardener's extension contract
// (operation annotation, finalizer, lastOperation/lastError, migrate/restore, force deletion). See README.md.

// The generic controllers and what an extension implements.
export {
  addExtensionController,
  extensionPredicates,
  hasPurpose,
  kindSpecFor,
  type ExtensionControllerOptions,
} from './controller/generic/add.js';
export { GenericReconciler, type GenericReconcilerOptions } from './controller/generic/reconciler.js';
export {
  RequeueAfterError,
  type Actuator,
  type ActuatorContext,
  type ActuatorResult,
} from './controller/generic/actuator.js';
export {
  ExtensionKinds,
  extensionFinalizer,
  shootTechnicalIDOfBackupEntry,
  withFinalizer,
  type ExtensionKindName,
  type ExtensionKindSpec,
  type ExtensionObject,
  type ExtensionStatus,
  type NamedResourceReference,
} from './controller/generic/kinds.js';
export {
  computeOperationType,
  hasClass,
  hasOperationAnnotation,
  hasType,
  isMigrated,
  lastOperationNotSuccessful,
  shouldSkipOperation,
  type ExtensionClass,
  type OperationType,
} from './controller/generic/operation.js';

// Backups: the generated bucket Secret and the generic BackupEntry actuator (`etcd-backup`).
export {
  BackupBucketNameKey,
  BackupSourcePrefix,
  CreatedByBackupEntryAnnotation,
  EtcdBackupSecretName,
  GeneratedBackupBucketSecretPrefix,
  GeneratedSecretNamespace,
  GenericBackupEntryActuator,
  deleteGeneratedBucketSecret,
  ensureGeneratedBucketSecret,
  etcdBackupSecretRef,
  generatedBucketSecretRef,
  type BackupEntryDelegate,
} from './controller/backup/backup.js';

// The Cluster resource.
export {
  ClusterKind,
  ForceDeletionAnnotation,
  ShootIgnoreAnnotation,
  decodeCluster,
  getCluster,
  isFailed,
  isHibernated,
  isHibernationEnabled,
  isShootDeleted,
  isShootFailed,
  isShootIgnored,
  isShootInMigration,
  parseBoolAnnotation,
  shootNeedsForceDeletion,
  type Cluster,
  type ClusterObject,
} from './cluster/cluster.js';

// Heartbeat.
export {
  addHeartbeatController,
  isHeartbeatLease,
  isNotOwnRenewal,
  HeartbeatControllerName,
  type HeartbeatControllerOptions,
} from './controller/heartbeat/add.js';
export {
  HeartbeatReconciler,
  heartbeatLease,
  HeartbeatLeaseName,
  DefaultRenewIntervalSeconds,
  type HeartbeatOptions,
} from './controller/heartbeat/reconciler.js';

// Health checks.
export {
  addHealthCheckController,
  DefaultHealthCheckSyncPeriodMs,
  type HealthCheckControllerOptions,
} from './healthcheck/add.js';
export {
  HealthCheckReconciler,
  type HealthCheckRegistration,
  type HealthCheckReconcilerOptions,
} from './healthcheck/reconciler.js';
export {
  managedResourceCheck,
  managedResourceProblem,
  seedDaemonSetCheck,
  seedDeploymentCheck,
  seedStatefulSetCheck,
  shootDaemonSetCheck,
  shootDeploymentCheck,
  shootNodesCheck,
  type HealthCheck,
  type HealthCheckContext,
} from './healthcheck/checks.js';
export {
  conditionFromResults,
  ReasonProgressing,
  ReasonSuccessful,
  ReasonUnsuccessful,
  type CheckOutcome,
  type CheckResult,
} from './healthcheck/result.js';

// Garden access, referenced resources, secrets.
export {
  DefaultGardenKubeconfigPath,
  GardenKubeconfigEnv,
  SeedNameEnv,
  TokenFileRefreshMs,
  gardenAccessSecret,
  gardenClient,
  gardenKubeconfigPath,
  loadGardenKubeConfig,
  seedName,
  type GardenAccessSecretOptions,
} from './gardenaccess/garden-access.js';
export {
  ReferencedResourcesPrefix,
  getReferencedObject,
  referencedObjectCopies,
  referencedObjectName,
  referencedResource,
  type ReferencedObject,
} from './referencedresources/referenced-resources.js';
export {
  caRotation,
  generateSecretsForCluster,
  secretsManagerForCluster,
  type ClusterSecretsManagerOptions,
} from './secrets/secrets.js';

// Webhooks: the shoot control plane in the seed, and webhooks inside the shoot.
export {
  ControlPlaneDeployments,
  containerWithName,
  controlPlaneMutator,
  ensureElementByKey,
  ensureFile,
  ensureNoStringWithPrefix,
  ensureStringWithPrefix,
  ensureUnit,
  type ControlPlaneEnsurer,
  type EnsurerContext,
  type OSCFile,
  type OSCUnit,
  type OperatingSystemConfigObject,
} from './webhook/controlplane.js';
export {
  controlPlaneWebhook,
  shootWebhooksManagedResource,
  shootWebhooksManagedResourceName,
} from './webhook/shoot-webhooks.js';

// Utilities.
export { applyMergePatch, mergePatchFor } from './util/merge-patch.js';
export { ShootAccessSecretName, shootClientFor } from './shootclient/shoot-client.js';
