// Shoot: a Kubernetes cluster created and managed by Gardener.
import { Type, type Static } from '@sinclair/typebox';
import { type KindInfo, ageColumn, defineKind, kindSchema } from '../../schema/kind.js';
import { LabelSelector, ObjectReference, ServiceExternalTrafficPolicy, Taint } from '../../schema/meta.js';
import {
  Bool,
  BoolMap,
  Duration,
  Float,
  Int32,
  Int64,
  IntOrString,
  Opt,
  Quantity,
  RawExtension,
  ResourceList,
  Str,
  StringEnum,
  StringMap,
  Time,
} from '../../schema/primitives.js';
import {
  AccessRestrictionWithOptions,
  Backup,
  CloudProfileReference,
  Condition,
  Extension,
  Gardener,
  GroupVersion,
  HighAvailability,
  IPFamily,
  LastError,
  LastOperation,
  NamedResourceReference,
} from './common.js';

const featureGates = { featureGates: Opt(BoolMap()) };

const Addons = Type.Object({
  kubernetesDashboard: Opt(Type.Object({ enabled: Bool(), authenticationMode: Opt(Str()) })),
  nginxIngress: Opt(
    Type.Object({
      enabled: Bool(),
      loadBalancerSourceRanges: Opt(Type.Array(Str())),
      config: Opt(StringMap()),
      externalTrafficPolicy: Opt(ServiceExternalTrafficPolicy),
    }),
  ),
});

const DNSIncludeExclude = Type.Object({ include: Opt(Type.Array(Str())), exclude: Opt(Type.Array(Str())) });
const DNS = Type.Object({
  domain: Opt(Str()),
  providers: Opt(
    Type.Array(
      Type.Object({
        domains: Opt(DNSIncludeExclude),
        primary: Opt(Bool()),
        secretName: Opt(Str()),
        type: Opt(Str()),
        zones: Opt(DNSIncludeExclude),
      }),
    ),
  ),
});

export const HibernationSchedule = Type.Object({ start: Opt(Str()), end: Opt(Str()), location: Opt(Str()) });
const Hibernation = Type.Object({ enabled: Opt(Bool()), schedules: Opt(Type.Array(HibernationSchedule)) });

const ControlPlaneAutoscaling = Type.Object({ minAllowed: ResourceList() });

const ClusterAutoscaler = Type.Object({
  scaleDownDelayAfterAdd: Opt(Duration()),
  scaleDownDelayAfterDelete: Opt(Duration()),
  scaleDownDelayAfterFailure: Opt(Duration()),
  scaleDownUnneededTime: Opt(Duration()),
  scaleDownUtilizationThreshold: Opt(Float()),
  scanInterval: Opt(Duration()),
  expander: Opt(Str()),
  maxNodeProvisionTime: Opt(Duration()),
  maxGracefulTerminationSeconds: Opt(Int32()),
  ignoreTaints: Opt(Type.Array(Str())),
  newPodScaleUpDelay: Opt(Duration()),
  maxEmptyBulkDelete: Opt(Int32()),
  ignoreDaemonsetsUtilization: Opt(Bool()),
  verbosity: Opt(Int32()),
  startupTaints: Opt(Type.Array(Str())),
  statusTaints: Opt(Type.Array(Str())),
  maxScaleDownParallelism: Opt(Int32()),
  maxDrainParallelism: Opt(Int32()),
});

