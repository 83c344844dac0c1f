// The shoot's gardener-resource-manager in the control plane namespace (Gardener's `pkg/component/gardener/
// resourcemanager` in responsibility mode "target", deployed by the botanist's `DeployGardenerResourceManager`): its
// source is the seed, scoped to the control plane namespace (ManagedResources without a class, the shoot access
// Secrets), its target the shoot's API server through the generic token kubeconfig and its own shoot access token.
// Bootstrapping (Gardener's `shared.DeployGardenerResourceManager`): while its own shoot access has no valid token,
// it runs with a short-lived client certificate of the shoot's client CA (`system:masters`) instead, fills its shoot
// access Secret and applies the ClusterRoleBinding that gives its ServiceAccount access; then it is redeployed with
// the token. Pure renderers and decisions; the shell is `SeedShootSteps`.
import { createHash } from 'node:crypto';
import { Annotations, Labels } from '@gardener-ts/api';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import type { V1ConfigMap, V1Deployment, V1Secret, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { KubeAPIServerName } from './kube-apiserver.js';
import { clusterRoleBindingForServiceAccounts, renderShootManagedResource } from './managed-resource.js';
import {
  GenericKubeconfigDir,
  GenericKubeconfigPath,
  kubeconfigYAML,
  renderShootAccessSecret,
  shootAccessSecretName,
  shootAccessVolume,
} from './shoot-access.js';
import { isWorkerless, type ShootValues } from './values.js';

/** Name of the Deployment, its ServiceAccount (seed and shoot), Role and shoot access. */
export const GardenerResourceManagerName = 'gardener-resource-manager';
/** The ManagedResource with the shoot objects the resource manager needs itself (its ClusterRoleBinding). */
export const ResourceManagerManagedResourceName = 'shoot-core-gardener-resource-manager';
/** The name of the bootstrap client certificate config (Gardener's `shoot-access-gardener-resource-manager-bootstrap`). */
export const ResourceManagerBootstrapName = `${shootAccessSecretName(GardenerResourceManagerName)}-bootstrap`;
/** The image of gardener-ts's resource manager (the local image map runs the built app for it). */
export const DefaultResourceManagerImage = 'gardener-ts/resource-manager:0.1.0';
/** How long the bootstrap client certificate is valid (Gardener: 10 minutes). */
export const BootstrapCertificateValidityMs = 10 * 60_000;
/** The lifetime of the resource manager's own shoot access token (Gardener: 24h). */
export const ResourceManagerTokenExpiration = '24h';
/** The health probe port (`/healthz`, `/readyz`). */
export const ResourceManagerHealthPort = 8081;
/** The metrics port. */
export const ResourceManagerMetricsPort = 8080;
/** The webhook server port (Gardener's resource-manager `ServerPort`). */
export const ResourceManagerServerPort = 10250;
/** The shoot namespaces the target cache covers (Gardener: kube-system, kubernetes-dashboard, kube-node-lease). */
export const ResourceManagerTargetNamespaces = ['kube-system', 'kubernetes-dashboard', 'kube-node-lease'] as const;

const ConfigDir = '/etc/gardener-resource-manager-config';
const ConfigKey = 'config.yaml';
const labels = { app: GardenerResourceManagerName } as const;

/** Options of the resource manager's configuration. */
export interface ResourceManagerConfigOptions {
  /** The seed's cluster identity: the `resources.gardener.cloud/origin` prefix of applied objects. */
  readonly clusterIdentity?: string;
}

/**
 * The `ResourceManagerConfiguration` of the shoot's resource manager (Gardener's values for a target GRM): source
 * namespace the control plane namespace, target the shoot through the generic kubeconfig; ManagedResources of no
 * class, token requestor, kubelet CSR approver and node-critical-components controllers on (the last two only with
 * workers). Its webhooks are off: nothing registers them in the shoot yet.
 */
export function resourceManagerConfig(
  values: ShootValues,
  options: ResourceManagerConfigOptions = {},
): Record<string, unknown> {
  const workers = !isWorkerless(values.shoot);
  return {
    apiVersion: 'resourcemanager.config.gardener.cloud/v1alpha1',
    kind: 'ResourceManagerConfiguration',
    sourceClientConnection: { qps: 100, burst: 130, namespaces: [values.namespace] },
    targetClientConnection: {
      qps: 100,
      burst: 130,
      kubeconfig: GenericKubeconfigPath,
      namespaces: [...ResourceManagerTargetNamespaces],
    },
    leaderElection: {
      leaderElect: true,
      resourceLock: 'leases',
      resourceName: GardenerResourceManagerName,
      resourceNamespace: values.namespace,
    },
    logLevel: 'info',
    logFormat: 'json',
    server: {
      webhooks: { port: ResourceManagerServerPort, tls: { serverCertDir: '/etc/gardener-resource-manager-tls' } },
      healthProbes: { port: ResourceManagerHealthPort },
      metrics: { port: ResourceManagerMetricsPort },
    },
    controllers: {
      clusterID: options.clusterIdentity ?? '',
      garbageCollector: { enabled: true, syncPeriod: '12h' },
      health: { concurrentSyncs: 10, syncPeriod: '1m' },
      managedResource: { concurrentSyncs: 20, syncPeriod: '1h', alwaysUpdate: true },
      tokenRequestor: { enabled: true, concurrentSyncs: 5 },
      csrApprover: { enabled: workers, concurrentSyncs: 5, machineNamespace: values.namespace },
      nodeCriticalComponents: { enabled: workers },
    },
  };
}

/** The configuration as an immutable ConfigMap named by its content (Gardener's `MakeUnique`). */
export function renderResourceManagerConfigMap(values: ShootValues, config: Record<string, unknown>): V1ConfigMap {
  const data = { [ConfigKey]: stringify(config) };
  const suffix = createHash('sha256').update(data[ConfigKey]).digest('hex').slice(0, 8);
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: `${GardenerResourceManagerName}-${suffix}`,
      namespace: values.namespace,
      labels: { ...labels, 'resources.gardener.cloud/garbage-collectable-reference': 'true' },
    },
    immutable: true,
    data,
  };
}

