// The units and files of a worker pool's OperatingSystemConfigs (Gardener's `pkg/component/extensions/
// operatingsystemconfig`: the `original` components kubelet and gardener-node-agent for the `reconcile` OSC, node-init
// for the `provision` OSC) and what gardener-node-agent reads in the shoot (the OSC Secret in kube-system, its RBAC,
// the bootstrap token Secret). Pure: values, CA bundle, API server URL and bootstrap token in, objects out.
//
// Local differences, on purpose: a local machine knows `/opt/bin/kubelet` and `/opt/bin/gardener-node-agent` as
// programs, so the binaries' `imageRef` files are not rendered; and it cannot download and run node-init's script, so
// the provision OSC carries what `gardener-node-agent bootstrap` would install — node-agent's unit, started — beside
// the bootstrap token, the machine name placeholder and node-agent's configuration. The local API server has no
// node-agent authorizer webhook, so node-agents (group `gardener.cloud:node-agents`) get their permissions from RBAC,
// as Gardener grants them with the NodeAgentAuthorizer feature gate disabled.
import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import { IPNet, formatIPAddress, type Shoot, type extensionsv1alpha1 } from '@gardener-ts/api';
import { sshAccessComponents } from './sshd.js';
import { kubernetesVersion, shootNetworks, type ShootValues } from './values.js';

export type Worker = NonNullable<Shoot['spec']['provider']['workers']>[number];
type OSCUnit = NonNullable<extensionsv1alpha1.OperatingSystemConfigSpec['units']>[number];
type OSCFile = NonNullable<extensionsv1alpha1.OperatingSystemConfigSpec['files']>[number];

/** gardener-node-agent's directories and files on a node (Gardener's nodeagent config v1alpha1 constants). */
export const NodeAgentPaths = {
  binary: '/opt/bin/gardener-node-agent',
  config: '/var/lib/gardener-node-agent/config.yaml',
  bootstrapToken: '/var/lib/gardener-node-agent/credentials/bootstrap-token',
  kubeconfig: '/var/lib/gardener-node-agent/credentials/kubeconfig',
  machineName: '/var/lib/gardener-node-agent/machine-name',
} as const;
/** The kubelet's files on a node (Gardener's kubelet component constants). */
export const KubeletPaths = {
  binary: '/opt/bin/kubelet',
  bootstrapKubeconfig: '/var/lib/kubelet/kubeconfig-bootstrap',
  kubeconfig: '/var/lib/kubelet/kubeconfig-real',
  config: '/var/lib/kubelet/config/kubelet',
  ca: '/var/lib/kubelet/ca.crt',
  extraArgs: '/var/lib/kubelet/extra_args',
} as const;
/** The units of the original components. */
export const NodeAgentUnitName = 'gardener-node-agent.service';
export const KubeletUnitName = 'kubelet.service';
/** The placeholder the machine controller replaces with the machine's name (machine-controller-manager's). */
export const MachineNamePlaceholder = '<<MACHINE_NAME>>';
/** The data key of the OSC in node-agent's Secret, and the annotation with its checksum (Gardener's). */
export const OSCSecretDataKey = 'osc.yaml';
export const OSCChecksumAnnotation = 'checksum/data-script';
/** The group and user name prefix of node-agents authenticated by their client certificate (Gardener's). */
export const NodeAgentsGroup = 'gardener.cloud:node-agents';
export const NodeAgentUserNamePrefix = 'gardener.cloud:node-agent:machine:';
/** The bootstrap tokens' group (kube's `system:bootstrappers`). */
export const BootstrappersGroup = 'system:bootstrappers';

