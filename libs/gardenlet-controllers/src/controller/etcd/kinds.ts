// etcd-druid's `Etcd` (druid.gardener.cloud/v1alpha1) as the etcd controller reads and writes it: the spec fields it
// turns into a StatefulSet and Services, and druid's status (members, conditions, lastErrors, lastOperation).
import { kind, type KubernetesObject } from '@gardener-ts/controller-runtime';

/** A reference to a Secret; `dataKey` names the key of a CA bundle (druid's default `ca.crt`). */
export interface EtcdSecretReference {
  name: string;
  namespace?: string;
  dataKey?: string;
}

/** druid's TLSConfig: the CA bundle, the server certificate and the client certificate Secrets. */
export interface EtcdTLSConfig {
  tlsCASecretRef: EtcdSecretReference;
  serverTLSSecretRef: EtcdSecretReference;
  clientTLSSecretRef?: EtcdSecretReference;
}

/** druid's EtcdConfig (spec.etcd). */
export interface EtcdConfig {
  quota?: string | number;
  snapshotCount?: number;
  defragmentationSchedule?: string;
  serverPort?: number;
  clientPort?: number;
  wrapperPort?: number;
  image?: string;
  metrics?: 'basic' | 'extensive';
  resources?: Record<string, unknown>;
  clientUrlTls?: EtcdTLSConfig;
  peerUrlTls?: EtcdTLSConfig;
  clientService?: { annotations?: Record<string, string>; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** druid's StoreSpec (spec.backup.store): where snapshots go. */
export interface EtcdStoreSpec {
  secretRef?: { name: string; namespace?: string };
  container?: string;
  provider?: string;
  prefix: string;
  [field: string]: unknown;
}

/** druid's BackupSpec (spec.backup), the fields the controller reads. */
export interface EtcdBackupSpec {
  port?: number;
  tls?: EtcdTLSConfig;
  store?: EtcdStoreSpec;
  fullSnapshotSchedule?: string;
  deltaSnapshotPeriod?: string;
  garbageCollectionPolicy?: 'Exponential' | 'LimitBased';
  maxBackupsLimitBasedGC?: number;
  garbageCollectionPeriod?: string;
  compression?: { enabled?: boolean; policy?: 'gzip' | 'lzw' | 'zlib' };
  etcdSnapshotTimeout?: string;
  resources?: Record<string, unknown>;
  [field: string]: unknown;
}

/** druid's EtcdSpec. */
export interface EtcdSpec {
  selector?: { matchLabels?: Record<string, string> };
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  etcd: EtcdConfig;
  backup: EtcdBackupSpec;
  sharedConfig?: { autoCompactionMode?: 'periodic' | 'revision'; autoCompactionRetention?: string };
  schedulingConstraints?: { affinity?: unknown; topologySpreadConstraints?: unknown[] };
  replicas: number;
  priorityClassName?: string;
  storageClass?: string;
  storageCapacity?: string | number;
  volumeClaimTemplate?: string;
  runAsRoot?: boolean;
  [field: string]: unknown;
}

/** A druid condition (type, status, both times, reason, message). */
export interface EtcdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown' | string;
  lastTransitionTime: string;
  lastUpdateTime: string;
  reason: string;
  message: string;
}

/** One member of the etcd cluster (the Pod of that name). */
export interface EtcdMemberStatus {
  name: string;
  id?: string;
  role?: 'Leader' | 'Member';
  status: 'Ready' | 'NotReady' | 'Unknown';
  reason: string;
  lastTransitionTime: string;
}

/** druid's LastError. */
export interface EtcdLastError {
  code: string;
  description: string;
  observedAt: string;
}

/** druid's LastOperation. */
export interface EtcdLastOperation {
  type: 'Create' | 'Reconcile' | 'Delete';
  state: 'Processing' | 'Succeeded' | 'Error' | 'Requeue';
  description: string;
  runID: string;
  lastUpdateTime: string;
}

/** druid's EtcdStatus. */
export interface EtcdStatus {
  observedGeneration?: number;
  etcd?: { apiVersion?: string; kind?: string; name?: string };
  conditions?: EtcdCondition[];
  lastErrors?: EtcdLastError[];
  lastOperation?: EtcdLastOperation;
  currentReplicas?: number;
  replicas?: number;
  readyReplicas?: number;
  ready?: boolean;
  labelSelector?: { matchLabels?: Record<string, string> };
  members?: EtcdMemberStatus[];
  peerUrlTLSEnabled?: boolean;
  selector?: string;
}

/** An etcd-druid Etcd resource. */
export interface EtcdResource extends KubernetesObject {
  spec: EtcdSpec;
  status?: EtcdStatus;
}

/** The Etcd kind. */
export const EtcdKind = kind<EtcdResource>('druid.gardener.cloud/v1alpha1', 'Etcd');
