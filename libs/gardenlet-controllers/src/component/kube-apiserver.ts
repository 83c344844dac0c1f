// The shoot's kube-apiserver in the seed (Gardener's `pkg/component/kubernetes/apiserver` as the botanist configures
// it): the `kube-apiserver` Service (LoadBalancer, which local mode reaches on 127.0.0.1 and a port), the Deployment
// with Gardener's flags and mounts of the secrets manager's Secrets, the ETCD encryption configuration Secret, the
// admission configuration and the audit policy.
import { createHash } from 'node:crypto';
import { Labels, type Shoot } from '@gardener-ts/api';
import type { V1ConfigMap, V1Deployment, V1Secret, V1Service, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { etcdClientURL } from './etcd.js';
import { controlPlaneImage } from './images.js';
import { SecretNames, secretNameOf, type ShootSecretNames } from './secrets.js';
import { apiServerDomains, kubernetesVersion, shootNetworks, type ShootValues } from './values.js';

/** Name of the kube-apiserver Deployment and Service. */
export const KubeAPIServerName = 'kube-apiserver';
/** The port kube-apiserver serves on (Gardener's `--secure-port`). */
export const KubeAPIServerPort = 443;
/** Labels of kube-apiserver's Pods and its Service's selector. */
export const KubeAPIServerLabels = { app: 'kubernetes', role: 'apiserver' } as const;

/** Gardener's default admission plugins of a shoot kube-apiserver (Kubernetes ≥ 1.27), in order. */
export const DefaultAdmissionPlugins = [
  'Priority',
  'NamespaceLifecycle',
  'LimitRanger',
  'PodSecurity',
  'ServiceAccount',
  'NodeRestriction',
  'DefaultStorageClass',
  'DefaultTolerationSeconds',
  'ResourceQuota',
  'StorageObjectInUseProtection',
  'MutatingAdmissionWebhook',
  'ValidatingAdmissionWebhook',
] as const;

/** Gardener's default resources encrypted at rest. */
export const DefaultEncryptedResources = ['secrets'] as const;

/** An admission plugin of the shoot spec, after merging with the defaults. */
export interface AdmissionPlugin {
  readonly name: string;
  readonly config?: unknown;
  readonly disabled?: boolean;
}

/**
 * The admission plugins of a shoot: the defaults in their order, a plugin of the shoot spec replacing the default of
 * the same name, new ones appended. `enabled` are the names for `--enable-admission-plugins`, `disabled` those for
 * `--disable-admission-plugins`, `configured` the enabled ones with a configuration.
 */
export function admissionPlugins(shoot: Shoot): {
  enabled: string[];
  disabled: string[];
  configured: AdmissionPlugin[];
} {
  const merged: AdmissionPlugin[] = DefaultAdmissionPlugins.map((name) => ({ name }));
  for (const plugin of shoot.spec.kubernetes.kubeAPIServer?.admissionPlugins ?? []) {
    const index = merged.findIndex((p) => p.name === plugin.name);
    if (index >= 0) merged[index] = plugin;
    else merged.push(plugin);
  }
  const enabled = merged.filter((p) => p.disabled !== true);
  return {
    enabled: enabled.map((p) => p.name),
    disabled: merged.filter((p) => p.disabled === true).map((p) => p.name),
    configured: enabled.filter((p) => p.config !== undefined),
  };
}

/** The ETCD encryption key as the secrets manager stores it (data keys `key` and `secret`). */
export interface EncryptionKey {
  readonly key: string;
  readonly secret: string;
}

/** The resources kube-apiserver encrypts: secrets and the shoot's `encryptionConfig.resources`. */
export function encryptedResources(shoot: Shoot): string[] {
  return [
    ...new Set([
      ...DefaultEncryptedResources,
      ...(shoot.spec.kubernetes.kubeAPIServer?.encryptionConfig?.resources ?? []),
    ]),
  ];
}

/**
 * The EncryptionConfiguration of kube-apiserver (`--encryption-provider-config`): the shoot's resources (Gardener's
 * `spec.kubernetes.kubeAPIServer.encryptionConfig.resources` plus secrets) encrypted with AES-CBC, the current key
 * first and an old one kept during a rotation so existing data stays readable; `identity` last to read unencrypted data.
 */
export function encryptionConfiguration(shoot: Shoot, keys: readonly EncryptionKey[]): string {
  const resources = encryptedResources(shoot);
  return stringify({
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'EncryptionConfiguration',
    resources: [
      {
        resources,
        providers: [{ aescbc: { keys: keys.map((k) => ({ name: k.key, secret: k.secret })) } }, { identity: {} }],
      },
    ],
  });
}

/** A checksum suffix of data, so that a changed configuration is a new object and rolls the Deployment. */
function checksumSuffix(data: string): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 8);
}

