// @gardener-ts/gardenlet-controllers: gardenlet's logic: the agent of one seed (seed side and shoot flows).
export {
  startGardenlet,
  probeHealthz,
  GARDEN,
  SEED,
  type GardenletAssets,
  type GardenletOptions,
} from './gardenlet.js';
export { resolveAssets } from './assets.js';
export * from './constants.js';
export { SeedKind, type Seed } from './seed-kind.js';
export {
  gardenConnection,
  requestClientCertificate,
  renewKubeconfig,
  readKubeconfigSecret,
  writeKubeconfigSecret,
  type GardenConnection,
  type GardenConnectionOptions,
  type CertificateRequestOptions,
} from './bootstrap/bootstrap.js';
export { certificateKubeconfig, clusterOf, type ClusterInfo } from './bootstrap/kubeconfig.js';
export { generateCertificateRequest, certificateSigningRequest, seedUserName, seedSubject } from './bootstrap/csr.js';
export { rotationDeadline, renewalRequested } from './bootstrap/rotation.js';
export { CertificateRotation, type CertificateRotationOptions } from './bootstrap/certificate-rotation.js';
export { HelmRenderer, parseManifests, type HelmRendererOptions } from './charts/helm.js';
export {
  bootstrapKubeconfig,
  bootstrapTokenDescription,
  bootstrapTokenSecret,
  bootstrapTokenString,
  gardenletChartValues,
  newBootstrapToken,
  GardenletChart,
  type BootstrapToken,
  type KubeconfigCluster,
} from './charts/gardenlet-chart.js';
export { seedFromConfig, registerSeed } from './registration/seed-registration.js';
export { addControllers, CONTROLLERS, type ControllerDeps } from './controller/add.js';
export { HealthManager } from './controller/lease/health.js';
export { seedFlow, SeedTasks, type SeedSystem } from './controller/seed/flow.js';

// Shoot side (issue 19, first part): the seed objects of a shoot as pure renderers, Gardener's reconcile and delete
// flow graphs over a narrow operation interface, the sync rules, and the first seed steps.
export * from './component/values.js';
export { renderControlPlaneNamespace, requiredExtensionTypes, type NamespaceOptions } from './component/namespace.js';
export { renderCluster } from './component/cluster.js';
export {
  shootSecretConfigs,
  collectSecretNames,
  secretNameOf,
  SecretNames,
  type ShootSecretNames,
} from './component/secrets.js';
export { renderEtcd, etcdName, etcdClientURL, type Etcd, type EtcdRole } from './component/etcd.js';
export {
  renderKubeAPIServerService,
  renderKubeAPIServerDeployment,
  renderEncryptionConfigurationSecret,
  renderAdmissionConfigSecret,
  renderAuditPolicyConfigMap,
  kubeAPIServerArgs,
  admissionPlugins,
  DefaultAdmissionPlugins,
} from './component/kube-apiserver.js';
export { renderKubeControllerManagerDeployment } from './component/kube-controller-manager.js';
export { renderKubeSchedulerDeployment, renderKubeSchedulerConfigMap } from './component/kube-scheduler.js';
export { renderShootAccessSecret, renderGenericTokenKubeconfigSecret } from './component/shoot-access.js';
export * from './component/extensions.js';
export * from './component/operatingsystemconfig.js';
export * from './shoot/worker-steps.js';
export { reconcileFlow, type ShootFlow, type ReconcileFlowOptions } from './shoot/flow/reconcile.js';
export { deleteFlow, type DeleteFlowState, type DeleteFlowOptions } from './shoot/flow/delete.js';
export { flowConditions, type FlowConditions } from './shoot/flow/conditions.js';
export {
  SkipReasons,
  type ReconcileOperation,
  type DeleteOperation,
  type SkippedTask,
  type Step,
} from './shoot/flow/operation.js';
export {
  shootSyncDecision,
  computeOperationType,
  syncPeriodOfShoot,
  type SyncDecision,
  type ShootSyncConfig,
} from './shoot/sync.js';
export { ExtensionResources, extensionReadiness, extensionKeyOf } from './shoot/extension-resources.js';
export { SeedShootSteps } from './shoot/seed-steps.js';

// etcd-druid's etcd-backup-restore in local mode (`etcdbrctl`): snapshots into a Local store, restores before etcd starts.
export * from './etcdbr/index.js';