const KubeAPIServerConfig = Type.Object({
  ...featureGates,
  admissionPlugins: Opt(
    Type.Array(
      Type.Object({
        name: Str(),
        config: Opt(RawExtension()),
        disabled: Opt(Bool()),
        kubeconfigSecretName: Opt(Str()),
      }),
    ),
  ),
  apiAudiences: Opt(Type.Array(Str())),
  auditConfig: Opt(Type.Object({ auditPolicy: Opt(Type.Object({ configMapRef: Opt(ObjectReference) })) })),
  oidcConfig: Opt(
    Type.Object({
      caBundle: Opt(Str()),
      clientAuthentication: Opt(Type.Object({ extraConfig: Opt(StringMap()), secret: Opt(Str()) })),
      clientID: Opt(Str()),
      groupsClaim: Opt(Str()),
      groupsPrefix: Opt(Str()),
      issuerURL: Opt(Str()),
      requiredClaims: Opt(StringMap()),
      signingAlgs: Opt(Type.Array(Str())),
      usernameClaim: Opt(Str()),
      usernamePrefix: Opt(Str()),
    }),
  ),
  runtimeConfig: Opt(BoolMap()),
  serviceAccountConfig: Opt(
    Type.Object({
      issuer: Opt(Str()),
      extendTokenExpiration: Opt(Bool()),
      maxTokenExpiration: Opt(Duration()),
      acceptedIssuers: Opt(Type.Array(Str())),
    }),
  ),
  watchCacheSizes: Opt(
    Type.Object({
      default: Opt(Int32()),
      resources: Opt(Type.Array(Type.Object({ apiGroup: Opt(Str()), resource: Str(), size: Int32() }))),
    }),
  ),
  requests: Opt(Type.Object({ maxNonMutatingInflight: Opt(Int32()), maxMutatingInflight: Opt(Int32()) })),
  enableAnonymousAuthentication: Opt(Bool()),
  eventTTL: Opt(Duration()),
  logging: Opt(Type.Object({ verbosity: Opt(Int32()), httpAccessVerbosity: Opt(Int32()) })),
  defaultNotReadyTolerationSeconds: Opt(Int64()),
  defaultUnreachableTolerationSeconds: Opt(Int64()),
  encryptionConfig: Opt(Type.Object({ resources: Type.Array(Str()) })),
  structuredAuthentication: Opt(Type.Object({ configMapName: Str() })),
  structuredAuthorization: Opt(
    Type.Object({
      configMapName: Str(),
      kubeconfigs: Type.Array(Type.Object({ authorizerName: Str(), secretName: Str() })),
    }),
  ),
  autoscaling: Opt(ControlPlaneAutoscaling),
});

const KubeControllerManagerConfig = Type.Object({
  ...featureGates,
  horizontalPodAutoscaler: Opt(
    Type.Object({
      cpuInitializationPeriod: Opt(Duration()),
      downscaleStabilization: Opt(Duration()),
      initialReadinessDelay: Opt(Duration()),
      syncPeriod: Opt(Duration()),
      tolerance: Opt(Float()),
    }),
  ),
  nodeCIDRMaskSize: Opt(Int32()),
  podEvictionTimeout: Opt(Duration()),
  nodeMonitorGracePeriod: Opt(Duration()),
});

const KubeSchedulerConfig = Type.Object({
  ...featureGates,
  kubeMaxPDVols: Opt(Str()),
  profile: Opt(StringEnum(['balanced', 'bin-packing'])),
});

const KubeProxyConfig = Type.Object({
  ...featureGates,
  mode: Opt(StringEnum(['IPTables', 'IPVS'])),
  enabled: Opt(Bool()),
});

const evictionFields = <T extends ReturnType<typeof Str> | ReturnType<typeof Quantity> | ReturnType<typeof Duration>>(
  value: () => T,
) =>
  Type.Object({
    memoryAvailable: Opt(value()),
    imageFSAvailable: Opt(value()),
    imageFSInodesFree: Opt(value()),
    nodeFSAvailable: Opt(value()),
    nodeFSInodesFree: Opt(value()),
  });

const KubeletConfigReserved = Type.Object({
  cpu: Opt(Quantity()),
  memory: Opt(Quantity()),
  ephemeralStorage: Opt(Quantity()),
  pid: Opt(Quantity()),
});

export const KubeletConfig = Type.Object({
  ...featureGates,
  cpuCFSQuota: Opt(Bool()),
  cpuManagerPolicy: Opt(Str()),
  evictionHard: Opt(evictionFields(Str)),
  evictionMaxPodGracePeriod: Opt(Int32()),
  evictionMinimumReclaim: Opt(evictionFields(Quantity)),
  evictionPressureTransitionPeriod: Opt(Duration()),
  evictionSoft: Opt(evictionFields(Str)),
  evictionSoftGracePeriod: Opt(evictionFields(Duration)),
  maxPods: Opt(Int32()),
  podPidsLimit: Opt(Int64()),
  failSwapOn: Opt(Bool()),
  kubeReserved: Opt(KubeletConfigReserved),
  systemReserved: Opt(KubeletConfigReserved),
  imageGCHighThresholdPercent: Opt(Int32()),
  imageGCLowThresholdPercent: Opt(Int32()),
  serializeImagePulls: Opt(Bool()),
  registryPullQPS: Opt(Int32()),
  registryBurst: Opt(Int32()),
  seccompDefault: Opt(Bool()),
  containerLogMaxSize: Opt(Quantity()),
  containerLogMaxFiles: Opt(Int32()),
  protectKernelDefaults: Opt(Bool()),
  streamingConnectionIdleTimeout: Opt(Duration()),
  memorySwap: Opt(Type.Object({ swapBehavior: Opt(StringEnum(['NoSwap', 'LimitedSwap', 'UnlimitedSwap'])) })),
  maxParallelImagePulls: Opt(Int32()),
  imageMinimumGCAge: Opt(Duration()),
  imageMaximumGCAge: Opt(Duration()),
});
export type KubeletConfig = Static<typeof KubeletConfig>;