/** The Secret holding the encryption configuration, named with the checksum of its content. */
export function renderEncryptionConfigurationSecret(values: ShootValues, keys: readonly EncryptionKey[]): V1Secret {
  const config = encryptionConfiguration(values.shoot, keys);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: `kube-apiserver-etcd-encryption-configuration-${checksumSuffix(config)}`,
      namespace: values.namespace,
      labels: { [Labels.GardenRole]: Labels.GardenRoleValue.ControlPlane, ...KubeAPIServerLabels },
    },
    immutable: true,
    type: 'Opaque',
    stringData: { 'encryption-configuration.yaml': config },
  };
}

/** The AdmissionConfiguration of the plugins with a configuration, in a Secret named by its checksum. */
export function renderAdmissionConfigSecret(values: ShootValues): V1Secret {
  const plugins = admissionPlugins(values.shoot).configured.map((p) => ({ name: p.name, configuration: p.config }));
  const config = stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AdmissionConfiguration', plugins });
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: `kube-apiserver-admission-config-${checksumSuffix(config)}`,
      namespace: values.namespace,
      labels: { [Labels.GardenRole]: Labels.GardenRoleValue.ControlPlane, ...KubeAPIServerLabels },
    },
    immutable: true,
    type: 'Opaque',
    stringData: { 'admission-configuration.yaml': config },
  };
}

/** Gardener's default audit policy (log nothing) unless the shoot references its own. */
export const DefaultAuditPolicy = stringify({
  apiVersion: 'audit.k8s.io/v1',
  kind: 'Policy',
  rules: [{ level: 'None' }],
});

/** The audit policy ConfigMap (`audit-policy-config`), with the shoot's policy text when it has one. */
export function renderAuditPolicyConfigMap(values: ShootValues, policy: string = DefaultAuditPolicy): V1ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `audit-policy-config-${checksumSuffix(policy)}`, namespace: values.namespace },
    immutable: true,
    data: { 'audit-policy.yaml': policy },
  };
}

/** The kube-apiserver Service: a LoadBalancer on 443 selecting kube-apiserver's Pods. */
export function renderKubeAPIServerService(values: ShootValues): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: KubeAPIServerName,
      namespace: values.namespace,
      labels: { ...KubeAPIServerLabels },
      annotations: {
        'networking.resources.gardener.cloud/from-all-scrape-targets-allowed-ports': '[{"protocol":"TCP","port":443}]',
      },
    },
    spec: {
      type: 'LoadBalancer',
      selector: { ...KubeAPIServerLabels },
      ports: [{ name: KubeAPIServerName, protocol: 'TCP', port: KubeAPIServerPort, targetPort: KubeAPIServerPort }],
    },
  };
}

/** The objects the kube-apiserver Deployment mounts beside the secrets manager's Secrets. */
export interface KubeAPIServerMounts {
  /** Name of the Secret from {@link renderEncryptionConfigurationSecret}. */
  readonly encryptionConfigSecret: string;
  /** Name of the Secret from {@link renderAdmissionConfigSecret}. */
  readonly admissionConfigSecret: string;
  /** Name of the ConfigMap from {@link renderAuditPolicyConfigMap}. */
  readonly auditPolicyConfigMap: string;
}

