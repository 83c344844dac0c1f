// Which Kubernetes feature gates and kube-apiserver admission plugins a Kubernetes version knows (Gardener's version
// tables in pkg/utils/validation/features and pkg/utils/validation/admissionplugins, state of Kubernetes 1.34): each
// is supported in [added, removed) — no bound means since/until forever — and a feature gate may be locked to a value
// from some version on. A name the table does not know is not supported in any version (Gardener's "unknown feature
// gate" / "unknown admission plugin"). The shoot maintenance drops what the Shoot's (new) version no longer supports;
// the Shoot validation can use the same tables. Pure.
import { compareVersions, parseVersion } from './validation/formats.js';

/** The versions a feature gate or admission plugin exists in: `[addedInVersion, removedInVersion)`. */
export interface KubernetesVersionRange {
  addedInVersion?: string;
  removedInVersion?: string;
}

/** A feature gate's range, and the value it is locked to from `lockedToDefaultInVersion` on. */
export interface FeatureGateVersionRange extends KubernetesVersionRange {
  lockedToDefaultInVersion?: string;
  lockedValue?: boolean;
}

/** An admission plugin's range and what Gardener allows of it. */
export interface AdmissionPluginVersionRange extends KubernetesVersionRange {
  /** Must not be disabled. */
  required: boolean;
  /** Takes a `config`. */
  allowsConfiguration: boolean;
  /** Takes a `kubeconfigSecretName` (an external kubeconfig). */
  allowsExternalKubeconfig: boolean;
}

/**
 * The feature gates, one a line: the name, then `+V` (added in V), `-V` (removed in V), `true@V` / `false@V` (locked to
 * that value from V on), each optional.
 */