/**
 * The seed objects that let the resource manager read its source: the ServiceAccount, and a Role and RoleBinding in
 * the control plane namespace for ManagedResources, Secrets, its ConfigMap, events, its Lease and Machines.
 */
export function renderResourceManagerRBAC(values: ShootValues): KubernetesObject[] {
  const metadata = { name: GardenerResourceManagerName, namespace: values.namespace, labels };
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata, automountServiceAccountToken: false } as KubernetesObject,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata,
      rules: [
        {
          apiGroups: ['resources.gardener.cloud'],
          resources: ['managedresources', 'managedresources/status'],
          verbs: ['get', 'list', 'watch', 'update', 'patch'],
        },
        { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
        { apiGroups: [''], resources: ['configmaps', 'events'], verbs: ['create'] },
        {
          apiGroups: [''],
          resources: ['configmaps'],
          resourceNames: [GardenerResourceManagerName],
          verbs: ['get', 'watch', 'update', 'patch'],
        },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
        {
          apiGroups: ['coordination.k8s.io'],
          resources: ['leases'],
          resourceNames: [GardenerResourceManagerName],
          verbs: ['get', 'watch', 'update'],
        },
        { apiGroups: ['machine.sapcloud.io'], resources: ['machines'], verbs: ['get', 'list', 'watch'] },
      ],
    } as KubernetesObject,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: GardenerResourceManagerName },
      subjects: [{ kind: 'ServiceAccount', name: GardenerResourceManagerName, namespace: values.namespace }],
    } as KubernetesObject,
  ];
}

/** The resource manager's own shoot access Secret (token lifetime 24h), which its token requestor fills. */
export function renderResourceManagerShootAccessSecret(values: ShootValues): V1Secret {
  return renderShootAccessSecret(values, GardenerResourceManagerName, {
    tokenExpirationDuration: ResourceManagerTokenExpiration,
  });
}

/**
 * The shoot objects the resource manager applies for itself: ClusterRole `cluster-admin` for its ServiceAccount
 * `kube-system/gardener-resource-manager` (Gardener's `gardener.cloud:target:resource-manager`).
 */
