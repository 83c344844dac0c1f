// @gardener-ts/nodeagent: gardener-node-agent's logic — applies the OperatingSystemConfig on a machine (a pure planner
// from the last applied to the new configuration, a local unit runner, the OSC controller) and the Node controller
// (restart on `worker.gardener.cloud/restart-systemd-services`).

// The OperatingSystemConfig: resolution, planning, applying.
export {
  DefaultFilePermissions,
  type NodeConfig,
  type OSCDropIn,
  type OSCFile,
  type OSCUnit,
  type ResolvedFile,
} from './osc/types.js';
export { isEmptyPlan, planOSC, unitChanged, type DropInRef, type OSCPlan } from './osc/planner.js';
export {
  NodeCloudConfigChecksumAnnotation,
  OSCChecksumAnnotation,
  OSCSecretDataKey,
  nodeConfigFromOSC,
  parseOSC,
  resolveFile,
} from './osc/resolve.js';
export { applyPlan, type ApplyTarget } from './osc/apply.js';

// Units.
export {
  LocalUnitRunner,
  UnitDirectory,
  type LocalUnitRunnerOptions,
  type InProcessLaunch,
  type ProcessLaunch,
  type ProgramLauncher,
  type UnitManager,
  type UnitStatus,
} from './units/runner.js';
export {
  applyDropIns,
  effectiveValues,
  parseEnvironmentFile,
  parseTimeSpan,
  parseUnitFile,
  serviceSettings,
  splitCommandLine,
  type ServiceSettings,
  type UnitFile,
} from './units/unit-file.js';
export { nodePath } from './units/paths.js';

// Controllers.
export {
  ControllerName as OperatingSystemConfigControllerName,
  SecretNamespace as OSCSecretNamespace,
  addOperatingSystemConfigController,
  isOSCSecret,
} from './controller/operatingsystemconfig/add.js';
export {
  LastAppliedOSCPath,
  OperatingSystemConfigReconciler,
  type OperatingSystemConfigReconcilerDeps,
} from './controller/operatingsystemconfig/reconciler.js';
export {
  ControllerName as NodeControllerName,
  addNodeController,
  isOwnNodeAskingForRestart,
} from './controller/node/add.js';
export { NodeReconciler, RestartSystemdServicesAnnotation, unitsToRestart } from './controller/node/reconciler.js';
export {
  ControllerName as LeaseControllerName,
  DefaultRenewIntervalMs,
  addLeaseController,
} from './controller/lease/add.js';
export { LeaseDurationSeconds, LeaseNamespace, LeaseReconciler, leaseName } from './controller/lease/reconciler.js';
export {
  ControllerName as HealthCheckControllerName,
  DefaultHealthCheckIntervalMs,
  addHealthCheckController,
} from './controller/healthcheck/add.js';
export {
  DefaultKubeletHealthURL,
  KubeletHealthCheckReconciler,
  KubeletUnit,
  httpHealthProbe,
  type KubeletHealthCheckOptions,
} from './controller/healthcheck/reconciler.js';

// User data (cloud-config) on a local machine.
export { applyCloudConfig, parseCloudConfig, type CloudConfig } from './userdata/cloud-config.js';

// The local machine (the program of image gardener-ts/machine).
export {
  LocalMachine,
  NodeAgentBinary,
  NodeAgentKubeconfigPath,
  ProvisionedMarker,
  type LocalMachineOptions,
} from './machine/machine.js';
export {
  BootstrapTokenFilePath,
  KubeletBinary,
  KubeletBootstrapKubeconfigPath,
  KubeletClientCertificatePath,
  KubeletDirectory,
  KubeletKubeconfigPath,
  freeLocalPort,
  kubeletBootstrapKubeconfig,
  localKubeletProgram,
  type LocalKubeletPorts,
  writeKubeletBootstrapKubeconfig,
  type LocalKubeletCommand,
  type NodeAgentApiServer,
} from './machine/kubelet.js';
export {
  MachineNameFilePath,
  MachineNamePlaceholder,
  NodeAgentUserNamePrefix,
  NodeAgentsGroup,
  bootstrapNodeAgentKubeconfig,
  nodeAgentCertificateRequest,
  nodeAgentKubeconfig,
  type NodeAgentBootstrapOptions,
} from './machine/bootstrap.js';