const featureGateTable = `
AllAlpha +1.17
AllBeta +1.17
AdmissionWebhookMatchConditions -1.33 true@1.30
AggregatedDiscoveryEndpoint -1.33 true@1.30
AggregatedDiscoveryRemoveBetaType +1.33
AllowDNSOnlyNodeCSR +1.31
AllowInsecureKubeletCertificateSigningRequests +1.31
AllowOverwriteTerminationGracePeriodSeconds +1.32
AllowParsingUserUIDFromCertAuth +1.33
AllowServiceLBStatusOnNonLB +1.29 false@1.32
AllowUnsafeMalformedObjectDeletion +1.32
AnonymousAuthConfigurableEndpoints +1.31 true@1.34
AnyVolumeDataSource true@1.33
APIListChunking -1.33 true@1.29
APIPriorityAndFairness -1.31 true@1.29
APIResponseCompression
APISelfSubjectReview -1.30 true@1.28
APIServerIdentity
APIServerTracing true@1.34
APIServingWithRoutine +1.30
AppArmor -1.33 true@1.31
AppArmorFields +1.30 -1.33 true@1.31
AuthorizeNodeWithSelectors +1.31 true@1.34
AuthorizeWithSelectors +1.31 true@1.34
BtreeWatchCache +1.32 true@1.33
CBORServingAndStorage +1.32
ClearingNominatedNodeNameAfterBinding +1.34
CloudControllerManagerWebhook
CloudDualStackNodeIPs -1.32 true@1.30
ClusterTrustBundle
ClusterTrustBundleProjection +1.29
ComponentFlagz +1.32
ComponentSLIs
ComponentStatusz +1.32
ConcurrentWatchObjectDecode +1.31
ConsistentHTTPGetHandlers +1.26 -1.31 true@1.30
ConsistentListFromCache +1.28 true@1.34
ContainerCheckpoint
ContainerRestartRules +1.34
ContainerStopSignals +1.33
ContextualLogging true@1.30
CoordinatedLeaderElection +1.31
CPUManager -1.33 true@1.26
CPUManagerPolicyAlphaOptions
CPUManagerPolicyBetaOptions
CPUManagerPolicyOptions true@1.33
CRDValidationRatcheting +1.28 true@1.33
CronJobsScheduledAnnotation +1.28 true@1.32
CrossNamespaceVolumeDataSource
CSIMigrationAzureFile -1.30 true@1.27
CSIMigrationPortworx true@1.33
CSIMigrationRBD -1.31
CSINodeExpandSecret -1.31 true@1.29
CSIVolumeHealth
CustomCPUCFSQuotaPeriod
CustomResourceFieldSelectors +1.30 true@1.32
CustomResourceValidationExpressions -1.31 true@1.29
DeclarativeValidation +1.33
DeclarativeValidationTakeover +1.33
DefaultHostNetworkHostPortsInPodTemplates +1.28 -1.31
DeploymentReplicaSetTerminatingReplicas +1.33
DetectCacheInconsistency +1.34
DevicePluginCDIDevices +1.28 -1.34 true@1.31
DisableAllocatorDualWrite +1.31
DisableCloudProviders -1.33 true@1.31
DisableCPUQuotaWithExclusiveCPUs +1.33
DisableKubeletCloudCredentialProviders -1.33 true@1.31
DisableNodeKubeProxyVersion +1.29
DRAAdminAccess +1.32
DRAConsumableCapacity +1.34
DRAControlPlaneController +1.26 -1.32
DRADeviceBindingConditions +1.34
DRADeviceTaints +1.33
DRAExtendedResource +1.34
DRAPartitionableDevices +1.33
DRAPrioritizedList +1.33
DRAResourceClaimDeviceStatus +1.32
DRASchedulerFilterTimeout +1.34
DynamicResourceAllocation
EfficientWatchResumption -1.33 true@1.24
ElasticIndexedJob -1.34 true@1.31
EnvFiles +1.34
EventedPLEG
ExecProbeTimeout
ExpandedDNSConfig -1.30 true@1.28
ExperimentalHostUserNamespaceDefaulting -1.30 false@1.28
ExternalServiceAccountTokenSigner +1.32
GitRepoVolumeDriver +1.33
GracefulNodeShutdown
GracefulNodeShutdownBasedOnPodPriority
HonorPVReclaimPolicy true@1.33
HostnameOverride +1.34
HPAConfigurableTolerance +1.33
HPAContainerMetrics +1.20 -1.32 true@1.30
HPAScaleToZero
ImageMaximumGCAge +1.29
ImageVolume +1.31
InformerResourceVersion +1.30
InPlacePodVerticalScaling +1.27
InPlacePodVerticalScalingAllocatedStatus +1.32
InPlacePodVerticalScalingExclusiveCPUs +1.32
InPlacePodVerticalScalingExclusiveMemory +1.34
InTreePluginAWSUnregister -1.31
InTreePluginAzureDiskUnregister -1.31
InTreePluginAzureFileUnregister -1.31
InTreePluginGCEUnregister -1.31
InTreePluginOpenStackUnregister -1.31
InTreePluginPortworxUnregister
InTreePluginRBDUnregister -1.31
InTreePluginvSphereUnregister -1.31
IPTablesOwnershipCleanup -1.30 true@1.28
JobBackoffLimitPerIndex +1.28 true@1.33
JobManagedBy +1.30
JobPodFailurePolicy -1.33 true@1.31
JobPodReplacementPolicy +1.28 true@1.34
JobReadyPods -1.31 true@1.29
JobSuccessPolicy +1.30 true@1.33
KMSv1 +1.28
KMSv2 +1.25 -1.32 true@1.29
KMSv2KDF +1.28 -1.32 true@1.29
KubeletCgroupDriverFromCRI +1.28 true@1.34
KubeletCrashLoopBackOffMax +1.32
KubeletEnsureSecretPulledImages +1.33
KubeletFineGrainedAuthz +1.32
KubeletInUserNamespace
KubeletPodResources -1.30 true@1.28
KubeletPodResourcesDynamicResources
KubeletPodResourcesGet
KubeletPodResourcesGetAllocatable -1.30 true@1.28
KubeletPodResourcesListUseActivePods +1.34
KubeletPSI +1.33
KubeletRegistrationGetOnExistsOnly +1.32
KubeletSeparateDiskGC +1.29
KubeletServiceAccountTokenForCredentialProviders +1.33
KubeletTracing true@1.34
KubeProxyDrainingTerminatingNodes +1.28 -1.33 true@1.31
LegacyServiceAccountTokenCleanUp +1.28 -1.32 true@1.30
LegacyServiceAccountTokenTracking +1.26 -1.30 true@1.28
LegacySidecarContainers +1.33 -1.34
ListFromCacheSnapshot +1.33
LoadBalancerIPMode +1.29 true@1.32
LocalStorageCapacityIsolationFSQuotaMonitoring
LogarithmicScaleDown true@1.31
MatchLabelKeysInPodAffinity +1.29 true@1.33
MatchLabelKeysInPodTopologySpread
MatchLabelKeysInPodTopologySpreadSelectorMerge +1.34
MaxUnavailableStatefulSet
MemoryManager +1.21 true@1.32
MemoryQoS
MinDomainsInPodTopologySpread +1.24 -1.32 true@1.30
MinimizeIPTablesRestore +1.26 -1.30 true@1.28
MultiCIDRServiceAllocator true@1.34
MutableCSINodeAllocatableCount +1.33
MutatingAdmissionPolicy +1.30
NewVolumeManagerReconstruction +1.25 -1.32 true@1.30
NFTablesProxyMode +1.29 true@1.33
NodeInclusionPolicyInPodTopologySpread true@1.33
NodeLogQuery
NodeOutOfServiceVolumeDetach +1.24 -1.32 true@1.28
NodeSwap true@1.34
NominatedNodeNameForExpectation +1.34
OpenAPIEnums
OrderedNamespaceDeletion +1.33 true@1.34
PDBUnhealthyPodEvictionPolicy -1.33 true@1.31
PersistentVolumeLastPhaseTransitionTime +1.28 -1.33 true@1.31
PodAndContainerStatsFromCRI
PodCertificateRequest +1.34
PodDeletionCost
PodDisruptionConditions -1.34 true@1.31
PodHostIPs +1.28 -1.32 true@1.30
PodIndexLabel +1.28 true@1.32
PodLevelResources +1.32
PodLifecycleSleepAction +1.29 true@1.34
PodLifecycleSleepActionAllowZero +1.32 true@1.34
PodLogsQuerySplitStreams +1.32
PodObservedGenerationTracking +1.33
PodReadyToStartContainersCondition +1.28
PodSchedulingReadiness true@1.30
PodTopologyLabelsAdmission +1.33
PortForwardWebsockets +1.30
PreferAlignCpusByUncoreCache +1.32
PreferSameTrafficDistribution +1.33
PreventStaticPodAPIReferences +1.34
ProbeHostPodSecurityStandards +1.34 true@1.34
ProcMountType
ProxyTerminatingEndpoints -1.30 true@1.28
QOSReserved
ReadWriteOncePod -1.31 true@1.29
RecoverVolumeExpansionFailure +1.28 true@1.34
RecursiveReadOnlyMounts +1.30 true@1.33
ReduceDefaultCrashLoopBackOffDecay +1.33
RelaxedDNSSearchValidation +1.32 true@1.34
RelaxedEnvironmentVariableValidation +1.30 true@1.34
RelaxedServiceNameValidation +1.34
ReloadKubeletServerCertificateFile +1.31
RemainingItemCount -1.33 true@1.29
RemoteRequestHeaderUID +1.32
RemoveSelfLink -1.30 true@1.24
ResilientWatchCacheInitialization +1.31 true@1.34
ResourceHealthStatus +1.31
RetryGenerateName +1.30 true@1.32
RotateKubeletServerCertificate
RuntimeClassInImageCriApi +1.29
SchedulerAsyncAPICalls +1.34
SchedulerAsyncPreemption +1.32
SchedulerPopFromBackoffQ +1.33
SchedulerQueueingHints +1.28 true@1.34
SecurityContextDeny -1.30
SELinuxChangePolicy +1.32
SELinuxMount +1.30
SELinuxMountReadWriteOncePod true@1.29
SeparateCacheWatchRPC +1.28
SeparateTaintEvictionController +1.29 true@1.34
ServerSideApply +1.14 -1.32 true@1.22
ServerSideFieldValidation +1.23 -1.32 true@1.27
ServiceAccountNodeAudienceRestriction +1.32
ServiceAccountTokenJTI +1.29 true@1.32
ServiceAccountTokenNodeBinding +1.29 true@1.33
ServiceAccountTokenNodeBindingValidation +1.29 true@1.32
ServiceAccountTokenPodNodeInfo +1.29 true@1.32
ServiceNodePortStaticSubrange -1.31 true@1.29
ServiceTrafficDistribution +1.30 true@1.33
SidecarContainers +1.28 true@1.33
SizeBasedListCostEstimate +1.34
SizeMemoryBackedVolumes +1.20 true@1.32
SkipReadOnlyValidationGCE +1.28 -1.31
StableLoadBalancerNodeSet -1.32 true@1.30
StatefulSetAutoDeletePVC +1.23 true@1.32
StatefulSetStartOrdinal -1.34 true@1.31
StorageCapacityScoring +1.33
StorageNamespaceIndex +1.30
StorageVersionAPI
StorageVersionHash
StorageVersionMigrator +1.30
StreamingCollectionEncodingToJSON +1.33 true@1.34
StreamingCollectionEncodingToProtobuf +1.33 true@1.34
StrictCostEnforcementForVAP +1.30 true@1.32
StrictCostEnforcementForWebhooks +1.30 true@1.32
StrictIPCIDRValidation +1.33
StructuredAuthenticationConfiguration +1.29 true@1.34
StructuredAuthenticationConfigurationEgressSelector +1.34
StructuredAuthorizationConfiguration +1.29 true@1.32
SupplementalGroupsPolicy +1.31
SystemdWatchdog +1.32
TokenRequestServiceAccountUIDValidation +1.34
TopologyAwareHints true@1.33
TopologyManagerPolicyAlphaOptions
TopologyManagerPolicyBetaOptions
TopologyManagerPolicyOptions true@1.32
TranslateStreamCloseWebsocketRequests +1.29
UnauthenticatedHTTP2DOSMitigation
UnknownVersionInteroperabilityProxy +1.28
UserNamespacesPodSecurityStandards +1.29
UserNamespacesSupport +1.28
ValidatingAdmissionPolicy -1.32 true@1.30
VolumeAttributesClass +1.29
VolumeCapacityPriority -1.33
WatchBookmark -1.33 true@1.17
WatchCacheInitializationPostStartHook +1.31
WatchFromStorageWithoutResourceVersion false@1.33
WatchList
WatchListClient +1.30
WindowsCPUAndMemoryAffinity +1.32
WindowsGracefulNodeShutdown +1.32
WindowsHostNetwork
WinDSR true@1.34
WinOverlay true@1.34
ZeroLimitedNominalConcurrencyShares +1.29 -1.32 true@1.30
`;