/** Options of {@link renderKubeAPIServerDeployment}. */
export interface KubeAPIServerOptions {
  /** The service account issuer; Gardener's default is the API server's URL (internal, else external domain). */
  readonly serviceAccountIssuer?: string;
}

// Volume name, mount path and source of each mount.
type Mount = { name: string; path: string; source: { secret: string } | { configMap: string } };

function mountsOf(secrets: ShootSecretNames, mounts: KubeAPIServerMounts): Mount[] {
  const s = (config: string, kind: 'secret' | 'bundle' = 'secret') => ({ secret: secretNameOf(secrets, config, kind) });
  return [
    { name: 'ca', path: '/srv/kubernetes/ca', source: s(SecretNames.CACluster, 'bundle') },
    { name: 'ca-client', path: '/srv/kubernetes/ca-client', source: s(SecretNames.CAClient, 'bundle') },
    { name: 'ca-etcd', path: '/srv/kubernetes/etcd/ca', source: s(SecretNames.CAETCD, 'bundle') },
    { name: 'ca-front-proxy', path: '/srv/kubernetes/ca-front-proxy', source: s(SecretNames.CAFrontProxy, 'bundle') },
    { name: 'ca-kubelet', path: '/srv/kubernetes/ca-kubelet', source: s(SecretNames.CAKubelet, 'bundle') },
    { name: 'etcd-client', path: '/srv/kubernetes/etcd/client', source: s(SecretNames.ETCDClient) },
    { name: 'server', path: '/srv/kubernetes/apiserver', source: s(SecretNames.KubeAPIServer) },
    { name: 'kubelet-client', path: '/srv/kubernetes/apiserver-kubelet', source: s(SecretNames.KubeAPIServerKubelet) },
    { name: 'kube-aggregator', path: '/srv/kubernetes/aggregator', source: s(SecretNames.KubeAggregator) },
    {
      name: 'service-account-key',
      path: '/srv/kubernetes/service-account-key',
      source: s(SecretNames.ServiceAccountKey),
    },
    {
      name: 'service-account-key-bundle',
      path: '/srv/kubernetes/service-account-key-bundle',
      source: s(SecretNames.ServiceAccountKey, 'bundle'),
    },
    { name: 'static-token', path: '/srv/kubernetes/token', source: s(SecretNames.StaticToken) },
    {
      name: 'etcd-encryption-secret',
      path: '/etc/kubernetes/etcd-encryption-secret',
      source: { secret: mounts.encryptionConfigSecret },
    },
    { name: 'admission-config', path: '/etc/kubernetes/admission', source: { secret: mounts.admissionConfigSecret } },
    { name: 'audit-policy-config', path: '/etc/kubernetes/audit', source: { configMap: mounts.auditPolicyConfigMap } },
  ];
}

/** The service account issuer: the option, else `https://<api domain>` (internal first), else the in-cluster name. */
export function serviceAccountIssuer(values: ShootValues, option?: string): string {
  if (option) return option;
  const domains = apiServerDomains(values);
  const host = domains.external ?? domains.internal;
  return host ? `https://${host}` : `https://${KubeAPIServerName}.${values.namespace}.svc`;
}

/**
 * kube-apiserver's issuers, the one that issues first: the issuer, the Shoot's
 * `serviceAccountConfig.acceptedIssuers`, and the control plane's in-cluster address (the issuer of shoots whose seed
 * had no internal domain, as earlier versions of the local landscape: a seed that gains one does not invalidate the
 * tokens its shoots issued before).
 */
