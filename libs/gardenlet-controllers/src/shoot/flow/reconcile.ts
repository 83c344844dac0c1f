// The gardenlet's Shoot reconcile flow (create, reconcile, restore) as a `@gardener-ts/flow` graph: Gardener's task
// names and dependencies (`pkg/gardenlet/controller/shoot/shoot/reconciler_reconcile.go`), each task calling one
// step of a `ReconcileOperation`. Tasks without a local counterpart (istio, VPN, VPA, logging, monitoring, addons,
// ...) stay in the graph, skipped, so the dependencies are Gardener's; `skipped` lists them with the reason.
import type { RetryOptions } from '@gardener-ts/flow';
import { ShootGraph, DefaultStepRetry } from './builder.js';
import type { FlowConditions } from './conditions.js';
import { SkipReasons, type ReconcileSteps, type SkippedTask } from './operation.js';
import type { Flow } from '@gardener-ts/flow';

/** Options of {@link reconcileFlow}. */
export interface ReconcileFlowOptions {
  /** Retry of deploy steps; Gardener's 5 s / 30 s by default, `false` for none. */
  readonly retry?: RetryOptions | false;
}

/** The compiled reconcile flow and the tasks it skips for lack of a local counterpart. */
export interface ShootFlow {
  readonly flow: Flow;
  readonly skipped: readonly SkippedTask[];
}