/**
 * The admission plugins, one a line: the name, then `+V` / `-V` (added / removed in V), `required` (cannot be
 * disabled), `config` (takes a configuration), `kubeconfig` (takes an external kubeconfig), each optional.
 */
const admissionPluginTable = `
AlwaysAdmit
AlwaysDeny
AlwaysPullImages
CertificateApproval
CertificateSigning
CertificateSubjectRestriction
ClusterTrustBundleAttest
DefaultIngressClass
DefaultStorageClass
DefaultTolerationSeconds
DenyServiceExternalIPs
EventRateLimit config
ExtendedResourceToleration
ImagePolicyWebhook config kubeconfig
LimitPodHardAntiAffinityTopology
LimitRanger
MutatingAdmissionPolicy +1.32
MutatingAdmissionWebhook required config kubeconfig
NamespaceAutoProvision
NamespaceExists
NamespaceLifecycle required
NodeRestriction required
OwnerReferencesPermissionEnforcement
PersistentVolumeClaimResize
PersistentVolumeLabel -1.31
PodNodeSelector config
PodSecurity required config
PodTolerationRestriction config
PodTopologyLabels +1.33
Priority required
ResourceQuota config
RuntimeClass
ServiceAccount
StorageObjectInUseProtection required
TaintNodesByCondition
ValidatingAdmissionPolicy
ValidatingAdmissionWebhook required config kubeconfig
`;

