// The gardenlet's Shoot delete flow as a `@gardener-ts/flow` graph: Gardener's task names and dependencies
// (`pkg/gardenlet/controller/shoot/shoot/reconciler_delete.go`) — bring the control plane up far enough to clean
// the shoot, then delete workers, OSCs, network, extensions, control plane, kube-apiserver, infrastructure, etcd and
// finally the namespace, waiting for each extension resource to be gone. The BackupEntry is not deleted here: it
// follows the Shoot (owner reference) and its grace period.
import type { Flow, RetryOptions } from '@gardener-ts/flow';
import { DefaultStepRetry, ShootGraph } from './builder.js';
import type { FlowConditions } from './conditions.js';
import { SkipReasons, type DeleteSteps, type SkippedTask } from './operation.js';

/** What the delete flow needs to know about the seed before it starts (Gardener reads it from the seed). */
export interface DeleteFlowState {
  /** The control plane namespace exists and is not terminating. */
  readonly namespaceActive: boolean;
  /** The kube-apiserver Deployment exists. */
  readonly kubeAPIServerDeploymentFound: boolean;
  /** The kube-controller-manager Deployment exists. */
  readonly kubeControllerManagerDeploymentFound: boolean;
  /** The Infrastructure resource exists. */
  readonly infrastructureFound: boolean;
  /** The ControlPlane must be deployed again (it exists and was not deleted yet). */
  readonly controlPlaneDeploymentNeeded: boolean;
  /** The shoot carries `shoot.gardener.cloud/skip-cleanup`. */
  readonly skipCleanup?: boolean;
}

/** Options of {@link deleteFlow}. */
export interface DeleteFlowOptions {
  /** Retry of deploy/destroy steps; Gardener's 5 s / 30 s by default, `false` for none. */
  readonly retry?: RetryOptions | false;
}