/** Builds the reconcile flow of a shoot over its operation. */
export function reconcileFlow(op: ReconcileSteps, c: FlowConditions, options: ReconcileFlowOptions = {}): ShootFlow {
  const g = new ShootGraph(
    `Shoot cluster ${c.restoring ? 'restoration' : 'reconciliation'}`,
    options.retry === false ? undefined : (options.retry ?? DefaultStepRetry),
  );
  const hibernated = c.hibernationEnabled;
  const when = (cond: boolean, id: string) => (cond ? [id] : []);

  const deployNamespace = g.add({ name: 'Deploying Shoot namespace in Seed', step: op.deployNamespace, retry: true });
  const ensureShootClusterIdentity = g.add({
    name: 'Ensuring Shoot cluster identity',
    step: op.ensureShootClusterIdentity,
    retry: true,
    dependencies: [deployNamespace],
  });
  const deployCloudProviderSecret = g.add({
    name: 'Deploying cloud provider account secret',
    step: op.deployCloudProviderSecret,
    retry: true,
    skipIf: c.workerless,
    dependencies: [deployNamespace],
  });
  const istioConfigMap = g.add({
    name: 'Reconcile Istio internal load balancing ConfigMap',
    local: SkipReasons.istio,
    dependencies: [deployNamespace],
  });
  const initializeSecretsManagement = g.add({
    name: 'Initializing secrets management',
    step: op.initializeSecretsManagement,
    retry: true,
    dependencies: [deployNamespace, istioConfigMap],
  });
  const initialLogging = g.add({
    name: 'Deploying initial shoot logging stack in Seed',
    local: SkipReasons.logging,
    dependencies: [deployNamespace, initializeSecretsManagement],
  });
  const deployReferencedResources = g.add({
    name: 'Deploying referenced resources',
    step: op.deployReferencedResources,
    retry: true,
    dependencies: [deployNamespace],
  });
  const deployInfrastructure = g.add({
    name: 'Deploying Shoot infrastructure',
    step: op.deployInfrastructure,
    retry: true,
    skipIf: c.workerless,
    dependencies: [initializeSecretsManagement, deployCloudProviderSecret, deployReferencedResources],
  });
  const waitUntilInfrastructureReady = g.add({
    name: 'Waiting until shoot infrastructure has been reconciled',
    step: op.waitForInfrastructure,
    skipIf: c.workerless,
    dependencies: [deployInfrastructure],
  });
  const deployKubeAPIServerService = g.add({
    name: 'Deploying Kubernetes API server service in the Seed cluster',
    step: op.deployKubeAPIServerService,
    retry: true,
    dependencies: [deployNamespace, ensureShootClusterIdentity, ...when(!c.hasNodesCIDR, waitUntilInfrastructureReady)],
  });
  const waitUntilKubeAPIServerServiceIsReady = g.add({
    name: 'Waiting until Kubernetes API server service in the Seed cluster has reported readiness',
    step: op.waitForKubeAPIServerService,
    skipIf: hibernated,
    dependencies: [deployKubeAPIServerService],
  });
  g.add({
    name: 'Ensuring advertised addresses for the Shoot',
    step: op.updateAdvertisedAddresses,
    dependencies: [initializeSecretsManagement, waitUntilKubeAPIServerServiceIsReady],
  });
  const deployInternalDomainDNSRecord = g.add({
    name: 'Deploying internal domain DNS record',
    step: op.deployInternalDNSRecord,
    skipIf: hibernated,
    dependencies: [deployReferencedResources, waitUntilKubeAPIServerServiceIsReady],
  });
  g.add({
    name: 'Deploying external domain DNS record',
    step: op.deployExternalDNSRecord,
    skipIf: hibernated,
    dependencies: [deployReferencedResources, waitUntilKubeAPIServerServiceIsReady],
  });
  // Restore with a copy of etcd's backups (c.copyOfBackupsRequired): the source BackupEntry in the old bucket first.
  const deploySourceBackupEntry = g.add({
    name: 'Deploying source backup entry',
    step: op.deploySourceBackupEntry,
    skipIf: !c.copyOfBackupsRequired,
    dependencies: [deployNamespace],
  });
  const waitUntilSourceBackupEntryReconciled = g.add({
    name: 'Waiting until the source backup entry has been reconciled',
    step: op.waitForSourceBackupEntry,
    skipIf: c.skipReadiness || !c.copyOfBackupsRequired,
    dependencies: [deploySourceBackupEntry],
  });
  const deployBackupEntry = g.add({
    name: 'Deploying backup entry',
    step: op.deployBackupEntry,
    skipIf: !c.allowBackup,
    dependencies: [deployNamespace, waitUntilSourceBackupEntryReconciled],
  });
  const waitUntilBackupEntryReconciled = g.add({
    name: 'Waiting until the backup entry has been reconciled',
    step: op.waitForBackupEntry,
    skipIf: c.skipReadiness || !c.allowBackup,
    dependencies: [deployBackupEntry],
  });
  const copyEtcdBackups = g.add({
    name: "Copying etcd backups to new seed's backup bucket",
    step: op.copyEtcdBackups,
    skipIf: !c.copyOfBackupsRequired,
    dependencies: [
      initializeSecretsManagement,
      deployCloudProviderSecret,
      waitUntilBackupEntryReconciled,
      waitUntilSourceBackupEntryReconciled,
    ],
  });
  const waitUntilEtcdBackupsCopied = g.add({
    name: 'Waiting until etcd backups are copied',
    step: op.waitForEtcdBackupsCopied,
    skipIf: c.skipReadiness || !c.copyOfBackupsRequired,
    dependencies: [copyEtcdBackups],
  });
  g.add({
    name: 'Destroying copy etcd backups task resource',
    step: op.destroyEtcdCopyBackupsTask,
    skipIf: !c.copyOfBackupsRequired,
    dependencies: [waitUntilEtcdBackupsCopied],
  });
  const deployETCD = g.add({
    name: 'Deploying main and events etcd',
    step: op.deployEtcd,
    retry: true,
    dependencies: [
      initializeSecretsManagement,
      deployCloudProviderSecret,
      waitUntilBackupEntryReconciled,
      waitUntilEtcdBackupsCopied,
    ],
  });
  // Every restore with backup removes the source BackupEntry once etcd is deployed on the new bucket (also one left
  // by an earlier attempt that copied already).
  const destroySourceBackupEntry = g.add({
    name: 'Destroying source backup entry',
    step: op.destroySourceBackupEntry,
    skipIf: !c.allowBackup || !c.restoring,
    dependencies: [deployETCD],
  });
  g.add({
    name: 'Waiting until source backup entry has been deleted',
    step: op.waitForSourceBackupEntryDeleted,
    skipIf: !c.allowBackup || c.skipReadiness || !c.restoring,
    dependencies: [destroySourceBackupEntry],
  });
  const waitUntilEtcdReady = g.add({
    name: 'Waiting until main and event etcd report readiness',
    step: op.waitForEtcd,
    skipIf: hibernated || c.skipReadiness,
    dependencies: [deployETCD],
  });
  const deployExtensionResourcesBeforeKAPI = g.add({
    name: 'Deploying extension resources before kube-apiserver',
    step: op.deployExtensionsBeforeKubeAPIServer,
    retry: true,
    skipIf: hibernated,
    dependencies: [
      initializeSecretsManagement,
      deployCloudProviderSecret,
      deployReferencedResources,
      waitUntilInfrastructureReady,
    ],
  });
  const waitUntilExtensionResourcesBeforeKAPIReady = g.add({
    name: 'Waiting until extension resources handled before kube-apiserver are ready',
    step: op.waitForExtensionsBeforeKubeAPIServer,
    skipIf: hibernated || c.skipReadiness,
    dependencies: [deployExtensionResourcesBeforeKAPI],
  });
  const deployKubeAPIServer = g.add({
    name: 'Deploying Kubernetes API server',
    step: op.deployKubeAPIServer,
    retry: true,
    dependencies: [
      initializeSecretsManagement,
      deployETCD,
      waitUntilEtcdReady,
      waitUntilKubeAPIServerServiceIsReady,
      waitUntilExtensionResourcesBeforeKAPIReady,
      ...when(!c.hasNodesCIDR, waitUntilInfrastructureReady),
    ],
  });
  const waitUntilKubeAPIServerIsReady = g.add({
    name: 'Waiting until Kubernetes API server rolled out',
    step: op.waitForKubeAPIServer,
    skipIf: hibernated || c.skipReadiness,
    dependencies: [deployKubeAPIServer],
  });
  g.add({
    name: 'Deploying Kubernetes API server service SNI settings in the Seed cluster',
    local: SkipReasons.istio,
    dependencies: [waitUntilKubeAPIServerIsReady],
  });
  const deployGardenerResourceManager = g.add({
    name: 'Deploying gardener-resource-manager',
    step: op.deployGardenerResourceManager,
    retry: true,
    dependencies: [waitUntilKubeAPIServerIsReady],
  });
  const waitUntilGardenerResourceManagerReady = g.add({
    name: 'Waiting until gardener-resource-manager reports readiness',
    step: op.waitForGardenerResourceManager,
    skipIf: hibernated || c.skipReadiness,
    dependencies: [deployGardenerResourceManager],
  });
  const deployKubeAPIServerWithNodeAgentAuthorizer = g.add({
    name: 'Deploying Kubernetes API server with node-agent-authorizer',
    local: c.canEnableNodeAgentAuthorizer ? undefined : SkipReasons.nodeAgentAuthorizer,
    step: op.deployKubeAPIServer,
    skipIf: c.canEnableNodeAgentAuthorizer,
    dependencies: [waitUntilGardenerResourceManagerReady],
  });
  const waitUntilKubeAPIServerWithNodeAgentAuthorizerIsReady = g.add({
    name: 'Waiting until Kubernetes API server with node-agent-authorizer rolled out',
    local: c.canEnableNodeAgentAuthorizer ? undefined : SkipReasons.nodeAgentAuthorizer,
    step: op.waitForKubeAPIServer,
    skipIf: hibernated || c.canEnableNodeAgentAuthorizer || c.skipReadiness,
    dependencies: [deployKubeAPIServerWithNodeAgentAuthorizer],
  });
  g.add({
    name: 'Renewing shoot access secrets after creation of new ServiceAccount signing key',
    step: op.renewShootAccessSecrets,
    retry: true,
    skipIf: !c.serviceAccountKeyPreparing,
    dependencies: [waitUntilKubeAPIServerWithNodeAgentAuthorizerIsReady, waitUntilGardenerResourceManagerReady],
  });
  const deployControlPlane = g.add({
    name: 'Deploying shoot control plane components',
    step: op.deployControlPlane,
    retry: true,
    skipIf: c.workerless,
    dependencies: [waitUntilKubeAPIServerWithNodeAgentAuthorizerIsReady, waitUntilGardenerResourceManagerReady],
  });
  const waitUntilControlPlaneReady = g.add({
    name: 'Waiting until shoot control plane has been reconciled',
    step: op.waitForControlPlane,
    skipIf: c.workerless || c.skipReadiness,
    dependencies: [deployControlPlane],
  });
  const deploySeedLogging = g.add({
    name: 'Deploying shoot logging stack in Seed',
    local: SkipReasons.logging,
    dependencies: [initialLogging, waitUntilGardenerResourceManagerReady],
  });
  const deployShootNamespaces = g.add({
    name: 'Deploying shoot namespaces system component',
    step: op.deployShootNamespaces,
    retry: true,
    dependencies: [deployGardenerResourceManager],
  });
  const waitUntilShootNamespacesReady = g.add({
    name: 'Waiting until shoot namespaces have been reconciled',
    step: op.waitForShootNamespaces,
    skipIf: hibernated || c.skipReadiness,
    dependencies: [waitUntilGardenerResourceManagerReady, deployShootNamespaces],
  });
  const deployVPNSeedServer = g.add({
    name: 'Deploying vpn-seed-server',
    local: SkipReasons.vpn,
    dependencies: [initializeSecretsManagement, deployNamespace, waitUntilKubeAPIServerWithNodeAgentAuthorizerIsReady],
  });
  const deployGardenerAccess = g.add({
    name: 'Deploying Gardener shoot access resources',
    step: op.deployGardenerAccess,
    retry: true,
    dependencies: [initializeSecretsManagement, waitUntilGardenerResourceManagerReady],
  });
  const initializeShootClients = g.add({
    name: 'Initializing connection to Shoot',
    step: op.initializeShootClients,
    retry: true,
    dependencies: [
      waitUntilKubeAPIServerWithNodeAgentAuthorizerIsReady,
      deployInternalDomainDNSRecord,
      deployGardenerAccess,
    ],
  });
  g.add({
    name: 'Sync public service account signing keys to Garden cluster',
    step: op.syncPublicServiceAccountKeys,
    skipIf: hibernated || !c.managedServiceAccountIssuer,
    dependencies: [initializeShootClients],
  });
  const rewriteResourcesAddLabel = g.add({
    name: 'Labeling resources after modification of encryption config or to encrypt them with new ETCD encryption key',
    step: op.rewriteEncryptedDataAddLabel,
    retry: true,
    skipIf: !c.etcdEncryptionKeyPreparing,
    dependencies: [initializeShootClients],
  });
  const snapshotETCD = g.add({
    name: 'Snapshotting ETCD after modification of encryption config or resources are re-encrypted with new ETCD encryption key',
    step: op.snapshotEtcdAfterRewrite,
    skipIf: !(c.allowBackup && c.etcdEncryptionKeyPreparing),
    dependencies: [rewriteResourcesAddLabel],
  });
  g.add({
    name: 'Removing label from resources after modification of encryption config or rotation of ETCD encryption key',
    step: op.rewriteEncryptedDataRemoveLabel,
    retry: true,
    skipIf: !c.etcdEncryptionKeyCompleting,
    dependencies: [initializeShootClients, snapshotETCD],
  });
  const deployKubeScheduler = g.add({
    name: 'Deploying Kubernetes scheduler',
    step: op.deployKubeScheduler,
    retry: true,
    skipIf: c.workerless,
    dependencies: [initializeSecretsManagement, waitUntilGardenerResourceManagerReady],
  });
  g.add({
    name: 'Reconciling Kubernetes vertical pod autoscaler',
    local: SkipReasons.vpa,
    dependencies: [initializeSecretsManagement, waitUntilGardenerResourceManagerReady],
  });
  g.add({
    name: 'Deploying dependency-watchdog shoot access resources',
    local: SkipReasons.dependencyWatchdog,
    dependencies: [initializeSecretsManagement, waitUntilGardenerResourceManagerReady],
  });
  const deployKubeControllerManager = g.add({
    name: 'Deploying Kubernetes controller manager',
    step: op.deployKubeControllerManager,
    retry: true,
    dependencies: [
      initializeSecretsManagement,
      deployCloudProviderSecret,
      waitUntilKubeAPIServerWithNodeAgentAuthorizerIsReady,
    ],
  });
  const waitUntilKubeControllerManagerReady = g.add({
    name: 'Waiting until kube-controller-manager reports readiness',
    step: op.waitForKubeControllerManager,
    skipIf: c.skipReadiness || !c.serviceAccountKeyPreparing,
    dependencies: [deployKubeControllerManager],
  });
  const createNewServiceAccountSecrets = g.add({
    name: 'Creating new ServiceAccount secrets after creation of new signing key',
    step: op.createNewServiceAccountSecrets,
    retry: true,
    skipIf: !c.serviceAccountKeyPreparing,
    dependencies: [initializeShootClients, waitUntilKubeControllerManagerReady],
  });
  g.add({
    name: 'Deleting old ServiceAccount secrets after rotation of signing key',
    step: op.deleteOldServiceAccountSecrets,
    retry: true,
    skipIf: !c.serviceAccountKeyCompleting,
    dependencies: [initializeShootClients, waitUntilKubeControllerManagerReady],
  });
  const deleteBastions = g.add({
    name: 'Deleting Bastions',
    step: op.deleteBastions,
    skipIf: c.sshAccessEnabled,
    dependencies: [deployReferencedResources, waitUntilInfrastructureReady, waitUntilControlPlaneReady],
  });
  const deployExtensionResourcesAfterKAPI = g.add({
    name: hibernated
      ? 'Hibernating extension resources before kube-apiserver hibernation'
      : 'Deploying extension resources after kube-apiserver',
    step: op.deployExtensionsAfterKubeAPIServer,
    retry: true,
    dependencies: [deployReferencedResources, initializeShootClients],
  });
  const waitUntilExtensionResourcesAfterKAPIReady = g.add({
    name: hibernated
      ? 'Waiting until extension resources hibernated before kube-apiserver hibernation are ready'
      : 'Waiting until extension resources handled after kube-apiserver are ready',
    step: op.waitForExtensionsAfterKubeAPIServer,
    skipIf: c.skipReadiness,
    dependencies: [deployExtensionResourcesAfterKAPI],
  });
  const deployOperatingSystemConfig = g.add({
    name: 'Deploying operating system specific configuration for shoot workers',
    step: op.deployOperatingSystemConfig,
    retry: true,
    skipIf: c.workerless,
    dependencies: [
      deployReferencedResources,
      waitUntilInfrastructureReady,
      waitUntilControlPlaneReady,
      deleteBastions,
      waitUntilExtensionResourcesAfterKAPIReady,
    ],
  });
  const waitUntilOperatingSystemConfigReady = g.add({
    name: 'Waiting until operating system configurations for worker nodes have been reconciled',
    step: op.waitForOperatingSystemConfig,
    skipIf: c.workerless,
    dependencies: [deployOperatingSystemConfig],
  });
  const deleteStaleOSC = g.add({
    name: 'Delete stale operating system config resources',
    step: op.deleteStaleOperatingSystemConfigs,
    retry: true,
    skipIf: c.workerless,
    dependencies: [deployOperatingSystemConfig],
  });
  g.add({
    name: 'Waiting until stale operating system config resources are deleted',
    step: op.waitForStaleOperatingSystemConfigsDeleted,
    skipIf: c.workerless || hibernated || c.skipReadiness,
    dependencies: [deleteStaleOSC],
  });
  const deployNetwork = g.add({
    name: 'Deploying shoot network plugin',
    step: op.deployNetwork,
    retry: true,
    skipIf: c.workerless,
    dependencies: [
      deployReferencedResources,
      waitUntilGardenerResourceManagerReady,
      waitUntilOperatingSystemConfigReady,
      deployKubeScheduler,
      waitUntilShootNamespacesReady,
    ],
  });
  const waitUntilNetworkIsReady = g.add({
    name: 'Waiting until shoot network plugin has been reconciled',
    step: op.waitForNetwork,
    skipIf: c.workerless || c.skipReadiness,
    dependencies: [deployNetwork],
  });
  g.add({
    name: 'Check coreDNS migration',
    local: SkipReasons.systemAddon,
    dependencies: [waitUntilNetworkIsReady],
  });
  g.add({
    name: 'Deploying shoot cluster identity',
    step: op.deployClusterIdentity,
    retry: true,
    skipIf: hibernated,
    dependencies: [deployGardenerResourceManager, ensureShootClusterIdentity, waitUntilOperatingSystemConfigReady],
  });
  const deployShootSystemResources = g.add({
    name: 'Deploying shoot system resources',
    step: op.deployShootSystemResources,
    retry: true,
    skipIf: hibernated,
    dependencies: [
      waitUntilGardenerResourceManagerReady,
      initializeShootClients,
      waitUntilOperatingSystemConfigReady,
      waitUntilShootNamespacesReady,
    ],
  });
  g.add({
    name: 'Populating static manifests from seed to shoot',
    local: SkipReasons.systemAddon,
    dependencies: [waitUntilGardenerResourceManagerReady, waitUntilShootNamespacesReady],
  });
  const systemComponentDeps = [
    waitUntilGardenerResourceManagerReady,
    initializeShootClients,
    ensureShootClusterIdentity,
    deployKubeScheduler,
    waitUntilShootNamespacesReady,
  ];
  const deployCoreDNS = g.add({
    name: 'Deploying CoreDNS system component',
    step: op.deployCoreDNS,
    retry: true,
    skipIf: c.workerless || hibernated,
    dependencies: [
      waitUntilGardenerResourceManagerReady,
      initializeShootClients,
      waitUntilOperatingSystemConfigReady,
      deployKubeScheduler,
      waitUntilShootNamespacesReady,
    ],
  });
  const deployNodeLocalDNS = g.add({
    name: 'Reconcile node-local-dns system component',
    local: SkipReasons.systemAddon,
    dependencies: [
      deployGardenerResourceManager,
      initializeShootClients,
      waitUntilOperatingSystemConfigReady,
      deployKubeScheduler,
      waitUntilShootNamespacesReady,
      waitUntilNetworkIsReady,
    ],
  });
  const deployMetricsServer = g.add({
    name: 'Deploying metrics-server system component',
    local: SkipReasons.systemAddon,
    dependencies: [
      waitUntilGardenerResourceManagerReady,
      waitUntilOperatingSystemConfigReady,
      deployKubeScheduler,
      waitUntilShootNamespacesReady,
    ],
  });
  const deployVPNShoot = g.add({
    name: 'Deploying vpn-shoot system component',
    local: SkipReasons.vpn,
    dependencies: [
      waitUntilGardenerResourceManagerReady,
      deployGardenerResourceManager,
      deployKubeScheduler,
      deployVPNSeedServer,
      waitUntilShootNamespacesReady,
    ],
  });
  const deployNodeProblemDetector = g.add({
    name: 'Deploying node-problem-detector system component',
    local: SkipReasons.systemAddon,
    dependencies: [deployGardenerResourceManager, waitUntilOperatingSystemConfigReady, waitUntilShootNamespacesReady],
  });
  const deployKubeProxy = g.add({
    name: 'Deploying kube-proxy system component',
    step: op.deployKubeProxy,
    retry: true,
    skipIf: c.workerless || hibernated || !c.kubeProxyEnabled,
    dependencies: [
      deployGardenerResourceManager,
      initializeShootClients,
      ensureShootClusterIdentity,
      deployKubeScheduler,
      waitUntilShootNamespacesReady,
    ],
  });
  g.add({
    name: 'Deleting stale kube-proxy DaemonSets',
    local: SkipReasons.systemAddon,
    dependencies: [deployKubeProxy],
  });
  g.add({
    name: 'Deleting kube-proxy system component',
    step: op.destroyKubeProxy,
    retry: true,
    skipIf: c.workerless || hibernated || c.kubeProxyEnabled,
    dependencies: [
      deployGardenerResourceManager,
      initializeShootClients,
      ensureShootClusterIdentity,
      deployKubeScheduler,
    ],
  });
  const deployAPIServerProxy = g.add({
    name: 'Deploying apiserver-proxy',
    local: SkipReasons.systemAddon,
    dependencies: systemComponentDeps,
  });
  const deployBlackboxExporter = g.add({
    name: 'Deploying blackbox-exporter',
    local: SkipReasons.monitoring,
    dependencies: systemComponentDeps,
  });
  const deployNodeExporter = g.add({
    name: 'Deploying node-exporter',
    local: SkipReasons.monitoring,
    dependencies: systemComponentDeps,
  });
  const deployKubernetesDashboard = g.add({
    name: 'Deploying addon Kubernetes Dashboard',
    local: SkipReasons.addon,
    dependencies: systemComponentDeps,
  });
  const deployNginxIngressAddon = g.add({
    name: 'Deploying addon Nginx Ingress Controller',
    local: SkipReasons.addon,
    dependencies: systemComponentDeps,
  });
  const deployNodeAgentManagedResource = g.add({
    name: 'Deploying managed resources for the gardener-node-agent',
    step: op.deployNodeAgentManagedResource,
    retry: true,
    skipIf: c.workerless || hibernated,
    dependencies: [deployGardenerResourceManager, ensureShootClusterIdentity, waitUntilOperatingSystemConfigReady],
  });
  const syncPointAllSystemComponentsDeployed = [
    waitUntilNetworkIsReady,
    deployAPIServerProxy,
    deployShootSystemResources,
    deployCoreDNS,
    deployNodeExporter,
    deployNodeLocalDNS,
    deployMetricsServer,
    deployVPNShoot,
    deployNodeProblemDetector,
    deployKubeProxy,
    deployBlackboxExporter,
    deployKubernetesDashboard,
    deployNginxIngressAddon,
  ];
  const scaleClusterAutoscalerToZero = g.add({
    name: 'Scaling down cluster autoscaler',
    local: SkipReasons.clusterAutoscaler,
    dependencies: [deployNodeAgentManagedResource],
  });
  const deployMachineControllerManager = g.add({
    name: 'Deploying machine-controller-manager',
    local: SkipReasons.machineControllerManager,
    dependencies: [
      deployCloudProviderSecret,
      deployReferencedResources,
      waitUntilInfrastructureReady,
      initializeShootClients,
      waitUntilOperatingSystemConfigReady,
      waitUntilNetworkIsReady,
      createNewServiceAccountSecrets,
      scaleClusterAutoscalerToZero,
    ],
  });
  const deployWorker = g.add({
    name: 'Configuring shoot worker pools',
    step: op.deployWorker,
    retry: true,
    skipIf: c.workerless,
    dependencies: [deployMachineControllerManager],
  });
  const waitUntilWorkerStatusUpdate = g.add({
    name: 'Waiting until worker resource status is updated with latest machine deployments',
    step: op.waitForWorkerStatus,
    skipIf: c.workerless || hibernated,
    dependencies: [deployWorker],
  });
  const deployExtensionResourcesAfterWorker = g.add({
    name: 'Deploying extension resources after workers',
    step: op.deployExtensionsAfterWorker,
    retry: true,
    skipIf: c.workerless,
    dependencies: [waitUntilWorkerStatusUpdate],
  });
  const deployClusterAutoscaler = g.add({
    name: 'Deploying cluster autoscaler',
    local: SkipReasons.clusterAutoscaler,
    dependencies: [waitUntilWorkerStatusUpdate, deployNodeAgentManagedResource],
  });
  const waitUntilWorkerReady = g.add({
    name: 'Waiting until shoot worker nodes have been reconciled',
    step: op.waitForWorker,
    skipIf: c.workerless || c.skipReadiness,
    dependencies: [deployWorker, waitUntilWorkerStatusUpdate, deployNodeAgentManagedResource],
  });
  g.add({
    name: 'Checking if we have dual-stack pod CIDRs in nodes',
    local: SkipReasons.systemAddon,
    dependencies: [waitUntilWorkerReady],
  });
  g.add({
    name: 'Waiting until extension resources handled after workers are ready',
    step: op.waitForExtensionsAfterWorker,
    skipIf: c.workerless || c.skipReadiness,
    dependencies: [deployExtensionResourcesAfterWorker],
  });
  g.add({
    name: 'Scaling down machine-controller-manager',
    local: SkipReasons.machineControllerManager,
    dependencies: [waitUntilWorkerReady],
  });
  const deployPlutonoForLogging = g.add({
    name: 'Reconciling Plutono for Shoot in Seed for the logging stack',
    local: SkipReasons.logging,
    dependencies: [deploySeedLogging],
  });
  const nginxLBReady = g.add({
    name: 'Waiting until nginx ingress LoadBalancer is ready',
    local: SkipReasons.addon,
    dependencies: [initializeShootClients, waitUntilWorkerReady, ensureShootClusterIdentity],
  });
  g.add({ name: 'Deploying nginx ingress DNS record', local: SkipReasons.addon, dependencies: [nginxLBReady] });
  const waitUntilTunnelConnectionExists = g.add({
    name: 'Waiting until the Kubernetes API server can connect to the Shoot workers',
    local: SkipReasons.vpn,
    dependencies: [...syncPointAllSystemComponentsDeployed, waitUntilNetworkIsReady, waitUntilWorkerReady],
  });
  g.add({
    name: 'Waiting until all shoot worker nodes have updated the operating system config',
    step: op.waitForOperatingSystemConfigUpdated,
    skipIf: c.workerless || hibernated,
    dependencies: [waitUntilWorkerReady, waitUntilTunnelConnectionExists],
  });
  const monitoringDeps = [
    initializeShootClients,
    waitUntilTunnelConnectionExists,
    waitUntilWorkerReady,
    ...when(!c.hasNodesCIDR, waitUntilInfrastructureReady),
  ];
  const deployAlertmanager = g.add({
    name: 'Reconciling Shoot Alertmanager',
    local: SkipReasons.monitoring,
    dependencies: monitoringDeps,
  });
  const deployPrometheus = g.add({
    name: 'Reconciling Shoot Prometheus',
    local: SkipReasons.monitoring,
    dependencies: monitoringDeps,
  });
  g.add({
    name: 'Deploying control plane blackbox-exporter',
    local: SkipReasons.monitoring,
    dependencies: monitoringDeps,
  });
  g.add({
    name: 'Reconciling kube-state-metrics for Shoot in Seed for the monitoring stack',
    local: SkipReasons.monitoring,
    dependencies: [deployPrometheus, deployAlertmanager],
  });
  const deployPlutonoForMonitoring = g.add({
    name: 'Reconciling Plutono for Shoot in Seed for the monitoring stack',
    local: SkipReasons.monitoring,
    dependencies: [deployPrometheus, deployAlertmanager],
  });
  const waitUntilPlutonoReady = g.add({
    name: 'Waiting until Plutono for Shoot in Seed is ready',
    local: SkipReasons.monitoring,
    dependencies: [deployPlutonoForLogging, deployPlutonoForMonitoring],
  });
  g.add({ name: 'Deploying ext-authz-server', local: SkipReasons.monitoring, dependencies: [waitUntilPlutonoReady] });
  const hibernateControlPlane = g.add({
    name: 'Hibernating control plane',
    step: op.hibernateControlPlane,
    retry: true,
    skipIf: !hibernated,
    dependencies: [
      initializeShootClients,
      deployPrometheus,
      deployAlertmanager,
      deploySeedLogging,
      deployClusterAutoscaler,
      waitUntilWorkerReady,
      waitUntilExtensionResourcesAfterKAPIReady,
    ],
  });
  const hibernateExtensionsAfterKAPIHibernation = g.add({
    name: 'Hibernating extension resources after kube-apiserver hibernation',
    step: op.deployExtensionsBeforeKubeAPIServer,
    retry: true,
    skipIf: !hibernated,
    dependencies: [hibernateControlPlane],
  });
  g.add({
    name: 'Waiting until extension resources hibernated after kube-apiserver hibernation are ready',
    step: op.waitForExtensionsBeforeKubeAPIServer,
    skipIf: c.skipReadiness || !hibernated,
    dependencies: [hibernateExtensionsAfterKAPIHibernation],
  });
  g.add({
    name: 'Destroying ingress domain DNS record if hibernated',
    local: SkipReasons.addon,
    dependencies: [hibernateControlPlane],
  });
  g.add({
    name: 'Destroying external domain DNS record if hibernated',
    step: op.destroyExternalDNSRecord,
    skipIf: !hibernated,
    dependencies: [hibernateControlPlane],
  });
  g.add({
    name: 'Destroying internal domain DNS record if hibernated',
    step: op.destroyInternalDNSRecord,
    skipIf: !hibernated,
    dependencies: [hibernateControlPlane],
  });
  const deleteStaleExtensionResources = g.add({
    name: 'Deleting stale extension resources',
    step: op.deleteStaleExtensions,
    retry: true,
    dependencies: [initializeShootClients],
  });
  g.add({
    name: 'Waiting until stale extension resources are deleted',
    step: op.waitForStaleExtensionsDeleted,
    skipIf: hibernated || c.skipReadiness,
    dependencies: [deleteStaleExtensionResources],
  });
  const deployContainerRuntimeResources = g.add({
    name: 'Deploying container runtime resources',
    step: op.deployContainerRuntime,
    retry: true,
    skipIf: c.workerless,
    dependencies: [deployReferencedResources, initializeShootClients],
  });
  g.add({
    name: 'Waiting until container runtime resources are ready',
    step: op.waitForContainerRuntime,
    skipIf: c.workerless || c.skipReadiness,
    dependencies: [deployContainerRuntimeResources],
  });
  const deleteStaleContainerRuntimeResources = g.add({
    name: 'Deleting stale container runtime resources',
    step: op.deleteStaleContainerRuntimes,
    retry: true,
    skipIf: c.workerless,
    dependencies: [initializeShootClients],
  });
  g.add({
    name: 'Waiting until stale container runtime resources are deleted',
    step: op.waitForStaleContainerRuntimesDeleted,
    skipIf: c.workerless || hibernated || c.skipReadiness,
    dependencies: [deleteStaleContainerRuntimeResources],
  });
  g.add({
    name: 'Restarting control plane pods',
    step: op.restartControlPlanePods,
    skipIf: !c.restartControlPlanePods,
    dependencies: [deployKubeControllerManager, deployControlPlane],
  });

  return { flow: g.graph.compile(), skipped: g.skipped };
}