const lines = (table: string) =>
  table
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/));

function rangeOf(tokens: readonly string[]): KubernetesVersionRange {
  const range: KubernetesVersionRange = {};
  for (const token of tokens) {
    if (token.startsWith('+')) range.addedInVersion = token.slice(1);
    else if (token.startsWith('-')) range.removedInVersion = token.slice(1);
  }
  return range;
}

const featureGates: ReadonlyMap<string, FeatureGateVersionRange> = new Map(
  lines(featureGateTable).map(([name, ...tokens]) => {
    const range: FeatureGateVersionRange = rangeOf(tokens);
    const lock = tokens.find((t) => t.includes('@'));
    if (lock) {
      const [value, version] = lock.split('@');
      range.lockedValue = value === 'true';
      range.lockedToDefaultInVersion = version;
    }
    return [name!, range];
  }),
);

const admissionPlugins: ReadonlyMap<string, AdmissionPluginVersionRange> = new Map(
  lines(admissionPluginTable).map(([name, ...tokens]) => [
    name!,
    {
      ...rangeOf(tokens),
      required: tokens.includes('required'),
      allowsConfiguration: tokens.includes('config'),
      allowsExternalKubeconfig: tokens.includes('kubeconfig'),
    },
  ]),
);

/**
 * Whether `version` lies in `[addedInVersion, removedInVersion)`, comparing major.minor.patch only (a pre-release or
 * build suffix and a leading `v` are ignored, as Gardener normalizes versions). Undefined when `version` is not one.
 */