const VerticalPodAutoscaler = Type.Object({
  enabled: Bool(),
  evictAfterOOMThreshold: Opt(Duration()),
  evictionRateBurst: Opt(Int32()),
  evictionRateLimit: Opt(Float()),
  evictionTolerance: Opt(Float()),
  recommendationMarginFraction: Opt(Float()),
  updaterInterval: Opt(Duration()),
  recommenderInterval: Opt(Duration()),
  targetCPUPercentile: Opt(Float()),
  recommendationLowerBoundCPUPercentile: Opt(Float()),
  recommendationUpperBoundCPUPercentile: Opt(Float()),
  targetMemoryPercentile: Opt(Float()),
  recommendationLowerBoundMemoryPercentile: Opt(Float()),
  recommendationUpperBoundMemoryPercentile: Opt(Float()),
  cpuHistogramDecayHalfLife: Opt(Duration()),
  memoryHistogramDecayHalfLife: Opt(Duration()),
  memoryAggregationInterval: Opt(Duration()),
  memoryAggregationIntervalCount: Opt(Int64()),
  ...featureGates,
});

const ETCDConfig = Type.Object({ autoscaling: Opt(ControlPlaneAutoscaling) });

export const Kubernetes = Type.Object({
  clusterAutoscaler: Opt(ClusterAutoscaler),
  kubeAPIServer: Opt(KubeAPIServerConfig),
  kubeControllerManager: Opt(KubeControllerManagerConfig),
  kubeScheduler: Opt(KubeSchedulerConfig),
  kubeProxy: Opt(KubeProxyConfig),
  kubelet: Opt(KubeletConfig),
  version: Opt(Str()),
  verticalPodAutoscaler: Opt(VerticalPodAutoscaler),
  etcd: Opt(Type.Object({ main: Opt(ETCDConfig), events: Opt(ETCDConfig) })),
});

export const Networking = Type.Object({
  type: Opt(Str()),
  providerConfig: Opt(RawExtension()),
  pods: Opt(Str()),
  nodes: Opt(Str()),
  services: Opt(Str()),
  ipFamilies: Opt(Type.Array(IPFamily)),
});

const MaintenanceRotationConfig = Type.Object({ enabled: Opt(Bool()), rotationPeriod: Opt(Duration()) });
export const MaintenanceTimeWindow = Type.Object({ begin: Str(), end: Str() });
const Maintenance = Type.Object({
  autoUpdate: Opt(Type.Object({ kubernetesVersion: Bool(), machineImageVersion: Opt(Bool()) })),
  timeWindow: Opt(MaintenanceTimeWindow),
  confineSpecUpdateRollout: Opt(Bool()),
  autoRotation: Opt(
    Type.Object({
      credentials: Opt(
        Type.Object({ observability: Opt(MaintenanceRotationConfig), sshKeypair: Opt(MaintenanceRotationConfig) }),
      ),
    }),
  ),
});

const Monitoring = Type.Object({ alerting: Opt(Type.Object({ emailReceivers: Opt(Type.Array(Str())) })) });

const CRI = Type.Object({
  name: StringEnum(['containerd']),
  containerRuntimes: Opt(Type.Array(Type.Object({ type: Str(), providerConfig: Opt(RawExtension()) }))),
});

const Volume = Type.Object({ name: Opt(Str()), type: Opt(Str()), size: Str(), encrypted: Opt(Bool()) });
const DataVolume = Type.Object({ name: Str(), type: Opt(Str()), size: Str(), encrypted: Opt(Bool()) });

export const MachineUpdateStrategy = StringEnum(['AutoRollingUpdate', 'AutoInPlaceUpdate', 'ManualInPlaceUpdate']);