/** What the node side needs to reach the shoot: the API server URL machines can reach and the CA bundle (PEM). */
export interface NodeAccess {
  readonly apiServerURL: string;
  readonly caBundle: string;
  /**
   * The kubelets' client CA (`/var/lib/kubelet/ca.crt`): the current `ca-kubelet` certificate, which signs the
   * kube-apiserver's client certificate for kubelets (logs, exec, port-forward). Without it, the cluster CA bundle.
   */
  readonly kubeletCACertificate?: string;
  /**
   * The shoot's SSH public keys the nodes authorize (the current `ssh-keypair`, then the old one during a rotation);
   * see sshd.ts. Used only when the shoot allows SSH access.
   */
  readonly sshPublicKeys?: readonly string[];
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
const inlineFile = (path: string, permissions: number, content: string): OSCFile => ({
  path,
  permissions,
  content: { inline: { encoding: 'b64', data: b64(content) } },
});
const plainFile = (path: string, permissions: number, content: string): OSCFile => ({
  path,
  permissions,
  content: { inline: { encoding: '', data: content }, transmitUnencoded: true },
});

/** The Kubernetes version of a pool (its own, else the shoot's), without `v`. */
export function poolKubernetesVersion(values: ShootValues, worker: Worker): string {
  return (worker.kubernetes?.version ?? kubernetesVersion(values)).replace(/^v/, '');
}

/**
 * The name of the Secret in the shoot's kube-system holding a pool's OSC for gardener-node-agent:
 * `gardener-node-agent-<pool>-<hash>`, the hash over what makes the pool's nodes different (Kubernetes version, CRI).
 */
export function nodeAgentOSCSecretName(values: ShootValues, worker: Worker): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([worker.name, poolKubernetesVersion(values, worker), worker.cri?.name ?? 'containerd']))
    .digest('hex')
    .slice(0, 5);
  return `gardener-node-agent-${worker.name}-${hash}`;
}

/** gardener-node-agent's unit (Gardener's `UnitContent`). */
export function nodeAgentUnitContent(): string {
  return `[Unit]
Description=Gardener Node Agent
After=network-online.target

[Service]
LimitMEMLOCK=infinity
ExecStart=${NodeAgentPaths.binary} --config=${NodeAgentPaths.config}
Restart=always
RestartSec=5

[Install]
WantedBy=multi-user.target`;
}

/** gardener-node-agent's NodeAgentConfiguration for a pool (Gardener's `ComponentConfig`), as YAML. */
export function nodeAgentConfiguration(values: ShootValues, worker: Worker, access: NodeAccess): string {
  return stringify({
    apiVersion: 'nodeagent.config.gardener.cloud/v1alpha1',
    kind: 'NodeAgentConfiguration',
    clientConnection: { kubeconfig: '' },
    apiServer: { server: access.apiServerURL, caBundle: b64(access.caBundle) },
    controllers: {
      operatingSystemConfig: {
        secretName: nodeAgentOSCSecretName(values, worker),
        kubernetesVersion: poolKubernetesVersion(values, worker),
      },
      token: { syncPeriod: '12h0m0s' },
    },
  });
}

/** The nth address of a network (`0` the network address). */
function nthAddress(cidr: string, n: bigint): string {
  const net = IPNet.parse(cidr);
  return formatIPAddress({ family: net.family, bits: net.bits, value: net.network + n });
}

/** The labels a pool's kubelet registers its Node with (`--node-labels`): the pool's and Gardener's worker labels. */
export function kubeletNodeLabels(values: ShootValues, worker: Worker): Record<string, string> {
  return {
    ...worker.labels,
    'node.kubernetes.io/role': 'node',
    'worker.gardener.cloud/pool': worker.name,
    'worker.garden.sapcloud.io/group': worker.name,
    'worker.gardener.cloud/kubernetes-version': poolKubernetesVersion(values, worker),
    'worker.gardener.cloud/cri-name': worker.cri?.name ?? 'containerd',
    ...(worker.systemComponents?.allow === false ? {} : { 'worker.gardener.cloud/system-components': 'true' }),
  };
}

/** The kubelet unit (Gardener's kubelet component with its CLI flags). */
export function kubeletUnitContent(values: ShootValues, worker: Worker): string {
  const labels = Object.entries(kubeletNodeLabels(values, worker))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return `[Unit]
Description=kubelet daemon
Documentation=https://kubernetes.io/docs/admin/kubelet
After=containerd.service
[Install]
WantedBy=multi-user.target
[Service]
Restart=always
RestartSec=5
EnvironmentFile=/etc/environment
EnvironmentFile=-${KubeletPaths.extraArgs}
ExecStart=${KubeletPaths.binary} \\
    --bootstrap-kubeconfig=${KubeletPaths.bootstrapKubeconfig} \\
    --config=${KubeletPaths.config} \\
    --kubeconfig=${KubeletPaths.kubeconfig} \\
    --node-labels=${labels} \\
    --container-runtime-endpoint=unix:///run/containerd/containerd.sock \\
    --v=2 $KUBELET_EXTRA_ARGS`;
}

