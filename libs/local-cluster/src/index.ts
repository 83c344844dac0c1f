// @gardener-ts/local-cluster: the local-mode cluster runtime (ARCHITECTURE.md §3) — controller manager, process
// kubelet, service proxy and the supervisor that runs them with a local API server as one cluster.

// Whole clusters: `gardener-local cluster up|down|list|run`.
export {
  clusterLayout,
  clusterNodes,
  choosePodCIDR,
  readSettings,
  resolveNodeSettings,
  type ClusterLayout,
  type ClusterSettings,
  type NodeRequest,
  type NodeSpec,
} from './cluster/layout.js';
export {
  runCluster,
  type RunClusterOptions,
  type ClusterContext,
  type Component,
  type ComponentStarter,
  type RunningCluster,
} from './cluster/supervisor.js';
export {
  clusterUp,
  clusterDown,
  clusterList,
  type UpOptions,
  type UpResult,
  type DownResult,
  type ClusterInfo,
} from './cluster/lifecycle.js';
export { defaultComponents, type DefaultComponentOptions } from './cluster/components.js';

// The parts, each usable alone.
export {
  startControllerManager,
  CONTROLLER_NAMES,
  type ControllerManager,
  type ControllerManagerOptions,
} from './controllers/controller-manager.js';
export { installDefaultStorageClass } from './cluster/storage.js';
export { standardStorageClass, LOCAL_PATH_PROVISIONER } from './controllers/persistentvolume/local-path.js';
export { startKubelet, type Kubelet } from './kubelet/kubelet.js';
export { runKubelet, KubeletUsageError, type RunKubeletOptions } from './kubelet/run.js';
export { KUBELET_DEFAULTS, type KubeletOptions, type Taint } from './kubelet/options.js';
export {
  parseKubeletFlags,
  parseKubeletCommandLine,
  loadKubeletConfiguration,
  kubeletOptions,
  KUBELET_USAGE,
  type KubeletCommandLine,
  type KubeletConfigurationOptions,
} from './kubelet/cli-options.js';
export {
  bootstrapClientCertificate,
  KUBELET_CLIENT_SIGNER,
  CLIENT_CURRENT_FILE,
  type ClientBootstrapOptions,
  type ClientBootstrapResult,
} from './kubelet/certificates/client-bootstrap.js';
export { ImageMap, type ImageMapEntry, type ResolvedImage } from './images/image-map.js';
export { builtinImageMap, type BuiltinImageMapOptions } from './images/builtin.js';
export { KUBE_CONTROLLER_MANAGER_CONTROLLERS } from './images/kube-controller-manager-flags.js';
export { type CSRSigningOptions } from './controllers/csrsigning/controller.js';
export {
  SIGNING_FILE_FLAGS,
  signingFilesFromFlags,
  type SignerName,
  type SigningFiles,
} from './controllers/csrsigning/signer.js';
export { ServiceProxy, type ServiceProxyOptions } from './proxy/service-proxy.js';
export { containerPath } from './kubelet/volumes/mounts.js';
export {
  MAX_NODES,
  inPodCIDR,
  nodePodCIDRs,
  podAddress,
  podAddressCount,
  podNetworkEnv,
  podNetworkPreload,
} from './network/pod-network.js';
export { serveRemoteCommand, REMOTE_COMMAND_PROTOCOLS, type RemoteCommandRequest } from './streaming/remote-command.js';