export function renderResourceManagerShootResources(values: ShootValues): {
  secret: KubernetesObject;
  managedResource: KubernetesObject;
} {
  return renderShootManagedResource(values.namespace, ResourceManagerManagedResourceName, [
    clusterRoleBindingForServiceAccounts('gardener.cloud:target:resource-manager', 'cluster-admin', [
      GardenerResourceManagerName,
    ]),
  ]);
}

/**
 * The bootstrap kubeconfig Secret: the in-cluster API server address (`https://kube-apiserver`), the cluster CA and a
 * client certificate of the client CA, named by its content.
 */
export function renderResourceManagerBootstrapKubeconfigSecret(
  values: ShootValues,
  credentials: { caPEM: string; certPEM: string; keyPEM: string },
): V1Secret {
  const kubeconfig = kubeconfigYAML(
    values.namespace,
    { server: `https://${KubeAPIServerName}`, caPEM: credentials.caPEM },
    {
      'client-certificate-data': Buffer.from(credentials.certPEM).toString('base64'),
      'client-key-data': Buffer.from(credentials.keyPEM).toString('base64'),
    },
  );
  const suffix = createHash('sha256').update(kubeconfig).digest('hex').slice(0, 8);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `${ResourceManagerBootstrapName}-${suffix}`, namespace: values.namespace, labels },
    type: 'Opaque',
    data: { kubeconfig: Buffer.from(kubeconfig).toString('base64') },
  };
}

/** How the resource manager reaches the shoot: the bootstrap kubeconfig, or the generic token kubeconfig. */
export type ResourceManagerShootAccess =
  { readonly bootstrapKubeconfigSecret: string } | { readonly genericKubeconfigSecret: string };

/** Inputs of {@link renderResourceManagerDeployment}. */
export interface ResourceManagerDeploymentOptions {
  readonly image?: string;
  readonly configMap: string;
  /** The Secret with the cluster CA bundle (`bundle.crt`). */
  readonly clusterCASecret: string;
  readonly access: ResourceManagerShootAccess;
  readonly replicas?: number;
}

/** The resource manager's Deployment (Gardener's `ensureDeployment` for a target GRM). */
export function renderResourceManagerDeployment(
  values: ShootValues,
  options: ResourceManagerDeploymentOptions,
): V1Deployment {
  const volumes: V1Volume[] = [
    {
      name: 'kube-api-access-gardener',
      projected: {
        defaultMode: 0o420,
        sources: [
          { serviceAccountToken: { expirationSeconds: 43_200, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          {
            downwardAPI: {
              items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }],
            },
          },
        ],
      },
    },
    { name: 'config', configMap: { name: options.configMap } },
    { name: 'root-ca', secret: { secretName: options.clusterCASecret, defaultMode: 0o420 } },
  ];
  const mounts: V1VolumeMount[] = [
    { name: 'kube-api-access-gardener', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
    { name: 'config', mountPath: ConfigDir, readOnly: true },
    { name: 'root-ca', mountPath: '/etc/gardener-resource-manager-root-ca', readOnly: true },
  ];
  if ('bootstrapKubeconfigSecret' in options.access) {
    volumes.push({
      name: 'kubeconfig-bootstrap',
      secret: { secretName: options.access.bootstrapKubeconfigSecret, defaultMode: 0o420 },
    });
    mounts.push({ name: 'kubeconfig-bootstrap', mountPath: GenericKubeconfigDir, readOnly: true });
  } else {
    const access = shootAccessVolume(options.access.genericKubeconfigSecret, GardenerResourceManagerName);
    volumes.push(access.volume);
    mounts.push(access.mount);
  }
  const podLabels = {
    ...labels,
    [Labels.GardenRole]: Labels.GardenRoleValue.ControlPlane,
    'projected-token-mount.resources.gardener.cloud/skip': 'true',
    [Labels.NetworkPolicyToDNS]: Labels.NetworkPolicyAllowed,
    'networking.resources.gardener.cloud/to-kube-apiserver-tcp-443': Labels.NetworkPolicyAllowed,
    [Labels.NetworkPolicyToRuntimeAPIServer]: Labels.NetworkPolicyAllowed,
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: GardenerResourceManagerName,
      namespace: values.namespace,
      labels: {
        ...labels,
        [Labels.GardenRole]: Labels.GardenRoleValue.ControlPlane,
        'high-availability-config.resources.gardener.cloud/type': 'server',
      },
    },
    spec: {
      replicas: options.replicas ?? 1,
      revisionHistoryLimit: 2,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels: podLabels },
        spec: {
          priorityClassName: 'gardener-system-400',
          serviceAccountName: GardenerResourceManagerName,
          automountServiceAccountToken: false,
          containers: [
            {
              name: GardenerResourceManagerName,
              image: options.image ?? DefaultResourceManagerImage,
              imagePullPolicy: 'IfNotPresent',
              args: [`--config=${ConfigDir}/${ConfigKey}`],
              ports: [
                { name: 'metrics', containerPort: ResourceManagerMetricsPort, protocol: 'TCP' },
                { name: 'health', containerPort: ResourceManagerHealthPort, protocol: 'TCP' },
              ],
              resources: { requests: { cpu: '5m', memory: '30M' } },
              livenessProbe: {
                httpGet: { path: '/healthz', scheme: 'HTTP', port: ResourceManagerHealthPort },
                initialDelaySeconds: 30,
                failureThreshold: 5,
                periodSeconds: 10,
                successThreshold: 1,
                timeoutSeconds: 5,
              },
              // Every second: the flow waits for this readiness twice (bootstrap and own token), and the local
              // resource manager is ready within a second of its start.
              readinessProbe: {
                httpGet: { path: '/readyz', scheme: 'HTTP', port: ResourceManagerHealthPort },
                periodSeconds: 1,
              },
              securityContext: { allowPrivilegeEscalation: false },
              volumeMounts: mounts,
            },
          ],
          volumes,
        },
      },
    },
  };
}