/**
 * The KubeletConfiguration of a pool (Gardener's kubelet config with its defaults): client CA, webhook authn/authz,
 * the cluster DNS address (the 10th address of the service network), certificate rotation and serving certificates
 * from the cluster, Gardener's `critical-components-not-ready` taint, then the shoot's (or pool's) kubelet settings.
 */
export function kubeletConfiguration(values: ShootValues, worker: Worker): string {
  const kubelet = (worker.kubernetes?.kubelet ?? values.shoot.spec.kubernetes.kubelet ?? {}) as Record<string, unknown>;
  const config: Record<string, unknown> = {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    authentication: {
      anonymous: { enabled: false },
      webhook: { enabled: true, cacheTTL: '2m0s' },
      x509: { clientCAFile: KubeletPaths.ca },
    },
    authorization: {
      mode: 'Webhook',
      webhook: { cacheAuthorizedTTL: '5m0s', cacheUnauthorizedTTL: '30s' },
    },
    cgroupDriver: 'systemd',
    clusterDNS: [nthAddress(shootNetworks(values).services, 10n)],
    clusterDomain: 'cluster.local',
    failSwapOn: kubelet.failSwapOn ?? true,
    maxPods: kubelet.maxPods ?? 110,
    nodeLeaseDurationSeconds: 40,
    nodeStatusUpdateFrequency: '10s',
    registerWithTaints: [{ key: 'node.gardener.cloud/critical-components-not-ready', effect: 'NoSchedule' }],
    rotateCertificates: true,
    serverTLSBootstrap: true,
    volumePluginDir: '/var/lib/kubelet/volumeplugins',
  };
  const passThrough = ['seccompDefault', 'serializeImagePulls', 'registryPullQPS', 'registryBurst', 'podPidsLimit'];
  for (const key of passThrough) if (kubelet[key] !== undefined) config[key] = kubelet[key];
  return stringify(config);
}

/**
 * The `original` units and files of a pool's `reconcile` OSC, which gardener-node-agent applies: the kubelet with its
 * configuration and CA, gardener-node-agent itself with its configuration, and — with SSH access — sshd and the
 * authorized keys (sshd.ts).
 */
export function originalComponents(
  values: ShootValues,
  worker: Worker,
  access: NodeAccess,
): { units: OSCUnit[]; files: OSCFile[] } {
  const kubeletFiles = [
    inlineFile(KubeletPaths.config, 0o644, kubeletConfiguration(values, worker)),
    inlineFile(KubeletPaths.ca, 0o644, access.kubeletCACertificate ?? access.caBundle),
  ];
  const nodeAgentFiles = [inlineFile(NodeAgentPaths.config, 0o600, nodeAgentConfiguration(values, worker, access))];
  const ssh = sshAccessComponents(values.shoot, access.sshPublicKeys ?? []);
  return {
    units: [
      {
        name: KubeletUnitName,
        command: 'start',
        enable: true,
        content: kubeletUnitContent(values, worker),
        filePaths: kubeletFiles.map((f) => f.path),
      },
      {
        name: NodeAgentUnitName,
        enable: true,
        content: nodeAgentUnitContent(),
        filePaths: nodeAgentFiles.map((f) => f.path),
      },
      ...ssh.units,
    ],
    files: [...kubeletFiles, ...nodeAgentFiles, ...ssh.files],
  };
}

/**
 * The placeholder of the bootstrap token in the `provision` OSC: machine-controller-manager (locally provider-local's
 * machine controller) creates a bootstrap token per machine in the shoot and replaces it in the machine's user data.
 */
export const BootstrapTokenPlaceholder = '<<BOOTSTRAP_TOKEN>>';

/**
 * The units and files of a pool's `provision` OSC (the machine's user data): gardener-node-agent's unit started, its
 * configuration, and the placeholders of the bootstrap token and the machine name (both transmitted unencoded).
 */
export function provisionComponents(
  values: ShootValues,
  worker: Worker,
  access: NodeAccess,
): { units: OSCUnit[]; files: OSCFile[] } {
  const config = inlineFile(NodeAgentPaths.config, 0o600, nodeAgentConfiguration(values, worker, access));
  return {
    units: [
      { name: NodeAgentUnitName, command: 'start', enable: true, content: nodeAgentUnitContent(), filePaths: [] },
    ],
    files: [
      plainFile(NodeAgentPaths.bootstrapToken, 0o640, BootstrapTokenPlaceholder),
      plainFile(NodeAgentPaths.machineName, 0o640, MachineNamePlaceholder),
      config,
    ],
  };
}