export const Worker = Type.Object({
  annotations: Opt(StringMap()),
  caBundle: Opt(Str()),
  cri: Opt(CRI),
  kubernetes: Opt(Type.Object({ kubelet: Opt(KubeletConfig), version: Opt(Str()) })),
  labels: Opt(StringMap()),
  name: Str(),
  machine: Type.Object({
    type: Str(),
    image: Opt(Type.Object({ name: Str(), providerConfig: Opt(RawExtension()), version: Opt(Str()) })),
    architecture: Opt(Str()),
  }),
  maximum: Int32(),
  minimum: Int32(),
  maxSurge: Opt(IntOrString()),
  maxUnavailable: Opt(IntOrString()),
  providerConfig: Opt(RawExtension()),
  taints: Opt(Type.Array(Taint)),
  volume: Opt(Volume),
  dataVolumes: Opt(Type.Array(DataVolume)),
  kubeletDataVolumeName: Opt(Str()),
  zones: Opt(Type.Array(Str())),
  systemComponents: Opt(Type.Object({ allow: Bool() })),
  machineControllerManager: Opt(
    Type.Object({
      machineDrainTimeout: Opt(Duration()),
      machineHealthTimeout: Opt(Duration()),
      machineCreationTimeout: Opt(Duration()),
      maxEvictRetries: Opt(Int32()),
      nodeConditions: Opt(Type.Array(Str())),
      inPlaceUpdateTimeout: Opt(Duration()),
      disableHealthTimeout: Opt(Bool()),
    }),
  ),
  sysctls: Opt(StringMap()),
  clusterAutoscaler: Opt(
    Type.Object({
      scaleDownUtilizationThreshold: Opt(Float()),
      scaleDownGpuUtilizationThreshold: Opt(Float()),
      scaleDownUnneededTime: Opt(Duration()),
      scaleDownUnreadyTime: Opt(Duration()),
      maxNodeProvisionTime: Opt(Duration()),
    }),
  ),
  priority: Opt(Int32()),
  updateStrategy: Opt(MachineUpdateStrategy),
  controlPlane: Opt(Type.Object({ backup: Opt(Backup) })),
});
export type Worker = Static<typeof Worker>;

export const Provider = Type.Object({
  type: Str(),
  controlPlaneConfig: Opt(RawExtension()),
  infrastructureConfig: Opt(RawExtension()),
  workers: Opt(Type.Array(Worker)),
  workersSettings: Opt(Type.Object({ sshAccess: Opt(Type.Object({ enabled: Bool() })) })),
});

export const ShootPurpose = StringEnum(['evaluation', 'testing', 'development', 'production', 'infrastructure']);

const SeedSelector = Type.Object({ ...LabelSelector.properties, providerTypes: Opt(Type.Array(Str())) });

const SystemComponents = Type.Object({
  coreDNS: Opt(
    Type.Object({
      autoscaling: Opt(Type.Object({ mode: StringEnum(['horizontal', 'cluster-proportional']) })),
      rewriting: Opt(Type.Object({ commonSuffixes: Opt(Type.Array(Str())) })),
    }),
  ),
  nodeLocalDNS: Opt(
    Type.Object({
      enabled: Bool(),
      forceTCPToClusterDNS: Opt(Bool()),
      forceTCPToUpstreamDNS: Opt(Bool()),
      disableForwardToUpstreamDNS: Opt(Bool()),
    }),
  ),
});

export const ShootSpec = Type.Object({
  addons: Opt(Addons),
  cloudProfileName: Opt(Str()),
  dns: Opt(DNS),
  extensions: Opt(Type.Array(Extension)),
  hibernation: Opt(Hibernation),
  kubernetes: Kubernetes,
  networking: Opt(Networking),
  maintenance: Opt(Maintenance),
  monitoring: Opt(Monitoring),
  provider: Provider,
  purpose: Opt(ShootPurpose),
  region: Str(),
  secretBindingName: Opt(Str()),
  seedName: Opt(Str()),
  seedSelector: Opt(SeedSelector),
  resources: Opt(Type.Array(NamedResourceReference)),
  tolerations: Opt(Type.Array(Type.Object({ key: Str(), value: Opt(Str()) }))),
  exposureClassName: Opt(Str()),
  systemComponents: Opt(SystemComponents),
  controlPlane: Opt(Type.Object({ highAvailability: Opt(HighAvailability) })),
  schedulerName: Opt(Str()),
  cloudProfile: Opt(CloudProfileReference),
  credentialsBindingName: Opt(Str()),
  accessRestrictions: Opt(Type.Array(AccessRestrictionWithOptions)),
});
export type ShootSpec = Static<typeof ShootSpec>;

