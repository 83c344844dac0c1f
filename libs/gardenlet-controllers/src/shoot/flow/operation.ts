// The narrow interface the shoot flows call (Gardener's botanist and components' Deploy/Wait/Destroy): one method per
// step with a local counterpart. The flow graphs are pure over it, so they are tested with a fake that records calls;
// the shell implements it over the seed and garden clients.

/** One step of a shoot flow: does its work or throws; `signal` is aborted when the flow is canceled. */
export type Step = (signal: AbortSignal) => Promise<void>;

/** The steps of the reconcile flow (create, reconcile, restore) that have a local counterpart. */
export interface ReconcileOperation {
  deployNamespace: Step;
  ensureShootClusterIdentity: Step;
  deployCloudProviderSecret: Step;
  initializeSecretsManagement: Step;
  deployReferencedResources: Step;
  deployInfrastructure: Step;
  waitForInfrastructure: Step;
  deployKubeAPIServerService: Step;
  waitForKubeAPIServerService: Step;
  updateAdvertisedAddresses: Step;
  deployInternalDNSRecord: Step;
  deployExternalDNSRecord: Step;
  deployBackupEntry: Step;
  waitForBackupEntry: Step;
  /** Restore with a copy of etcd's backups: the source BackupEntry, the EtcdCopyBackupsTask and their cleanup. */
  deploySourceBackupEntry: Step;
  waitForSourceBackupEntry: Step;
  copyEtcdBackups: Step;
  waitForEtcdBackupsCopied: Step;
  destroyEtcdCopyBackupsTask: Step;
  destroySourceBackupEntry: Step;
  waitForSourceBackupEntryDeleted: Step;
  deployEtcd: Step;
  waitForEtcd: Step;
  deployExtensionsBeforeKubeAPIServer: Step;
  waitForExtensionsBeforeKubeAPIServer: Step;
  deployKubeAPIServer: Step;
  waitForKubeAPIServer: Step;
  deployGardenerResourceManager: Step;
  waitForGardenerResourceManager: Step;
  deployControlPlane: Step;
  waitForControlPlane: Step;
  deployShootNamespaces: Step;
  waitForShootNamespaces: Step;
  deployGardenerAccess: Step;
  initializeShootClients: Step;
  syncPublicServiceAccountKeys: Step;
  deployKubeScheduler: Step;
  deployKubeControllerManager: Step;
  deleteBastions: Step;
  deployExtensionsAfterKubeAPIServer: Step;
  waitForExtensionsAfterKubeAPIServer: Step;
  deployOperatingSystemConfig: Step;
  waitForOperatingSystemConfig: Step;
  deleteStaleOperatingSystemConfigs: Step;
  waitForStaleOperatingSystemConfigsDeleted: Step;
  deployNetwork: Step;
  waitForNetwork: Step;
  deployClusterIdentity: Step;
  deployShootSystemResources: Step;
  deployCoreDNS: Step;
  deployKubeProxy: Step;
  destroyKubeProxy: Step;
  deployNodeAgentManagedResource: Step;
  deployWorker: Step;
  waitForWorkerStatus: Step;
  deployExtensionsAfterWorker: Step;
  waitForWorker: Step;
  waitForExtensionsAfterWorker: Step;
  waitForOperatingSystemConfigUpdated: Step;
  hibernateControlPlane: Step;
  destroyInternalDNSRecord: Step;
  destroyExternalDNSRecord: Step;
  deleteStaleExtensions: Step;
  waitForStaleExtensionsDeleted: Step;
  deployContainerRuntime: Step;
  waitForContainerRuntime: Step;
  deleteStaleContainerRuntimes: Step;
  waitForStaleContainerRuntimesDeleted: Step;
  restartControlPlanePods: Step;
  /** Credentials rotation: new tokens for the shoot access Secrets once a new ServiceAccount signing key exists. */
  renewShootAccessSecrets: Step;
  /** Credentials rotation: encrypted data rewritten with the new ETCD encryption key (labelled), and unlabelled. */
  rewriteEncryptedDataAddLabel: Step;
  rewriteEncryptedDataRemoveLabel: Step;
  /** Credentials rotation: a full snapshot of etcd-main once the data is encrypted with the new key. */
  snapshotEtcdAfterRewrite: Step;
  /** Credentials rotation: kube-controller-manager rolled out with the new ServiceAccount signing key. */
  waitForKubeControllerManager: Step;
  /** Credentials rotation: legacy ServiceAccount token Secrets created for the new key, the old ones deleted. */
  createNewServiceAccountSecrets: Step;
  deleteOldServiceAccountSecrets: Step;
}