export function serviceAccountIssuers(values: ShootValues, option?: string): string[] {
  const issuer = serviceAccountIssuer(values, option);
  const accepted = values.shoot.spec.kubernetes.kubeAPIServer?.serviceAccountConfig?.acceptedIssuers ?? [];
  return [...new Set([issuer, ...accepted, `https://${KubeAPIServerName}.${values.namespace}.svc`])];
}

/**
 * The audiences the shoot's kube-apiserver accepts ServiceAccount tokens for: the Shoot's `apiAudiences` (default
 * `kubernetes`), always with `gardener`, the audience of the tokens gardener-resource-manager's token requestor issues
 * for the shoot access secrets (Gardener's shared kube-apiserver values).
 */
export function apiAudiences(values: ShootValues): string[] {
  const configured = values.shoot.spec.kubernetes.kubeAPIServer?.apiAudiences;
  const audiences = configured?.length ? [...configured] : ['kubernetes'];
  return audiences.includes('gardener') ? audiences : [...audiences, 'gardener'];
}

/** kube-apiserver's command line flags as Gardener sets them for a shoot. */
export function kubeAPIServerArgs(values: ShootValues, options: KubeAPIServerOptions = {}): string[] {
  const plugins = admissionPlugins(values.shoot);
  const config = values.shoot.spec.kubernetes.kubeAPIServer;
  const domains = apiServerDomains(values);
  const args = [
    `--enable-admission-plugins=${plugins.enabled.join(',')}`,
    ...(plugins.disabled.length ? [`--disable-admission-plugins=${plugins.disabled.join(',')}`] : []),
    '--admission-control-config-file=/etc/kubernetes/admission/admission-configuration.yaml',
    `--anonymous-auth=${config?.enableAnonymousAuthentication === true}`,
    `--api-audiences=${apiAudiences(values).join(',')}`,
    '--audit-policy-file=/etc/kubernetes/audit/audit-policy.yaml',
    '--authorization-mode=Node,RBAC',
    '--client-ca-file=/srv/kubernetes/ca-client/bundle.crt',
    '--enable-aggregator-routing=true',
    '--enable-bootstrap-token-auth=true',
    '--encryption-provider-config=/etc/kubernetes/etcd-encryption-secret/encryption-configuration.yaml',
    '--etcd-cafile=/srv/kubernetes/etcd/ca/bundle.crt',
    '--etcd-certfile=/srv/kubernetes/etcd/client/tls.crt',
    '--etcd-keyfile=/srv/kubernetes/etcd/client/tls.key',
    `--etcd-servers=${etcdClientURL('main')}`,
    `--etcd-servers-overrides=/events#${etcdClientURL('events')}`,
    ...((domains.external ?? domains.internal) ? [`--external-hostname=${domains.external ?? domains.internal}`] : []),
    '--kubelet-certificate-authority=/srv/kubernetes/ca-kubelet/bundle.crt',
    '--kubelet-client-certificate=/srv/kubernetes/apiserver-kubelet/tls.crt',
    '--kubelet-client-key=/srv/kubernetes/apiserver-kubelet/tls.key',
    '--kubelet-preferred-address-types=InternalIP,Hostname,ExternalIP',
    '--livez-grace-period=1m',
    '--profiling=false',
    '--proxy-client-cert-file=/srv/kubernetes/aggregator/tls.crt',
    '--proxy-client-key-file=/srv/kubernetes/aggregator/tls.key',
    '--requestheader-client-ca-file=/srv/kubernetes/ca-front-proxy/bundle.crt',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-username-headers=X-Remote-User',
    `--secure-port=${KubeAPIServerPort}`,
    ...serviceAccountIssuers(values, options.serviceAccountIssuer).map(
      (issuer) => `--service-account-issuer=${issuer}`,
    ),
    '--service-account-key-file=/srv/kubernetes/service-account-key-bundle/bundle.key',
    '--service-account-signing-key-file=/srv/kubernetes/service-account-key/id_rsa',
    `--service-cluster-ip-range=${shootNetworks(values).services}`,
    '--shutdown-delay-duration=15s',
    '--tls-cert-file=/srv/kubernetes/apiserver/tls.crt',
    '--tls-private-key-file=/srv/kubernetes/apiserver/tls.key',
    '--token-auth-file=/srv/kubernetes/token/static_tokens.csv',
    `--v=${config?.logging?.verbosity ?? 2}`,
  ];
  const featureGates = Object.entries(config?.featureGates ?? {});
  if (featureGates.length) args.push(`--feature-gates=${featureGates.map(([k, v]) => `${k}=${v}`).join(',')}`);
  const runtimeConfig = Object.entries(config?.runtimeConfig ?? {});
  if (runtimeConfig.length) args.push(`--runtime-config=${runtimeConfig.map(([k, v]) => `${k}=${v}`).join(',')}`);
  return args;
}