/**
 * The Secret gardener-node-agent reads in the shoot's kube-system (Gardener's `OperatingSystemConfigSecret`): the OSC
 * reduced to what node-agent applies (units, files, CRI config, the extension's units and files), its checksum as
 * annotation, labelled with the pool. Files must be inline already (the shell resolves Secret references).
 */
export function renderNodeAgentOSCSecret(
  osc: extensionsv1alpha1.OperatingSystemConfig,
  secretName: string,
  pool: string,
): Record<string, unknown> {
  const reduced = {
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'OperatingSystemConfig',
    metadata: {},
    spec: {
      ...(osc.spec.units ? { units: osc.spec.units } : {}),
      ...(osc.spec.files ? { files: osc.spec.files } : {}),
      ...(osc.spec.criConfig ? { criConfig: osc.spec.criConfig } : {}),
    },
    status: {
      ...(osc.status?.extensionUnits ? { extensionUnits: osc.status.extensionUnits } : {}),
      ...(osc.status?.extensionFiles ? { extensionFiles: osc.status.extensionFiles } : {}),
    },
  };
  const raw = stringify(reduced);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: secretName,
      namespace: 'kube-system',
      annotations: { [OSCChecksumAnnotation]: createHash('sha256').update(raw).digest('hex') },
      labels: { 'gardener.cloud/role': 'operating-system-config', 'worker.gardener.cloud/pool': pool },
    },
    type: 'Opaque',
    data: { [OSCSecretDataKey]: b64(raw) },
  };
}

const rbac = 'rbac.authorization.k8s.io';
const group = (name: string) => ({ apiGroup: rbac, kind: 'Group', name });

/**
 * gardener-node-agent's RBAC in the shoot (Gardener's `RBACResourcesData`): its ClusterRole (Nodes, Pods, events) and
 * Role in kube-system (its OSC Secrets by name, Leases), bound to its ServiceAccount and — without a node-agent
 * authorizer — to the node-agents group; the bootstrap tokens' group may read the OSC Secrets too; and the
 * ClusterRoleBindings of kube's TLS bootstrap (bootstrappers create node client CSRs, nodes renew their own).
 */
export function renderNodeAgentRBAC(oscSecretNames: readonly string[]): Record<string, unknown>[] {
  const serviceAccount = { kind: 'ServiceAccount', name: 'gardener-node-agent', namespace: 'kube-system' };
  const crb = (name: string, subject: string) => ({
    apiVersion: `${rbac}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name },
    subjects: [group(subject)],
  });
  return [
    {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'gardener-node-agent' },
      rules: [
        { apiGroups: [''], resources: ['nodes', 'nodes/status'], verbs: ['get', 'list', 'watch', 'patch', 'update'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'patch', 'update', 'delete'] },
        { apiGroups: [''], resources: ['events'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'update'] },
        { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['create', 'get'] },
      ],
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'gardener-node-agent' },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'gardener-node-agent' },
      subjects: [serviceAccount, group(NodeAgentsGroup)],
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'Role',
      metadata: { name: 'gardener-node-agent', namespace: 'kube-system' },
      rules: [
        {
          apiGroups: [''],
          resources: ['secrets'],
          resourceNames: ['gardener-node-agent', 'gardener-valitail', ...oscSecretNames],
          verbs: ['get', 'list', 'watch'],
        },
        {
          apiGroups: ['coordination.k8s.io'],
          resources: ['leases'],
          verbs: ['get', 'list', 'watch', 'create', 'update'],
        },
      ],
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'gardener-node-agent', namespace: 'kube-system' },
      roleRef: { apiGroup: rbac, kind: 'Role', name: 'gardener-node-agent' },
      subjects: [group(BootstrappersGroup), serviceAccount, group(NodeAgentsGroup)],
    },
    crb('system:node-bootstrapper', BootstrappersGroup),
    crb('system:certificates.k8s.io:certificatesigningrequests:nodeclient', BootstrappersGroup),
    crb('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', 'system:nodes'),
  ];
}