export function versionInRange(version: string, range: KubernetesVersionRange): boolean | undefined {
  const v = parseVersion(version);
  if (!v) return undefined;
  const bound = (text: string | undefined) => (text === undefined ? undefined : parseVersion(text));
  const added = bound(range.addedInVersion);
  const removed = bound(range.removedInVersion);
  if (added && compareVersions(v, added) < 0) return false;
  if (removed && compareVersions(v, removed) >= 0) return false;
  return true;
}

/** The version range of a feature gate; undefined for a gate the table does not know. */
export const featureGateVersionRange = (name: string): FeatureGateVersionRange | undefined => featureGates.get(name);

/** The names of all known feature gates. */
export const knownFeatureGates = (): string[] => [...featureGates.keys()];

/**
 * Gardener's IsFeatureGateSupported: the gate is known and `version` lies in its range. Unknown gates and versions
 * that do not parse are not supported.
 */
export function isFeatureGateSupported(name: string, version: string): boolean {
  const range = featureGates.get(name);
  return range !== undefined && versionInRange(version, range) === true;
}

/** The value a feature gate is locked to in `version`; undefined when it can still be set either way. */
export function featureGateLockedValue(name: string, version: string): boolean | undefined {
  const range = featureGates.get(name);
  if (range?.lockedToDefaultInVersion === undefined) return undefined;
  return versionInRange(version, { addedInVersion: range.lockedToDefaultInVersion }) ? range.lockedValue : undefined;
}

/** What Gardener knows of an admission plugin; undefined for a plugin the table does not know. */
export const admissionPluginVersionRange = (name: string): AdmissionPluginVersionRange | undefined =>
  admissionPlugins.get(name);

/** The names of all known admission plugins. */
export const knownAdmissionPlugins = (): string[] => [...admissionPlugins.keys()];

/**
 * Gardener's IsAdmissionPluginSupported: the plugin is known and `version` lies in its range. Unknown plugins and
 * versions that do not parse are not supported.
 */
export function isAdmissionPluginSupported(name: string, version: string): boolean {
  const range = admissionPlugins.get(name);
  return range !== undefined && versionInRange(version, range) === true;
}