/** The kube-apiserver Deployment: 0 replicas while hibernated, Gardener's flags, the Secrets mounted read-only. */
export function renderKubeAPIServerDeployment(
  values: ShootValues,
  secrets: ShootSecretNames,
  mounts: KubeAPIServerMounts,
  options: KubeAPIServerOptions = {},
): V1Deployment {
  const volumes: V1Volume[] = [];
  const volumeMounts: V1VolumeMount[] = [];
  for (const mount of mountsOf(secrets, mounts)) {
    volumes.push(
      'secret' in mount.source
        ? { name: mount.name, secret: { secretName: mount.source.secret, defaultMode: 0o640 } }
        : { name: mount.name, configMap: { name: mount.source.configMap } },
    );
    volumeMounts.push({ name: mount.name, mountPath: mount.path, readOnly: true });
  }
  const probe = (path: string, initialDelaySeconds: number, periodSeconds: number) => ({
    httpGet: { scheme: 'HTTPS', path, port: KubeAPIServerPort },
    initialDelaySeconds,
    periodSeconds,
    timeoutSeconds: 15,
    failureThreshold: 3,
  });
  const labels = { [Labels.GardenRole]: Labels.GardenRoleValue.ControlPlane, ...KubeAPIServerLabels };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: KubeAPIServerName,
      namespace: values.namespace,
      labels: { ...labels, [Labels.ExtensionProviderMutatedByControlplaneWebhook]: 'true' },
    },
    spec: {
      replicas: values.shoot.spec.hibernation?.enabled === true ? 0 : 1,
      revisionHistoryLimit: 2,
      selector: { matchLabels: { ...KubeAPIServerLabels } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2, maxUnavailable: 0 } },
      template: {
        metadata: {
          labels: {
            ...labels,
            [Labels.NetworkPolicyToDNS]: Labels.NetworkPolicyAllowed,
            [Labels.NetworkPolicyToPrivateNetworks]: Labels.NetworkPolicyAllowed,
            [Labels.NetworkPolicyToPublicNetworks]: Labels.NetworkPolicyAllowed,
          },
        },
        spec: {
          priorityClassName: 'gardener-system-500',
          automountServiceAccountToken: false,
          containers: [
            {
              name: KubeAPIServerName,
              image: controlPlaneImage('kubeAPIServer', kubernetesVersion(values)),
              imagePullPolicy: 'IfNotPresent',
              command: ['/usr/local/bin/kube-apiserver'],
              args: kubeAPIServerArgs(values, options),
              ports: [{ name: 'https', containerPort: KubeAPIServerPort, protocol: 'TCP' }],
              // Liveness as in Gardener (from 15 s, every 10 s). Readiness at once, every second instead of Gardener's
              // 15 s / 10 s: the local API server is ready within a second or two, and every create and wake-up waits
              // for this probe.
              livenessProbe: probe('/livez', 15, 10),
              readinessProbe: probe('/readyz', 0, 1),
              resources: { requests: { cpu: '250m', memory: '500Mi' } },
              volumeMounts,
            },
          ],
          volumes,
        },
      },
    },
  };
}
