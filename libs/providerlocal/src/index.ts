// @gardener-ts/providerlocal: gardener-extension-provider-local's logic, built on the extension SDK
// (@gardener-ts/extensions) only — the OperatingSystemConfig, Worker, Infrastructure, ControlPlane, DNSRecord, backup
// and local-ext-* Extension actuators, the Worker and ControlPlane health checks, the seed's Service and Ingress
// controllers, and the local machine controller (machine-controller-manager's role: MachineDeployment → MachineSet →
// Machine → Pod with rolling updates).

// The component.
export { ExtensionName, seedKubeConfig, startProviderLocal } from './provider-local.js';
export {
  LocalType,
  ProviderLocalControllers,
  ServedResources,
  addProviderLocalControllers,
  type ProviderLocalOptions,
} from './controller/add.js';
export {
  BackupBucketActuator,
  backupEntryActuator,
  EtcdBackupHostPathKey,
  DefaultBackupBucketDir,
  bucketDirectory,
  entryDirectory,
} from './controller/backup/actuator.js';

// Bastion (its SSH server and program: the `@gardener-ts/providerlocal/ssh` subpath).
export { BastionActuator, type BastionActuatorOptions } from './controller/bastion/actuator.js';
export { LocalBastionType, addBastionController } from './controller/bastion/add.js';
export {
  DefaultBastionImage,
  bastionMeta,
  bastionPod,
  bastionService,
  type BastionObject,
} from './controller/bastion/objects.js';

// OperatingSystemConfig.
export {
  CloudConfigDataKey,
  LocalOSType,
  OperatingSystemConfigActuator,
  cloudConfigSecretName,
} from './controller/operatingsystemconfig/actuator.js';
export {
  SystemdUnitDirectory,
  renderCloudConfig,
  type UserDataFile,
  type UserDataUnit,
} from './controller/operatingsystemconfig/cloud-config.js';
export { addOperatingSystemConfigController } from './controller/operatingsystemconfig/add.js';

// Worker.
export { WorkerActuator, rolledOut, type WorkerActuatorOptions } from './controller/worker/actuator.js';
export { LocalWorkerType, addWorkerController } from './controller/worker/add.js';
export {
  LegacyPoolLabel,
  MachineClassSecretPurpose,
  PoolLabel,
  distributeOverZones,
  machineConfigurationOf,
  machineImageOf,
  wantedMachines,
  workerPoolHash,
  type CloudProfileConfig,
  type MachineConfiguration,
  type WantedMachines,
  type WorkerPool,
} from './controller/worker/machines.js';

// ControlPlane.
export {
  ControlPlaneActuator,
  ShootWebhooksManagedResourceName,
  type ControlPlaneActuatorOptions,
} from './controller/controlplane/actuator.js';
export { LocalControlPlaneType, addControlPlaneController } from './controller/controlplane/add.js';
export {
  LocalPathProvisioner,
  ProvisionerNotDeployed,
  ShootNoCleanupLabel,
  StorageClassesManagedResourceName,
  defaultStorageClass,
  storageClassesManagedResource,
  type ManagedResourceObject,
} from './controller/controlplane/storage-classes.js';

// DNSRecord.
export { DNSRecordActuator } from './controller/dnsrecord/actuator.js';
export { LocalDNSType, addDNSRecordController } from './controller/dnsrecord/add.js';
export {
  DNSRecordsDataKey,
  DNSRecordsLabel,
  KubeAPIServerServiceName,
  dnsRecordConfigMap,
  dnsRecordConfigMapName,
  localRecordOf,
  recordLine,
  type LocalDNSRecord,
  type LocalRecordType,
} from './controller/dnsrecord/records.js';

// Infrastructure and Extensions.
export {
  InfrastructureActuator,
  MachinePodsNetworkPolicy,
  machinePodsNetworkPolicy,
} from './controller/infrastructure/actuator.js';
export { LocalExtSeedActuator, LocalExtSeedType } from './controller/extension/local-ext-seed.js';
export {
  ShootObjectsActuator,
  managedResourceSecretName,
  objectDataKey,
  shootObjectsManagedResource,
  type ShootObjectsActuatorOptions,
} from './controller/extension/shoot-objects.js';
export {
  LocalExtShootType,
  localExtShootActuator,
  localExtShootObjects,
} from './controller/extension/shoot/actuator.js';
export { addLocalExtShootController } from './controller/extension/shoot/add.js';
export {
  LocalExtShootAfterWorkerImage,
  LocalExtShootAfterWorkerType,
  localExtShootAfterWorkerActuator,
  localExtShootAfterWorkerObjects,
} from './controller/extension/shootafterworker/actuator.js';
export { addLocalExtShootAfterWorkerController } from './controller/extension/shootafterworker/add.js';

