// An EtcdCopyBackupsTask as Gardener's botanist writes it (Local stores, the final snapshot awaited), for the tests.
import type { EtcdCopyBackupsTaskResource } from './kinds.js';

/** The task of shoot `local`, changed by `mutate`. */
export const exampleTask = (mutate?: (t: EtcdCopyBackupsTaskResource) => void): EtcdCopyBackupsTaskResource => {
  const task: EtcdCopyBackupsTaskResource = {
    apiVersion: 'druid.gardener.cloud/v1alpha1',
    kind: 'EtcdCopyBackupsTask',
    metadata: { name: 'local', namespace: 'shoot--local--local', uid: 'task-uid', generation: 1 },
    spec: {
      podLabels: { 'networking.gardener.cloud/to-dns': 'allowed' },
      sourceStore: {
        provider: 'local',
        container: 'source-bucket',
        prefix: 'shoot--local--local--uid/etcd-main',
        secretRef: { name: 'source-etcd-backup' },
      },
      targetStore: {
        provider: 'local',
        container: 'target-bucket',
        prefix: 'shoot--local--local--uid/etcd-main',
        secretRef: { name: 'etcd-backup' },
      },
      waitForFinalSnapshot: { enabled: true, timeout: '5m0s' },
    },
  };
  mutate?.(task);
  return task;
};