const RotationPhase = StringEnum([
  'Preparing',
  'PreparingWithoutWorkersRollout',
  'WaitingForWorkersRollout',
  'Prepared',
  'Completing',
  'Completed',
]);
const PendingWorkersRollout = Type.Object({ name: Str(), lastInitiationTime: Opt(Time()) });
const rotationTimes = { lastInitiationTime: Opt(Time()), lastCompletionTime: Opt(Time()) };
const phasedRotation = {
  phase: RotationPhase,
  ...rotationTimes,
  lastInitiationFinishedTime: Opt(Time()),
  lastCompletionTriggeredTime: Opt(Time()),
};

const ShootCredentials = Type.Object({
  rotation: Opt(
    Type.Object({
      certificateAuthorities: Opt(
        Type.Object({ ...phasedRotation, pendingWorkersRollouts: Opt(Type.Array(PendingWorkersRollout)) }),
      ),
      kubeconfig: Opt(Type.Object(rotationTimes)),
      sshKeypair: Opt(Type.Object(rotationTimes)),
      observability: Opt(Type.Object(rotationTimes)),
      serviceAccountKey: Opt(
        Type.Object({ ...phasedRotation, pendingWorkersRollouts: Opt(Type.Array(PendingWorkersRollout)) }),
      ),
      etcdEncryptionKey: Opt(Type.Object(phasedRotation)),
    }),
  ),
});

export const ShootStatus = Type.Object({
  conditions: Opt(Type.Array(Condition)),
  constraints: Opt(Type.Array(Condition)),
  gardener: Gardener,
  hibernated: Bool(),
  lastOperation: Opt(LastOperation),
  lastErrors: Opt(Type.Array(LastError)),
  observedGeneration: Opt(Int64()),
  retryCycleStartTime: Opt(Time()),
  seedName: Opt(Str()),
  technicalID: Str(),
  uid: Str(),
  clusterIdentity: Opt(Str()),
  advertisedAddresses: Opt(Type.Array(Type.Object({ name: Str(), url: Str() }))),
  migrationStartTime: Opt(Time()),
  credentials: Opt(ShootCredentials),
  lastHibernationTriggerTime: Opt(Time()),
  lastMaintenance: Opt(
    Type.Object({
      description: Str(),
      triggeredTime: Time(),
      state: StringEnum(['Processing', 'Succeeded', 'Error', 'Failed', 'Pending', 'Aborted']),
      failureReason: Opt(Str()),
    }),
  ),
  encryptedResources: Opt(Type.Array(Str())),
  networking: Opt(
    Type.Object({
      pods: Opt(Type.Array(Str())),
      nodes: Opt(Type.Array(Str())),
      services: Opt(Type.Array(Str())),
      egressCIDRs: Opt(Type.Array(Str())),
    }),
  ),
  inPlaceUpdates: Opt(
    Type.Object({
      pendingWorkerUpdates: Opt(
        Type.Object({
          autoInPlaceUpdate: Opt(Type.Array(Str())),
          manualInPlaceUpdate: Opt(Type.Array(Str())),
        }),
      ),
    }),
  ),
});

const info: KindInfo = {
  ...GroupVersion,
  kind: 'Shoot',
  plural: 'shoots',
  singular: 'shoot',
  namespaced: true,
  statusSubresource: true,
  printerColumns: [
    { name: 'CloudProfile', type: 'string', jsonPath: '.spec.cloudProfile.name' },
    { name: 'Provider', type: 'string', jsonPath: '.spec.provider.type' },
    { name: 'Region', type: 'string', jsonPath: '.spec.region' },
    { name: 'Seed', type: 'string', jsonPath: '.spec.seedName', priority: 1 },
    { name: 'K8S Version', type: 'string', jsonPath: '.spec.kubernetes.version' },
    { name: 'Hibernation', type: 'string', jsonPath: '.spec.hibernation.enabled' },
    { name: 'Last Operation', type: 'string', jsonPath: '.status.lastOperation.type' },
    { name: 'Status', type: 'string', jsonPath: '.metadata.labels.shoot\\.gardener\\.cloud/status' },
    { name: 'Purpose', type: 'string', jsonPath: '.spec.purpose', priority: 1 },
    { name: 'Gardener Version', type: 'string', jsonPath: '.status.gardener.version', priority: 1 },
    ageColumn,
  ],
};

export const ShootKind = defineKind(info, kindSchema(info, { spec: ShootSpec, status: Opt(ShootStatus) }));
export type Shoot = Static<typeof ShootKind.schema>;