// Health checks.
export {
  addHealthCheckControllers,
  controlPlaneHealthChecks,
  workerHealthChecks,
  type HealthCheckOptions,
} from './controller/healthcheck/add.js';
export {
  NotManagedByMCMAnnotation,
  ScaleDownProgressingThresholdMs,
  ScaleUpProgressingThresholdMs,
  everyNodeReady,
  everyNodeReadyCheck,
  machineDeploymentUnhealthy,
  type NodesCheckInput,
  type ShootClientFactory,
} from './controller/healthcheck/nodes.js';
export {
  machineControllerCheck,
  machineControllerShootAccessCheck,
} from './controller/healthcheck/machine-controller.js';

// Service and Ingress (seed).
export { addServiceController, isServedService, type ServiceControllerOptions } from './controller/service/add.js';
export { ServiceReconciler, type ServiceObject } from './controller/service/reconciler.js';
export {
  WellKnownNodePorts,
  desiredService,
  type DesiredService,
  type LoadBalancerAddresses,
  type SeedFacts,
} from './controller/service/desired.js';
export { addIngressController } from './controller/ingress/add.js';
export { IngressReconciler } from './controller/ingress/reconciler.js';
export { dnsRecordsForIngress, ingressDNSRecordName, type IngressDNSRecord } from './controller/ingress/records.js';

// The local machine controller.
export { addMachineControllers } from './machine/add.js';
export {
  planRollingUpdate,
  resolveFenceposts,
  type MachineSetCounts,
  type RollingUpdateInput,
  type RollingUpdatePlan,
} from './machine/rolling.js';
export {
  MCMFinalizer,
  MachineClassKind,
  MachineDeploymentKind,
  MachineKind,
  MachineSetKind,
  MachineTemplateHashLabel,
  NodeLabel,
  isAvailable,
  phaseOf,
  templateHash,
  type Machine,
  type MachineClass,
  type MachineDeployment,
  type MachinePhase,
  type MachineSet,
} from './machine/objects.js';
export {
  DefaultMachineImage,
  MachineNameLabel,
  MachinePodLabels,
  MachineReconciler,
  UserDataMountPath,
  machinePod,
  machinePodName,
  machineUserDataSecretName,
  phaseFromPod,
  type MachineBootstrapTokens,
  type MachineReconcilerOptions,
  type ShootNodeDrain,
  type ShootNodeReadiness,
} from './machine/controller/machine/reconciler.js';
export { shootBootstrapTokens, shootNodeDrain } from './machine/controller/machine/add.js';
export {
  NodeDrainer,
  drainShootOf,
  type DrainOutcome,
  type DrainRequest,
  type DrainShoot,
  type NodeDrainerOptions,
} from './machine/controller/machine/drainer.js';
export {
  DefaultPVDetachTimeoutMs,
  attachedVolumes,
  inFlightStep,
  splitByVolumes,
  trackedVolumes,
  volumePodActions,
  type VolumePodInFlight,
} from './machine/controller/machine/volume-drain.js';
export { ShootNodeWatches, type ShootNodeWatchesOptions } from './machine/controller/machine/node-watch.js';
export {
  DefaultMachineSettings,
  machineSettingsOf,
  type MachineSettings,
  type MachineSettingsDefaults,
} from './machine/controller/machine/settings.js';
export {
  BootstrapTokenPlaceholder,
  MachineCreationTimeoutMs,
  bootstrapTokenID,
  bootstrapTokenSecret,
  bootstrapTokenSecretName,
  newTokenSecret,
  withBootstrapToken,
} from './machine/bootstrap-token.js';
export { MachineSetReconciler, machinesToDelete } from './machine/controller/machineset/reconciler.js';
export { MachineDeploymentReconciler } from './machine/controller/machinedeployment/reconciler.js';

// Webhooks.
export { KubeletConfigPath, LocalEnsurer } from './webhook/ensurer.js';
export { LocalNodeResources, nodeMutator, withLocalNodeResources } from './webhook/node.js';
export { addProviderLocalWebhooks, providerLocalWebhookHandlers } from './webhook/add.js';
export {
  ExcludeWebhookFromRemediationLabel,
  SeedWebhookConfigurationName,
  ShootWebhookConfigurationName,
  WebhookPaths,
  WebhookServerPort,
  WebhookServiceName,
  WebhookServicePort,
  controlPlaneWebhook,
  nodeWebhook,
  seedWebhookConfiguration,
  servingNames,
  shootWebhookConfiguration,
  shootWebhookURL,
} from './webhook/configurations.js';
export {
  WebhookCAName,
  WebhookCertificatesIdentity,
  WebhookServerCertificateName,
  ensureWebhookCertificates,
  webhookCAConfig,
  webhookServerCertificateConfig,
  type WebhookCertificatesOptions,
} from './webhook/certificates.js';
export {
  WebhookFieldManager,
  reconcileSeedWebhookConfiguration,
  triggerNodeWebhook,
  type TriggerOptions,
} from './webhook/registration.js';
export { ProviderLocalWebhooks, type ProviderLocalWebhooksOptions } from './webhook/server.js';
export { addWebhookCertificateController } from './webhook/certificate/add.js';
export {
  DefaultCertificateSyncPeriodMs,
  WebhookCertificateReconciler,
  type CertificateRenewal,
  type WebhookCertificateReconcilerOptions,
} from './webhook/certificate/reconciler.js';