/** The steps of the delete flow that have a local counterpart (the extension steps wait for each deletion). */
export interface DeleteOperation {
  deployNamespace: Step;
  ensureShootClusterIdentity: Step;
  deployCloudProviderSecret: Step;
  deployKubeAPIServerService: Step;
  waitForKubeAPIServerService: Step;
  initializeSecretsManagement: Step;
  updateAdvertisedAddresses: Step;
  deployReferencedResources: Step;
  deployInternalDNSRecord: Step;
  deployEtcd: Step;
  scaleUpEtcd: Step;
  waitForEtcd: Step;
  deployControlPlane: Step;
  waitForControlPlane: Step;
  deployKubeAPIServer: Step;
  scaleUpKubeAPIServer: Step;
  waitForKubeAPIServer: Step;
  deployGardenerResourceManager: Step;
  waitForGardenerResourceManager: Step;
  deployGardenerAccess: Step;
  initializeShootClients: Step;
  deployKubeControllerManager: Step;
  scaleUpKubeControllerManager: Step;
  cleanWebhooks: Step;
  waitForKubeControllerManagerActive: Step;
  cleanExtendedAPIs: Step;
  cleanKubernetesResources: Step;
  destroyNetwork: Step;
  waitForNetworkDeleted: Step;
  destroyWorker: Step;
  waitForWorkerDeleted: Step;
  destroyOperatingSystemConfigs: Step;
  waitForOperatingSystemConfigsDeleted: Step;
  deleteManagedResources: Step;
  waitForManagedResourcesDeleted: Step;
  destroyExtensionsBeforeKubeAPIServer: Step;
  waitForExtensionsBeforeKubeAPIServerDeleted: Step;
  deleteStaleExtensions: Step;
  waitForStaleExtensionsDeleted: Step;
  destroyContainerRuntimes: Step;
  waitForContainerRuntimesDeleted: Step;
  destroyControlPlane: Step;
  waitForControlPlaneDeleted: Step;
  waitForShootManagedResourcesDeleted: Step;
  deleteKubeAPIServer: Step;
  waitForKubeAPIServerDeleted: Step;
  destroyExtensionsAfterKubeAPIServer: Step;
  waitForExtensionsAfterKubeAPIServerDeleted: Step;
  waitForExtensionsDeleted: Step;
  destroyKubeAPIServerService: Step;
  destroyGardenerResourceManager: Step;
  deletePublicServiceAccountKeys: Step;
  destroyInfrastructure: Step;
  waitForInfrastructureDeleted: Step;
  destroyExternalDNSRecord: Step;
  destroyInternalDNSRecord: Step;
  destroyReferencedResources: Step;
  destroyEtcd: Step;
  waitForEtcdDeleted: Step;
  deleteNamespace: Step;
  waitForNamespaceDeleted: Step;
  deleteShootState: Step;
}

/** A step an implementation cannot run here, with why: the task is skipped and listed with that reason. */
export interface NotRunnable {
  readonly skip: string;
}

/** What an implementation provides for a step: the step, why it cannot run, or nothing (not implemented). */
export type StepOrSkip = Step | NotRunnable;

/** The reconcile steps an implementation provides; a missing one is skipped and listed as not implemented. */
export type ReconcileSteps = { [K in keyof ReconcileOperation]?: StepOrSkip };

/** The delete steps an implementation provides; a missing one is skipped and listed as not implemented. */
export type DeleteSteps = { [K in keyof DeleteOperation]?: StepOrSkip };

/** A task the flow skips because it has no local counterpart (or is not implemented yet), with why. */
export interface SkippedTask {
  readonly task: string;
  readonly reason: string;
}

/** Why tasks without a local counterpart are skipped. */
export const SkipReasons = {
  istio: 'istio: the local seed exposes kube-apiserver through its LoadBalancer Service, not istio',
  logging: 'logging: no local counterpart of the shoot logging stack (vali, plutono)',
  monitoring: 'monitoring: no local counterpart of the shoot monitoring stack (prometheus, alertmanager, plutono)',
  vpn: 'VPN: the process kubelet and the local API server run on one machine and need no tunnel',
  vpa: 'VPA: no local counterpart of the vertical pod autoscaler',
  dependencyWatchdog: 'dependency-watchdog: no local counterpart',
  clusterAutoscaler: 'cluster-autoscaler: no local counterpart',
  machineControllerManager: "machine-controller-manager: provider-local's machine controller manages the machines",
  systemAddon: 'no local image of this shoot system component',
  addon: 'optional addon: no local counterpart',
  nodeAgentAuthorizer:
    'node-agent-authorizer: the local API server has no authorizer webhook to add in a second rollout',
  resourceManagerReplicas: 'gardener-resource-manager runs with one replica locally',
  notImplemented: 'not implemented in the local flow yet',
} as const;