/** What {@link mustBootstrapResourceManager} looks at. */
export interface ResourceManagerBootstrapState {
  readonly replicas: number;
  /** The resource manager's shoot access Secret, if it exists. */
  readonly shootAccessSecret?: Pick<V1Secret, 'metadata'>;
  /** The `shoot-core-gardener-resource-manager` ManagedResource, if it exists. */
  readonly managedResource?: { status?: { conditions?: { type: string; status: string; message?: string }[] } };
  readonly now: Date;
}

/**
 * Why the resource manager has to be bootstrapped with a client certificate, or undefined when its own token works
 * (Gardener's `mustBootstrapGardenerResourceManager`, pure): its shoot access Secret does not exist, was never filled
 * or its token was not renewed in time, its ManagedResource does not exist, or the shoot refuses its ServiceAccount.
 */
export function mustBootstrapResourceManager(state: ResourceManagerBootstrapState): string | undefined {
  if (state.replicas === 0) return undefined;
  if (!state.shootAccessSecret) return 'its shoot access secret does not exist yet';
  const renew = state.shootAccessSecret.metadata?.annotations?.[Annotations.ServiceAccountTokenRenewTimestamp];
  if (!renew) return 'its shoot access secret has no token yet';
  const renewAt = Date.parse(renew);
  if (Number.isNaN(renewAt)) throw new Error(`could not parse renew timestamp ${JSON.stringify(renew)}`);
  if (state.now.getTime() > renewAt) return 'its shoot access token was not renewed in time';
  if (!state.managedResource) return `ManagedResource ${ResourceManagerManagedResourceName} does not exist yet`;
  const applied = state.managedResource.status?.conditions?.find((c) => c.type === 'ResourcesApplied');
  if (
    applied?.status === 'False' &&
    (applied.message?.includes(
      `forbidden: User "system:serviceaccount:kube-system:${GardenerResourceManagerName}" cannot`,
    ) ||
      applied.message?.includes(': Unauthorized'))
  ) {
    return 'its ServiceAccount lost access to the shoot';
  }
  return undefined;
}

/** Why the bootstrap is not done yet (its shoot access token is not issued or not renewed), or undefined (pure). */
export function resourceManagerNotBootstrapped(
  secret: Pick<V1Secret, 'metadata'> | undefined,
  now: Date,
): string | undefined {
  if (!secret) return 'its shoot access secret does not exist';
  const renew = secret.metadata?.annotations?.[Annotations.ServiceAccountTokenRenewTimestamp];
  if (!renew) return 'its token is not generated yet';
  if (now.getTime() > Date.parse(renew)) return 'its token is not renewed yet';
  return undefined;
}
