// The shoot's etcds as etcd-druid `Etcd` resources (druid.gardener.cloud/v1alpha1), as Gardener's etcd component
// renders them: `etcd-main` (class important: extensive metrics, safe-to-evict=false, volume `main-etcd`) and
// `etcd-events`, each with client TLS from the etcd CA bundle and the server/client certificates of the secrets
// manager, the backup sidecar's TLS, compaction and defragmentation settings. etcd-druid reconciles them into
// StatefulSets; the substrate maps their images to the etcd binary.
import { Annotations, Labels, Operations } from '@gardener-ts/api';
import type { KubernetesObject } from '@kubernetes/client-node';
import { SecretNames, secretNameOf, type ShootSecretNames } from './secrets.js';
import type { ShootValues } from './values.js';

/** The two etcd roles of a shoot. */
export type EtcdRole = 'main' | 'events';

/** etcd's client port. */
export const EtcdClientPort = 2379;
/** etcd's peer port. */
export const EtcdPeerPort = 2380;
/** The backup-restore sidecar's port. */
export const EtcdBackupRestorePort = 8080;
/** The `app` label of etcd's Pods. */
export const EtcdAppLabelValue = 'etcd-statefulset';

/** An etcd-druid Etcd resource (only the fields Gardener sets). */
export interface Etcd extends KubernetesObject {
  apiVersion: 'druid.gardener.cloud/v1alpha1';
  kind: 'Etcd';
  spec: Record<string, unknown> & { replicas: number };
}

/** Options of {@link renderEtcd}. */
export interface EtcdOptions {
  /** Time of the reconcile request (`gardener.cloud/timestamp`), RFC 3339. */
  readonly now: string;
  /** Storage capacity of the volume; Gardener's default is 10Gi. */
  readonly storageCapacity?: string;
  /** Backup configuration, when the seed has backup: the BackupEntry's secret and bucket. */
  readonly backup?: {
    readonly provider: string;
    readonly secretRefName: string;
    readonly container: string;
    readonly prefix: string;
  };
  /** Defragmentation schedule (cron); Gardener derives it from the maintenance window. */
  readonly defragmentationSchedule?: string;
}

/** The name of the Etcd resource of a role (`etcd-main`, `etcd-events`). */
export function etcdName(role: EtcdRole): string {
  return `etcd-${role}`;
}

/** The in-cluster URL of an etcd's client Service (`https://etcd-main-client:2379`). */
export function etcdClientURL(role: EtcdRole): string {
  return `https://${etcdName(role)}-client:${EtcdClientPort}`;
}

/** The replicas of an etcd: 0 while the shoot is hibernated, 3 for a highly available control plane, else 1. */
export function etcdReplicas(values: ShootValues): number {
  if (values.shoot.spec.hibernation?.enabled === true) return 0;
  return values.shoot.spec.controlPlane?.highAvailability ? 3 : 1;
}

/** The Etcd resource of a role, as Gardener's etcd component writes it. */
export function renderEtcd(values: ShootValues, role: EtcdRole, secrets: ShootSecretNames, options: EtcdOptions): Etcd {
  const name = etcdName(role);
  const important = role === 'main';
  const roleLabels = { [Labels.GardenRole]: Labels.GardenRoleValue.ControlPlane, role };
  const caRef = {
    name: secretNameOf(secrets, SecretNames.CAETCD, 'bundle'),
    namespace: values.namespace,
    dataKey: 'bundle.crt',
  };
  const serverRef = {
    name: secretNameOf(secrets, role === 'main' ? SecretNames.ETCDServerMain : SecretNames.ETCDServerEvents),
    namespace: values.namespace,
  };
  const clientRef = { name: secretNameOf(secrets, SecretNames.ETCDClient), namespace: values.namespace };
  const tls = { tlsCASecretRef: caRef, serverTLSSecretRef: serverRef, clientTLSSecretRef: clientRef };
  const backup: Record<string, unknown> = {
    port: EtcdBackupRestorePort,
    tls,
    garbageCollectionPolicy: 'Exponential',
    garbageCollectionPeriod: '12h0m0s',
    compression: { enabled: true, policy: 'gzip' },
    resources: { requests: { cpu: '23m', memory: '128Mi' } },
  };
  if (options.backup) {
    backup.store = {
      secretRef: { name: options.backup.secretRefName },
      container: options.backup.container,
      provider: options.backup.provider,
      prefix: `${options.backup.prefix}/etcd-${role}`,
    };
    backup.fullSnapshotSchedule = '0 */24 * * *';
    backup.deltaSnapshotPeriod = '5m0s';
    backup.deltaSnapshotMemoryLimit = '100Mi';
  }
  return {
    apiVersion: 'druid.gardener.cloud/v1alpha1',
    kind: 'Etcd',
    metadata: {
      name,
      namespace: values.namespace,
      labels: { role, [Labels.GardenRole]: Labels.GardenRoleValue.ControlPlane },
      annotations: {
        [Annotations.GardenerOperation]: Operations.OperationReconcile,
        [Annotations.GardenerTimestamp]: options.now,
      },
    },
    spec: {
      replicas: etcdReplicas(values),
      priorityClassName: 'gardener-system-500',
      ...(important ? { annotations: { 'cluster-autoscaler.kubernetes.io/safe-to-evict': 'false' } } : {}),
      labels: {
        ...roleLabels,
        app: EtcdAppLabelValue,
        [Labels.NetworkPolicyToDNS]: Labels.NetworkPolicyAllowed,
        [Labels.NetworkPolicyToPublicNetworks]: Labels.NetworkPolicyAllowed,
        [Labels.NetworkPolicyToPrivateNetworks]: Labels.NetworkPolicyAllowed,
        [Labels.NetworkPolicyToRuntimeAPIServer]: Labels.NetworkPolicyAllowed,
      },
      selector: { matchLabels: { ...roleLabels, app: EtcdAppLabelValue } },
      etcd: {
        clientUrlTls: tls,
        serverPort: EtcdPeerPort,
        clientPort: EtcdClientPort,
        metrics: important ? 'extensive' : 'basic',
        quota: '8Gi',
        resources: { requests: { cpu: '300m', memory: '1G' } },
        ...(options.defragmentationSchedule ? { defragmentationSchedule: options.defragmentationSchedule } : {}),
      },
      backup,
      sharedConfig: { autoCompactionMode: 'periodic', autoCompactionRetention: '30m' },
      storageCapacity: options.storageCapacity ?? '10Gi',
      volumeClaimTemplate: important ? `${role}-etcd` : name,
    },
  };
}
