// The Job an EtcdCopyBackupsTask runs (etcd-druid's etcdcopybackupstask controller), as pure functions: `<task>-worker`
// running the etcd-backup-restore image's `etcdbrctl copy` with druid's flags (target store unprefixed, source store
// `--source-*`, maxBackupAge, maxBackups, waitForFinalSnapshot), restart policy OnFailure, the task's pod labels, owned
// by the task. Local stores only: each bucket's host directory (`<hostPath>/<container>`, `hostPath` of the store's
// Secret) is mounted at `/home/nonroot/<container>` (DirectoryOrCreate, druid's) and named by `STORAGE_CONTAINER` /
// `SOURCE_STORAGE_CONTAINER` as the mount path (the local kubelet maps it to the host directory), which is why no
// `--store-container` flags are rendered. The task's conditions follow the Job's: Complete → Succeeded, Failed → Failed.
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import type { EtcdCondition, EtcdResource, EtcdStoreSpec } from '../etcd/kinds.js';
import { DruidLabels, storageProvider } from '../etcd/objects.js';
import { EtcdCopyBackupsTaskConditions, jobNameOf, type EtcdCopyBackupsTaskResource } from './kinds.js';

/** druid's component label value of the copy Job. */
export const CopyBackupsJobComponent = 'etcd-copy-backups-job';
/** The container's name (druid's). */
export const CopyBackupsContainerName = 'copy-backups';
/** Where the Local stores are mounted (druid's non-root home). */
const Home = '/home/nonroot';

/** druid's storage provider of a store (`local` → `Local`, `aws` → `S3`, ...); throws on an unknown one. */
export function storeProvider(store: EtcdStoreSpec, what: string): string {
  try {
    return storageProvider({ metadata: {}, spec: { backup: { store } } } as unknown as EtcdResource)!;
  } catch {
    throw new Error(`${what}.provider: unsupported storage provider ${JSON.stringify(store.provider ?? '')}`);
  }
}

/** The flags of `etcdbrctl copy` for a task (druid's order: target, source, limits, final snapshot). */
export function copyJobArgs(task: EtcdCopyBackupsTaskResource): string[] {
  const { spec } = task;
  const args = ['copy', '--snapstore-temp-directory=/home/nonroot/data/tmp'];
  const store = (s: EtcdStoreSpec, prefix: string, what: string) => {
    args.push(`--${prefix}storage-provider=${storeProvider(s, what)}`);
    if (s.prefix) args.push(`--${prefix}store-prefix=${s.prefix}`);
  };
  store(spec.targetStore, '', 'spec.targetStore');
  store(spec.sourceStore, 'source-', 'spec.sourceStore');
  if (spec.maxBackupAge !== undefined) args.push(`--max-backup-age=${spec.maxBackupAge}`);
  if (spec.maxBackups !== undefined) args.push(`--max-backups-to-copy=${spec.maxBackups}`);
  if (spec.waitForFinalSnapshot) {
    args.push(`--wait-for-final-snapshot=${spec.waitForFinalSnapshot.enabled}`);
    if (spec.waitForFinalSnapshot.timeout)
      args.push(`--wait-for-final-snapshot-timeout=${spec.waitForFinalSnapshot.timeout}`);
  }
  return args;
}

/** The host directories of the two Local stores' buckets (the `hostPath` of each store Secret). */
export interface CopyJobHostPaths {
  source: string;
  target: string;
}

/** The Job of a task (see the file header); throws naming the field when a store is not Local or has no container. */
export function copyJob(
  task: EtcdCopyBackupsTaskResource,
  image: string,
  hostPaths: CopyJobHostPaths,
): KubernetesObject {
  const name = jobNameOf(task);
  const namespace = task.metadata!.namespace!;
  const stores = [
    { spec: task.spec.targetStore, what: 'spec.targetStore', env: 'STORAGE_CONTAINER', volume: 'host-storage' },
    {
      spec: task.spec.sourceStore,
      what: 'spec.sourceStore',
      env: 'SOURCE_STORAGE_CONTAINER',
      volume: 'source-host-storage',
    },
  ];
  const mounts = stores.map((s) => {
    if (storeProvider(s.spec, s.what) !== 'Local')
      throw new Error(
        `${s.what}.provider of EtcdCopyBackupsTask ${namespace}/${task.metadata?.name}: only Local stores have a local counterpart`,
      );
    if (!s.spec.container)
      throw new Error(`${s.what}.container of EtcdCopyBackupsTask ${namespace}/${task.metadata?.name} is not set`);
    return { ...s, container: s.spec.container };
  });
  const [target, source] = mounts as [(typeof mounts)[0], (typeof mounts)[0]];
  // Both buckets of one name would share a mount path: the source then goes below `source-`.
  const mountPath = (s: typeof target) =>
    s === source && source.container === target.container ? `${Home}/source-${s.container}` : `${Home}/${s.container}`;
  const hostPath = (s: typeof target) => `${s === source ? hostPaths.source : hostPaths.target}/${s.container}`;
  const labels = {
    [DruidLabels.component]: CopyBackupsJobComponent,
    [DruidLabels.partOf]: task.metadata!.name!,
    [DruidLabels.managedBy]: DruidLabels.managedByValue,
    [DruidLabels.name]: name,
  };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name,
      namespace,
      labels,
      ownerReferences: [
        {
          apiVersion: 'druid.gardener.cloud/v1alpha1',
          kind: 'EtcdCopyBackupsTask',
          name: task.metadata!.name!,
          uid: task.metadata!.uid!,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      template: {
        metadata: { labels: { ...labels, ...task.spec.podLabels } },
        spec: {
          restartPolicy: 'OnFailure',
          shareProcessNamespace: true,
          containers: [
            {
              name: CopyBackupsContainerName,
              image,
              imagePullPolicy: 'IfNotPresent',
              args: copyJobArgs(task),
              env: mounts.map((s) => ({ name: s.env, value: mountPath(s) })),
              volumeMounts: mounts.map((s) => ({ name: s.volume, mountPath: mountPath(s) })),
              securityContext: { allowPrivilegeEscalation: false },
            },
          ],
          volumes: mounts.map((s) => ({
            name: s.volume,
            hostPath: { path: hostPath(s), type: 'DirectoryOrCreate' },
          })),
        },
      },
    },
  } as KubernetesObject;
}

/** A Job condition as the Job controller writes it. */
interface JobCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastProbeTime?: string;
  lastTransitionTime?: string;
}

/** The task's conditions from its Job's (druid's): Complete → Succeeded, Failed → Failed, others dropped. */
export function taskConditions(job: KubernetesObject | undefined, now: string): EtcdCondition[] {
  const conditions = (job as { status?: { conditions?: JobCondition[] } } | undefined)?.status?.conditions ?? [];
  const types: Record<string, string> = {
    Complete: EtcdCopyBackupsTaskConditions.succeeded,
    Failed: EtcdCopyBackupsTaskConditions.failed,
  };
  return conditions.flatMap((c) => {
    const type = types[c.type];
    if (!type) return [];
    return [
      {
        type,
        status: c.status,
        lastTransitionTime: c.lastTransitionTime ?? now,
        lastUpdateTime: c.lastProbeTime ?? c.lastTransitionTime ?? now,
        reason: c.reason ?? '',
        message: c.message ?? '',
      },
    ];
  });
}