/** Builds the delete flow of a shoot over its operation. */
export function deleteFlow(
  op: DeleteSteps,
  c: FlowConditions,
  state: DeleteFlowState,
  options: DeleteFlowOptions = {},
): { flow: Flow; skipped: readonly SkippedTask[] } {
  const g = new ShootGraph(
    'Shoot cluster deletion',
    options.retry === false ? undefined : (options.retry ?? DefaultStepRetry),
  );
  const active = state.namespaceActive;
  const cleanup = active && state.kubeAPIServerDeploymentFound && (state.infrastructureFound || c.workerless);
  const w = c.workerless;
  // A hibernated or hibernating shoot is woken up far enough to be cleaned (Gardener's wakeupRequired). Decided by the
  // Shoot, not by the replicas found: a flow that was interrupted after scaling kube-apiserver up still has to scale
  // up the rest (kube-controller-manager).
  const wakeupRequired = cleanup && (c.hibernated || c.hibernationEnabled);

  const deployNamespace = g.add({
    name: 'Deploying Shoot namespace in Seed',
    step: op.deployNamespace,
    retry: true,
    skipIf: !active,
  });
  const ensureShootClusterIdentity = g.add({
    name: 'Ensuring Shoot cluster identity',
    step: op.ensureShootClusterIdentity,
    retry: true,
    dependencies: [deployNamespace],
  });
  const deployCloudProviderSecret = g.add({
    name: 'Deploying cloud provider account secret',
    step: op.deployCloudProviderSecret,
    skipIf: w || !active,
    dependencies: [deployNamespace],
  });
  const deployKubeAPIServerService = g.add({
    name: 'Deploying Kubernetes API server service in the Seed cluster',
    step: op.deployKubeAPIServerService,
    retry: true,
    skipIf: !cleanup,
    dependencies: [deployNamespace, ensureShootClusterIdentity],
  });
  const waitUntilKubeAPIServerServiceIsReady = g.add({
    name: 'Waiting until Kubernetes API LoadBalancer in the Seed cluster has reported readiness',
    step: op.waitForKubeAPIServerService,
    skipIf: !cleanup,
    dependencies: [deployKubeAPIServerService],
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
    skipIf: !active,
    dependencies: [deployNamespace, istioConfigMap],
  });
  g.add({
    name: 'Ensuring advertised addresses for the Shoot',
    step: op.updateAdvertisedAddresses,
    // They are read from the API server's Service, deployed only when the shoot is to be cleaned.
    skipIf: !cleanup,
    dependencies: [initializeSecretsManagement, waitUntilKubeAPIServerServiceIsReady],
  });
  const deployReferencedResources = g.add({
    name: 'Deploying referenced resources',
    step: op.deployReferencedResources,
    retry: true,
    skipIf: !active,
    dependencies: [deployNamespace],
  });
  const deployInternalDomainDNSRecord = g.add({
    name: 'Deploying internal domain DNS record',
    step: op.deployInternalDNSRecord,
    skipIf: !cleanup,
    dependencies: [deployReferencedResources, waitUntilKubeAPIServerServiceIsReady],
  });
  const deployETCD = g.add({
    name: 'Deploying main and events etcd',
    step: op.deployEtcd,
    retry: true,
    skipIf: !cleanup,
    dependencies: [initializeSecretsManagement, deployCloudProviderSecret],
  });
  const scaleETCD = g.add({
    name: 'Scaling up etcd main and event',
    step: op.scaleUpEtcd,
    retry: true,
    skipIf: !wakeupRequired,
    dependencies: [deployETCD],
  });
  const waitUntilEtcdReady = g.add({
    name: 'Waiting until main and event etcd report readiness',
    step: op.waitForEtcd,
    skipIf: !cleanup,
    dependencies: [scaleETCD],
  });
  const deployControlPlane = g.add({
    name: 'Deploying Shoot control plane',
    step: op.deployControlPlane,
    retry: true,
    skipIf: w || !cleanup || !state.controlPlaneDeploymentNeeded,
    dependencies: [initializeSecretsManagement, deployCloudProviderSecret, ensureShootClusterIdentity],
  });
  const waitUntilControlPlaneReady = g.add({
    name: 'Waiting until Shoot control plane has been reconciled',
    step: op.waitForControlPlane,
    skipIf: w || !cleanup || !state.controlPlaneDeploymentNeeded,
    dependencies: [deployControlPlane],
  });
  const deployKubeAPIServer = g.add({
    name: 'Deploying Kubernetes API server',
    step: op.deployKubeAPIServer,
    retry: true,
    skipIf: !cleanup,
    dependencies: [
      initializeSecretsManagement,
      deployETCD,
      waitUntilEtcdReady,
      waitUntilKubeAPIServerServiceIsReady,
      waitUntilControlPlaneReady,
    ],
  });
  const scaleUpKubeAPIServer = g.add({
    name: 'Scaling up Kubernetes API server',
    step: op.scaleUpKubeAPIServer,
    retry: true,
    skipIf: !wakeupRequired,
    dependencies: [deployKubeAPIServer],
  });
  const waitUntilKubeAPIServerIsReady = g.add({
    name: 'Waiting until Kubernetes API server reports readiness',
    step: op.waitForKubeAPIServer,
    skipIf: !cleanup,
    dependencies: [deployKubeAPIServer, scaleUpKubeAPIServer],
  });
  g.add({
    name: 'Deploying Kubernetes API server service SNI settings in the Seed cluster',
    local: SkipReasons.istio,
    dependencies: [waitUntilKubeAPIServerIsReady],
  });
  const setGardenerResourceManagerReplicas = g.add({
    name: 'Setting gardener-resource-manager replicas to 2',
    local: SkipReasons.resourceManagerReplicas,
    dependencies: [waitUntilKubeAPIServerIsReady],
  });
  const deployGardenerResourceManager = g.add({
    name: 'Deploying gardener-resource-manager',
    step: op.deployGardenerResourceManager,
    skipIf: !cleanup,
    dependencies: [setGardenerResourceManagerReplicas],
  });
  const waitUntilGardenerResourceManagerReady = g.add({
    name: 'Waiting until gardener-resource-manager reports readiness',
    step: op.waitForGardenerResourceManager,
    skipIf: !cleanup,
    dependencies: [deployGardenerResourceManager],
  });
  const deployKAPIWithNodeAgentAuthorizer = g.add({
    name: 'Deploying Kubernetes API server with node-agent-authorizer',
    local: !cleanup || c.canEnableNodeAgentAuthorizer ? undefined : SkipReasons.nodeAgentAuthorizer,
    skipIf: true,
    dependencies: [waitUntilGardenerResourceManagerReady],
  });
  const waitUntilKAPIWithNodeAgentAuthorizerIsReady = g.add({
    name: 'Waiting until Kubernetes API server with node-agent-authorizer rolled out',
    local: !cleanup || c.canEnableNodeAgentAuthorizer ? undefined : SkipReasons.nodeAgentAuthorizer,
    skipIf: true,
    dependencies: [deployKAPIWithNodeAgentAuthorizer],
  });
  const deployGardenerAccess = g.add({
    name: 'Deploying Gardener shoot access resources',
    step: op.deployGardenerAccess,
    retry: true,
    skipIf: !cleanup,
    dependencies: [
      initializeSecretsManagement,
      waitUntilGardenerResourceManagerReady,
      waitUntilKAPIWithNodeAgentAuthorizerIsReady,
    ],
  });
  const initializeShootClients = g.add({
    name: 'Initializing connection to Shoot',
    step: op.initializeShootClients,
    retry: true,
    skipIf: !cleanup,
    dependencies: [
      deployCloudProviderSecret,
      waitUntilKubeAPIServerIsReady,
      deployInternalDomainDNSRecord,
      deployGardenerAccess,
    ],
  });
  const deployKubeControllerManager = g.add({
    name: 'Deploying Kubernetes controller manager',
    step: op.deployKubeControllerManager,
    retry: true,
    skipIf: !cleanup,
    dependencies: [
      initializeSecretsManagement,
      deployCloudProviderSecret,
      waitUntilControlPlaneReady,
      initializeShootClients,
    ],
  });
  g.add({
    name: 'Scaling up Kubernetes controller manager',
    step: op.scaleUpKubeControllerManager,
    retry: true,
    skipIf: !wakeupRequired || !state.kubeControllerManagerDeploymentFound,
    dependencies: [deployKubeControllerManager],
  });
  const deleteAlertmanager = g.add({
    name: 'Deleting Shoot Alertmanager',
    local: SkipReasons.monitoring,
    dependencies: [initializeShootClients],
  });
  const deletePrometheus = g.add({
    name: 'Deleting Shoot Prometheus',
    local: SkipReasons.monitoring,
    dependencies: [initializeShootClients],
  });
  const deleteBlackboxExporter = g.add({
    name: 'Destroying control plane blackbox-exporter',
    local: SkipReasons.monitoring,
    dependencies: [initializeShootClients],
  });
  const deleteClusterAutoscaler = g.add({
    name: 'Deleting cluster autoscaler',
    local: SkipReasons.clusterAutoscaler,
    dependencies: [initializeShootClients],
  });
  const cleanupWebhooks = g.add({
    name: 'Cleaning up webhooks',
    step: op.cleanWebhooks,
    skipIf: !cleanup,
    dependencies: [initializeShootClients, deployGardenerResourceManager],
  });
  const waitForControllersToBeActive = g.add({
    name: 'Waiting until kube-controller-manager is active',
    step: op.waitForKubeControllerManagerActive,
    retry: true,
    skipIf: !cleanup || !state.kubeControllerManagerDeploymentFound,
    dependencies: [initializeShootClients, cleanupWebhooks, deployControlPlane, deployKubeControllerManager],
  });
  const cleanExtendedAPIs = g.add({
    name: 'Cleaning extended API groups',
    step: op.cleanExtendedAPIs,
    skipIf: !cleanup || state.skipCleanup === true,
    dependencies: [initializeShootClients, deleteClusterAutoscaler, waitForControllersToBeActive],
  });
  const syncPointReadyForCleanup = [
    initializeShootClients,
    cleanExtendedAPIs,
    deployControlPlane,
    deployKubeControllerManager,
    waitForControllersToBeActive,
  ];
  const cleanKubernetesResources = g.add({
    name: 'Cleaning Kubernetes resources',
    step: op.cleanKubernetesResources,
    skipIf: !cleanup,
    dependencies: syncPointReadyForCleanup,
  });
  const deleteMetricsServer = g.add({
    name: 'Deleting metrics-server',
    local: SkipReasons.systemAddon,
    dependencies: syncPointReadyForCleanup,
  });
  const syncPointCleanedKubernetesResources = [
    cleanupWebhooks,
    cleanExtendedAPIs,
    cleanKubernetesResources,
    deleteMetricsServer,
  ];
  const destroyNetwork = g.add({
    name: 'Destroying shoot network plugin',
    step: op.destroyNetwork,
    retry: true,
    skipIf: w,
    dependencies: syncPointCleanedKubernetesResources,
  });
  const waitUntilNetworkIsDestroyed = g.add({
    name: 'Waiting until shoot network plugin has been destroyed',
    step: op.waitForNetworkDeleted,
    skipIf: w,
    dependencies: [destroyNetwork],
  });
  const deployMachineControllerManager = g.add({
    name: 'Deploying machine-controller-manager',
    local: SkipReasons.machineControllerManager,
    dependencies: syncPointCleanedKubernetesResources,
  });
  const destroyWorker = g.add({
    name: 'Destroying shoot workers',
    step: op.destroyWorker,
    retry: true,
    skipIf: w,
    dependencies: [deployMachineControllerManager],
  });
  const waitUntilWorkerDeleted = g.add({
    name: 'Waiting until shoot worker nodes have been terminated',
    step: op.waitForWorkerDeleted,
    skipIf: w,
    dependencies: [destroyWorker],
  });
  g.add({
    name: 'Deleting machine-controller-manager',
    local: SkipReasons.machineControllerManager,
    dependencies: [waitUntilWorkerDeleted],
  });
  const deleteAllOperatingSystemConfigs = g.add({
    name: 'Deleting operating system config resources',
    step: op.destroyOperatingSystemConfigs,
    retry: true,
    skipIf: w,
    dependencies: [waitUntilWorkerDeleted],
  });
  const waitUntilOperatingSystemConfigsAreDeleted = g.add({
    name: 'Waiting until all operating system config resources are deleted',
    step: op.waitForOperatingSystemConfigsDeleted,
    skipIf: w || c.hibernationEnabled,
    dependencies: [deleteAllOperatingSystemConfigs],
  });
  const deleteManagedResources = g.add({
    name: 'Deleting managed resources',
    step: op.deleteManagedResources,
    retry: true,
    dependencies: [...syncPointCleanedKubernetesResources, waitUntilWorkerDeleted],
  });
  const deleteDWDResources = g.add({
    name: 'Deleting DWD managed resource and secrets',
    local: SkipReasons.dependencyWatchdog,
    dependencies: [deleteManagedResources],
  });
  const waitUntilManagedResourcesDeleted = g.add({
    name: 'Waiting until managed resources have been deleted',
    step: op.waitForManagedResourcesDeleted,
    dependencies: [deleteDWDResources],
  });
  const deleteExtensionsBeforeKAPI = g.add({
    name: 'Deleting extension resources before kube-apiserver',
    step: op.destroyExtensionsBeforeKubeAPIServer,
    retry: true,
    dependencies: [
      cleanKubernetesResources,
      waitUntilOperatingSystemConfigsAreDeleted,
      waitUntilManagedResourcesDeleted,
    ],
  });
  const waitUntilExtensionsBeforeKAPIDeleted = g.add({
    name: 'Waiting until extension resources that should be handled before kube-apiserver have been deleted',
    step: op.waitForExtensionsBeforeKubeAPIServerDeleted,
    dependencies: [deleteExtensionsBeforeKAPI],
  });
  const deleteStaleExtensionResources = g.add({
    name: 'Deleting stale extension resources',
    step: op.deleteStaleExtensions,
    retry: true,
    dependencies: [cleanKubernetesResources, waitUntilManagedResourcesDeleted],
  });
  const waitUntilStaleExtensionResourcesDeleted = g.add({
    name: 'Waiting until all stale extension resources have been deleted',
    step: op.waitForStaleExtensionsDeleted,
    dependencies: [deleteStaleExtensionResources],
  });
  const deleteContainerRuntimeResources = g.add({
    name: 'Deleting container runtime resources',
    step: op.destroyContainerRuntimes,
    retry: true,
    skipIf: w,
    dependencies: [initializeShootClients, ...syncPointCleanedKubernetesResources],
  });
  const waitUntilContainerRuntimeResourcesDeleted = g.add({
    name: 'Waiting until stale container runtime resources are deleted',
    step: op.waitForContainerRuntimesDeleted,
    skipIf: w,
    dependencies: [deleteContainerRuntimeResources],
  });
  const syncPointCleaned = [
    ...syncPointCleanedKubernetesResources,
    deleteAllOperatingSystemConfigs,
    waitUntilWorkerDeleted,
    waitUntilManagedResourcesDeleted,
    destroyNetwork,
    waitUntilNetworkIsDestroyed,
    waitUntilExtensionsBeforeKAPIDeleted,
    waitUntilStaleExtensionResourcesDeleted,
    waitUntilContainerRuntimeResourcesDeleted,
  ];
  const destroyControlPlane = g.add({
    name: 'Destroying shoot control plane',
    step: op.destroyControlPlane,
    retry: true,
    skipIf: w,
    dependencies: syncPointCleaned,
  });
  const waitUntilControlPlaneDeleted = g.add({
    name: 'Waiting until shoot control plane has been destroyed',
    step: op.waitForControlPlaneDeleted,
    skipIf: w,
    dependencies: [destroyControlPlane],
  });
  const waitUntilShootManagedResourcesDeleted = g.add({
    name: 'Waiting until shoot managed resources have been deleted',
    step: op.waitForShootManagedResourcesDeleted,
    retry: true,
    dependencies: [waitUntilControlPlaneDeleted],
  });
  const deleteKubeAPIServer = g.add({
    name: 'Deleting Kubernetes API server',
    step: op.deleteKubeAPIServer,
    retry: true,
    dependencies: [...syncPointCleaned, waitUntilControlPlaneDeleted, waitUntilShootManagedResourcesDeleted],
  });
  const waitUntilKubeAPIServerDeleted = g.add({
    name: 'Waiting until Kubernetes API server has been deleted',
    step: op.waitForKubeAPIServerDeleted,
    dependencies: [deleteKubeAPIServer],
  });
  const deleteExtensionsAfterKAPI = g.add({
    name: 'Deleting extension resources after kube-apiserver',
    step: op.destroyExtensionsAfterKubeAPIServer,
    retry: true,
    dependencies: [waitUntilKubeAPIServerDeleted],
  });
  const waitUntilExtensionsAfterKAPIDeleted = g.add({
    name: 'Waiting until extension resources that should be handled after kube-apiserver have been deleted',
    step: op.waitForExtensionsAfterKubeAPIServerDeleted,
    dependencies: [deleteExtensionsAfterKAPI],
  });
  const waitUntilExtensionResourcesDeleted = g.add({
    name: 'Waiting until all extension resources have been deleted',
    step: op.waitForExtensionsDeleted,
    dependencies: [waitUntilKubeAPIServerDeleted],
  });
  const destroyKubeAPIServerSNI = g.add({
    name: 'Destroying Kubernetes API server service SNI',
    local: SkipReasons.istio,
    dependencies: [waitUntilKubeAPIServerDeleted],
  });
  g.add({
    name: 'Destroying Kubernetes API server service',
    step: op.destroyKubeAPIServerService,
    retry: true,
    dependencies: [waitUntilKubeAPIServerDeleted, destroyKubeAPIServerSNI],
  });
  g.add({
    name: 'Destroying gardener-resource-manager',
    step: op.destroyGardenerResourceManager,
    dependencies: [waitUntilKubeAPIServerDeleted],
  });
  g.add({
    name: 'Delete public service account signing keys from Garden cluster',
    step: op.deletePublicServiceAccountKeys,
    dependencies: [waitUntilKubeAPIServerDeleted],
  });
  const destroyIngressDomainDNSRecord = g.add({
    name: 'Destroying nginx ingress DNS record',
    local: SkipReasons.addon,
    dependencies: syncPointCleaned,
  });
  const deleteInfrastructure = g.add({
    name: 'Destroying shoot infrastructure',
    step: op.destroyInfrastructure,
    retry: true,
    skipIf: w,
    dependencies: [...syncPointCleaned, waitUntilControlPlaneDeleted],
  });
  const waitUntilInfrastructureDeleted = g.add({
    name: 'Waiting until shoot infrastructure has been deleted',
    step: op.waitForInfrastructureDeleted,
    skipIf: w,
    dependencies: [deleteInfrastructure],
  });
  const destroyExternalDomainDNSRecord = g.add({
    name: 'Destroying external domain DNS record',
    step: op.destroyExternalDNSRecord,
    skipIf: !active,
    dependencies: [...syncPointCleaned, waitUntilKubeAPIServerDeleted],
  });
  const deletePlutono = g.add({
    name: 'Deleting Plutono in Seed',
    local: SkipReasons.monitoring,
    dependencies: [waitUntilInfrastructureDeleted],
  });
  const deleteExtAuthzServer = g.add({
    name: 'Deleting external authorization server in Seed',
    local: SkipReasons.monitoring,
    dependencies: [deletePlutono],
  });
  const destroySeedLogging = g.add({
    name: 'Deleting logging stack in Seed',
    local: SkipReasons.logging,
    dependencies: [waitUntilInfrastructureDeleted],
  });
  const syncPoint = [
    deleteAlertmanager,
    deletePrometheus,
    deleteBlackboxExporter,
    deletePlutono,
    deleteExtAuthzServer,
    destroySeedLogging,
    waitUntilKubeAPIServerDeleted,
    waitUntilControlPlaneDeleted,
    waitUntilExtensionsAfterKAPIDeleted,
    waitUntilExtensionResourcesDeleted,
    destroyIngressDomainDNSRecord,
    destroyExternalDomainDNSRecord,
    waitUntilInfrastructureDeleted,
  ];
  const destroyInternalDomainDNSRecord = g.add({
    name: 'Destroying internal domain DNS record',
    step: op.destroyInternalDNSRecord,
    skipIf: !active,
    dependencies: syncPoint,
  });
  const destroyReferencedResources = g.add({
    name: 'Deleting referenced resources',
    step: op.destroyReferencedResources,
    retry: true,
    dependencies: syncPoint,
  });
  const destroyEtcd = g.add({
    name: 'Destroying main and events etcd',
    step: op.destroyEtcd,
    retry: true,
    dependencies: syncPoint,
  });
  const waitUntilEtcdDeleted = g.add({
    name: 'Waiting until main and event etcd have been destroyed',
    step: op.waitForEtcdDeleted,
    retry: true,
    dependencies: [...syncPoint, destroyEtcd],
  });
  const deleteNamespace = g.add({
    name: 'Deleting shoot namespace in Seed',
    step: op.deleteNamespace,
    retry: true,
    dependencies: [...syncPoint, destroyInternalDomainDNSRecord, destroyReferencedResources, waitUntilEtcdDeleted],
  });
  g.add({
    name: 'Waiting until shoot namespace in Seed has been deleted',
    step: op.waitForNamespaceDeleted,
    dependencies: [deleteNamespace],
  });
  g.add({ name: 'Deleting Shoot State', step: op.deleteShootState, dependencies: [deleteNamespace] });

  return { flow: g.graph.compile(), skipped: g.skipped };
}
