// kube-proxy of a shoot (Gardener's `kubernetes/proxy` component): a central ManagedResource `shoot-core-kube-proxy`
// (ServiceAccount, the `gardener.cloud:target:node-proxier` ClusterRoleBinding, the headless metrics Service, the
// kubeconfig Secret and the KubeProxyConfiguration ConfigMap, both immutable and named by their content) and one
// ManagedResource per worker pool and Kubernetes version `shoot-core-kube-proxy-<pool>-v<version>` with the
// DaemonSet `kube-proxy-<pool>-v<version>` on that pool's nodes (hostNetwork, system-node-critical).
// Where local mode differs, on purpose: the proxy is the substrate's userspace service proxy (the kube-proxy image
// maps to `gardener-local proxy`), so there are no iptables or conntrack to prepare or repair — the `cleanup` and
// `kube-proxy-init --init-only` init containers and the `conntrack-fix` sidecar (an alpine image with a shell script)
// are left out, with their ConfigMaps; the proxy container mounts the node's `/var/lib/kube-proxy` (Gardener mounts it
// only into the init containers), where it publishes its Service table for the node's Pods. Pure.
import { createHash } from 'node:crypto';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import { stringify } from 'yaml';
import { ImageRepositories } from './images.js';
import { clusterRoleBindingForServiceAccounts, renderShootManagedResource } from './managed-resource.js';
import { poolKubernetesVersion, type Worker } from './operatingsystemconfig.js';
import { kubeconfigYAML } from './shoot-access.js';
import { shootNetworks, type ShootValues } from './values.js';

export const KubeProxyName = 'kube-proxy';
/** The central ManagedResource. */
export const KubeProxyManagedResourceName = 'shoot-core-kube-proxy';
/** The user of kube-proxy's client certificate: kube's bootstrap policy binds `system:node-proxier` to it. */
export const KubeProxyUser = 'system:kube-proxy';
/** Where the proxy keeps its state on the node: the local proxy's Service table is `services.json` in it. */
export const KubeProxyDirectory = '/var/lib/kube-proxy';

const MetricsPort = 10249;
const HealthzPort = 10256;
const KubeconfigMountPath = '/var/lib/kube-proxy-kubeconfig';
const ConfigMountPath = '/var/lib/kube-proxy-config';
const ConfigKey = 'config.yaml';

const labels = { app: 'kubernetes', role: 'proxy' };
const systemComponentLabels = { origin: 'gardener', 'gardener.cloud/role': 'system-component' };
const uniqueLabels = { 'resources.gardener.cloud/garbage-collectable-reference': 'true' };

/** The image of kube-proxy for a Kubernetes version. */
export function kubeProxyImage(kubernetesVersion: string): string {
  return `${ImageRepositories.kubeProxy}:v${kubernetesVersion.replace(/^v/, '')}`;
}

/** The pool ManagedResource's and DaemonSet's names: `<prefix>-<pool>-v<version>`. */
export function kubeProxyPoolName(values: ShootValues, worker: Worker, prefix = KubeProxyName): string {
  return `${prefix}-${worker.name}-v${poolKubernetesVersion(values, worker)}`;
}

/** The KubeProxyConfiguration (Gardener's): the mounted kubeconfig, metrics on 10249, the mode, the pod network. */
export function kubeProxyConfiguration(values: ShootValues): Record<string, unknown> {
  const proxyMode = values.shoot.spec.kubernetes.kubeProxy?.mode === 'IPVS' ? 'ipvs' : 'iptables';
  return {
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    clientConnection: { kubeconfig: `${KubeconfigMountPath}/kubeconfig` },
    ...(proxyMode === 'ipvs' ? {} : { clusterCIDR: shootNetworks(values).pods }),
    metricsBindAddress: `0.0.0.0:${MetricsPort}`,
    mode: proxyMode,
    conntrack: { maxPerCore: 524288 },
    ...(values.shoot.spec.kubernetes.kubeProxy?.featureGates
      ? { featureGates: values.shoot.spec.kubernetes.kubeProxy.featureGates }
      : {}),
  };
}

const contentSuffix = (data: Record<string, string>) =>
  createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 8);

/** What the central resources need: the API server nodes reach, the cluster CA, kube-proxy's client certificate. */
export interface KubeProxyAccess {
  readonly server: string;
  readonly caPEM: string;
  readonly certPEM: string;
  readonly keyPEM: string;
}

