// @gardener-ts/controllermanager: gardener-controller-manager's logic: the garden-side controllers.
export { startControllerManager, GardenCluster, type StartControllerManagerOptions } from './controller-manager.js';
export { addControllers, controllerRegistry, type AddDeps, type ControllerEntry } from './controller/add.js';
export * from './kinds.js';

export { addCertificateSigningRequestController } from './controller/certificatesigningrequest/add.js';
export {
  CertificateSigningRequestReconciler,
  csrGarden,
  type AccessDecision,
  type AccessQuestion,
  type CSRGarden,
} from './controller/certificatesigningrequest/reconciler.js';
export {
  isSeedClientCert,
  parseSeedCertificateRequest,
  SeedClientUsages,
  SeedsGroup,
  SeedUserNamePrefix,
  type CertificateRequestSubject,
  type SeedClientVerdict,
} from './controller/certificatesigningrequest/seed-client.js';

export { addControllerRegistrationControllers } from './controller/controllerregistration/add.js';
export {
  computeSeedNeeds,
  extensionsID,
  planInstallations,
  requiredExtensionsForShoot,
  kindTypesForSeed,
  wantedKindTypes,
  type Domain,
  type InstallationPlan,
  type SeedNeeds,
  type SeedNeedsInput,
} from './controller/controllerregistration/seed/required.js';
export {
  ControllerRegistrationSeedReconciler,
  ControllerDeploymentHash,
  RegistrationSpecHash,
  SeedSpecHash,
} from './controller/controllerregistration/seed/reconciler.js';
export { FinalizerName as ControllerRegistrationFinalizer } from './controller/controllerregistration/finalizer/reconciler.js';

export { addSeedLifecycleController } from './controller/seedlifecycle/add.js';
export {
  decideLifecycle,
  SeedLeaseNamespace,
  type LifecycleDecision,
  type LifecycleInput,
} from './controller/seedlifecycle/lifecycle.js';
export { SeedLifecycleReconciler } from './controller/seedlifecycle/reconciler.js';

export {
  addSeedExtensionsCheckController,
  mapControllerInstallationToSeed,
  relevantConditionsChanged,
} from './controller/seed/extensionscheck/add.js';
export { SeedExtensionsCheckReconciler } from './controller/seed/extensionscheck/reconciler.js';
export {
  classifyInstallations,
  extensionsReadyCondition,
  judgeExtensions,
  type ExtensionsFailures,
  type ExtensionsVerdict,
} from './controller/seed/extensionscheck/extensions.js';
export {
  addSeedBackupBucketsCheckController,
  backupBucketPredicate,
  mapBackupBucketToSeed,
} from './controller/seed/backupbucketscheck/add.js';
export { SeedBackupBucketsCheckReconciler } from './controller/seed/backupbucketscheck/reconciler.js';
export { backupBucketsReadyCondition, judgeBackupBuckets } from './controller/seed/backupbucketscheck/buckets.js';
export {
  conditionThresholdsMs,
  patchSeedCondition,
  setToProgressingOr,
  thresholdFor,
} from './controller/seed/utils.js';

export { addProjectControllers } from './controller/project/add.js';
export { ProjectReconciler } from './controller/project/reconciler.js';
export { desiredProjectRBAC, type RBACObject } from './controller/project/rbac.js';
export { planProjectNamespace, planNamespaceRelease, projectNamespaceName } from './controller/project/namespace.js';

export { addShootMaintenanceController } from './controller/shootmaintenance/add.js';
export { ShootMaintenanceReconciler } from './controller/shootmaintenance/reconciler.js';
export { maintainShoot, type MaintenanceResult } from './controller/shootmaintenance/maintain.js';
export {
  effectiveWindow,
  inWindow,
  untilNextWindow,
  type TimeWindow,
} from './controller/shootmaintenance/timewindow.js';
export {
  nextKubernetesVersion,
  nextMachineImageVersion,
  currentClassification,
} from './controller/shootmaintenance/versions.js';

export { addShootStatusLabelController } from './controller/shootstatuslabel/add.js';
export { ShootStatusLabelReconciler } from './controller/shootstatuslabel/reconciler.js';
export { computeShootStatus, type ShootStatus } from './controller/shootstatuslabel/status.js';

export { addShootHibernationController } from './controller/shoothibernation/add.js';
export { ShootHibernationReconciler } from './controller/shoothibernation/reconciler.js';
export {
  decideHibernation,
  parseSchedules,
  type HibernationDecision,
  type ParsedSchedule,
} from './controller/shoothibernation/schedule.js';

export {
  addProtectionController,
  ControllerDeploymentFinalizer,
  type ProtectionName,
} from './controller/protection/add.js';
export { ProtectionReconciler, type Protection } from './controller/protection/reconciler.js';
export {
  cloudProfileUsers,
  controllerDeploymentUsers,
  exposureClassUsers,
  namespacedCloudProfileUsers,
  quotaUsers,
} from './controller/protection/users.js';

export { addBastionController } from './controller/bastion/add.js';
export { BastionReconciler } from './controller/bastion/reconciler.js';
export { bastionVerdict, type BastionVerdict } from './controller/bastion/expiry.js';
export { addEventController } from './controller/event/add.js';
export { EventReconciler, eventDeletionDueInMs, isShootEvent } from './controller/event/reconciler.js';

export { addNamespacedCloudProfileController } from './controller/namespacedcloudprofile/add.js';
export { NamespacedCloudProfileReconciler } from './controller/namespacedcloudprofile/reconciler.js';
export { mergeCloudProfileSpec } from './controller/namespacedcloudprofile/merge.js';

export { addBindingController } from './controller/binding/add.js';
export { BindingReconciler } from './controller/binding/reconciler.js';
export {
  secretRelease,
  shootsUsingBinding,
  viewCredentialsBinding,
  viewSecretBinding,
  type BindingView,
} from './controller/binding/binding.js';
