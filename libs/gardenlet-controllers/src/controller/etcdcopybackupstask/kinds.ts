// etcd-druid's `EtcdCopyBackupsTask` (druid.gardener.cloud/v1alpha1) as the etcdcopybackupstask controller reads and
// writes it: the source and target store, what to copy, and druid's status (conditions Succeeded/Failed,
// observedGeneration, lastError).
import { kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import type { EtcdCondition, EtcdStoreSpec } from '../etcd/kinds.js';

/** druid's WaitForFinalSnapshotSpec. */
export interface WaitForFinalSnapshotSpec {
  enabled: boolean;
  /** A Go duration; none or `0`: wait forever. */
  timeout?: string;
}

/** druid's EtcdCopyBackupsTaskSpec. */
export interface EtcdCopyBackupsTaskSpec {
  podLabels?: Record<string, string>;
  sourceStore: EtcdStoreSpec;
  targetStore: EtcdStoreSpec;
  /** The maximum age in days of a backup to be copied. */
  maxBackupAge?: number;
  /** The maximum number of backups copied, the most recent ones. */
  maxBackups?: number;
  waitForFinalSnapshot?: WaitForFinalSnapshotSpec;
}

/** druid's EtcdCopyBackupsTaskStatus. */
export interface EtcdCopyBackupsTaskStatus {
  conditions?: EtcdCondition[];
  observedGeneration?: number;
  lastError?: string;
}

/** An etcd-druid EtcdCopyBackupsTask resource. */
export interface EtcdCopyBackupsTaskResource extends KubernetesObject {
  spec: EtcdCopyBackupsTaskSpec;
  status?: EtcdCopyBackupsTaskStatus;
}

/** The EtcdCopyBackupsTask kind. */
export const EtcdCopyBackupsTaskKind = kind<EtcdCopyBackupsTaskResource>(
  'druid.gardener.cloud/v1alpha1',
  'EtcdCopyBackupsTask',
);

/** druid's condition types of a task: the Job completed or failed. */
export const EtcdCopyBackupsTaskConditions = { succeeded: 'Succeeded', failed: 'Failed' } as const;

/** The name of a task's Job (druid's `<task>-worker`). */
export const jobNameOf = (task: { metadata?: { name?: string } }) => `${task.metadata?.name}-worker`;