/** The objects of `shoot-core-kube-proxy`, and the names of the kubeconfig Secret and ConfigMap the pools mount. */
export function kubeProxyCentralObjects(
  values: ShootValues,
  access: KubeProxyAccess,
): { objects: KubernetesObject[]; secretName: string; configMapName: string } {
  const kubeconfig = kubeconfigYAML(
    values.namespace,
    { server: access.server, caPEM: access.caPEM },
    {
      'client-certificate-data': Buffer.from(access.certPEM).toString('base64'),
      'client-key-data': Buffer.from(access.keyPEM).toString('base64'),
    },
  );
  const secretData = { kubeconfig: Buffer.from(kubeconfig).toString('base64') };
  const configData = { [ConfigKey]: stringify(kubeProxyConfiguration(values)) };
  const secretName = `${KubeProxyName}-${contentSuffix(secretData)}`;
  const configMapName = `kube-proxy-config-${contentSuffix(configData)}`;
  const objects = [
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: KubeProxyName, namespace: 'kube-system' },
      automountServiceAccountToken: false,
    },
    clusterRoleBindingForServiceAccounts('gardener.cloud:target:node-proxier', 'system:node-proxier', [KubeProxyName]),
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: KubeProxyName, namespace: 'kube-system', labels },
      spec: {
        type: 'ClusterIP',
        clusterIP: 'None',
        ports: [{ name: 'metrics', port: MetricsPort, protocol: 'TCP' }],
        selector: labels,
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: secretName, namespace: 'kube-system', labels: uniqueLabels },
      type: 'Opaque',
      immutable: true,
      data: secretData,
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: configMapName,
        namespace: 'kube-system',
        labels: { ...labels, ...systemComponentLabels, ...uniqueLabels },
      },
      immutable: true,
      data: configData,
    },
  ] as KubernetesObject[];
  return { objects, secretName, configMapName };
}

/** The DaemonSet of one pool and Kubernetes version. */
export function kubeProxyDaemonSet(
  values: ShootValues,
  worker: Worker,
  refs: { secretName: string; configMapName: string },
): KubernetesObject {
  const version = poolKubernetesVersion(values, worker);
  const poolLabels = { ...labels, pool: worker.name, version };
  const podLabels = { ...poolLabels, ...systemComponentLabels, 'node.gardener.cloud/critical-component': 'true' };
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: kubeProxyPoolName(values, worker),
      namespace: 'kube-system',
      labels: { ...systemComponentLabels, 'node.gardener.cloud/critical-component': 'true' },
    },
    spec: {
      updateStrategy: { type: 'RollingUpdate' },
      selector: { matchLabels: poolLabels },
      revisionHistoryLimit: 2,
      template: {
        metadata: { labels: podLabels },
        spec: {
          nodeSelector: {
            'worker.gardener.cloud/pool': worker.name,
            'worker.gardener.cloud/kubernetes-version': version,
          },
          priorityClassName: 'system-node-critical',
          securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
          tolerations: [
            { effect: 'NoSchedule', operator: 'Exists' },
            { effect: 'NoExecute', operator: 'Exists' },
          ],
          hostNetwork: true,
          serviceAccountName: KubeProxyName,
          containers: [
            {
              name: KubeProxyName,
              image: kubeProxyImage(version),
              imagePullPolicy: 'IfNotPresent',
              command: ['/usr/local/bin/kube-proxy', `--config=${ConfigMountPath}/${ConfigKey}`, '--v=2'],
              resources: { requests: { cpu: '20m', memory: '64Mi' } },
              securityContext: {
                allowPrivilegeEscalation: false,
                capabilities: { add: ['NET_ADMIN', 'SYS_RESOURCE'] },
              },
              ports: [{ name: 'metrics', containerPort: MetricsPort, hostPort: MetricsPort, protocol: 'TCP' }],
              readinessProbe: {
                httpGet: { path: '/livez', port: HealthzPort, scheme: 'HTTP' },
                initialDelaySeconds: 15,
                timeoutSeconds: 15,
                successThreshold: 1,
                failureThreshold: 2,
              },
              volumeMounts: [
                { name: 'kubeconfig', mountPath: KubeconfigMountPath },
                { name: 'kube-proxy-config', mountPath: ConfigMountPath },
                { name: 'kube-proxy-dir', mountPath: KubeProxyDirectory },
              ],
            },
          ],
          volumes: [
            { name: 'kubeconfig', secret: { secretName: refs.secretName } },
            { name: 'kube-proxy-config', configMap: { name: refs.configMapName } },
            { name: 'kube-proxy-dir', hostPath: { path: KubeProxyDirectory, type: 'DirectoryOrCreate' } },
          ],
        },
      },
    },
  } as KubernetesObject;
}

/** The pools kube-proxy runs on, one per pool name and Kubernetes version. */
export function kubeProxyPools(values: ShootValues): Worker[] {
  return values.shoot.spec.provider.workers ?? [];
}

/**
 * The ManagedResources (with their Secrets) of kube-proxy: the central one and one per pool, in the shoot's control
 * plane namespace.
 */
export function renderKubeProxyManagedResources(
  values: ShootValues,
  access: KubeProxyAccess,
): { secret: KubernetesObject; managedResource: KubernetesObject }[] {
  const central = kubeProxyCentralObjects(values, access);
  return [
    renderShootManagedResource(values.namespace, KubeProxyManagedResourceName, central.objects),
    ...kubeProxyPools(values).map((worker) =>
      renderShootManagedResource(values.namespace, kubeProxyPoolName(values, worker, KubeProxyManagedResourceName), [
        kubeProxyDaemonSet(values, worker, central),
      ]),
    ),
  ];
}
