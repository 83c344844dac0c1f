// The copy Job of an EtcdCopyBackupsTask: druid's `etcdbrctl copy` flags, both buckets' host directories mounted and
// named by STORAGE_CONTAINER / SOURCE_STORAGE_CONTAINER (read back by our etcdbrctl), the task's pod labels and owner,
// and the task's conditions from the Job's.
import { describe, expect, it } from 'vitest';
import { parseEtcdbrctlArgs } from '../../etcdbr/command.js';
import { copyJob, copyJobArgs, taskConditions } from './job.js';
import { exampleTask } from './testdata.js';

type Container = {
  args: string[];
  env: { name: string; value: string }[];
  volumeMounts: { name: string; mountPath: string }[];
};
const containerOf = (job: any): Container => job.spec.template.spec.containers[0];

describe('the copy Job', () => {
  it("runs druid's `etcdbrctl copy` flags: target, source, limits, the final snapshot wait", () => {
    expect(copyJobArgs(exampleTask((t) => (t.spec.maxBackups = 3)))).toEqual([
      'copy',
      '--snapstore-temp-directory=/home/nonroot/data/tmp',
      '--storage-provider=Local',
      '--store-prefix=shoot--local--local--uid/etcd-main',
      '--source-storage-provider=Local',
      '--source-store-prefix=shoot--local--local--uid/etcd-main',
      '--max-backups-to-copy=3',
      '--wait-for-final-snapshot=true',
      '--wait-for-final-snapshot-timeout=5m0s',
    ]);
  });

  it('mounts both buckets below their host directories, and our etcdbrctl reads the stores from the environment', () => {
    const job = copyJob(exampleTask(), 'etcdbrctl:v1', { source: '/srv/a', target: '/srv/b' }) as any;
    expect(job.metadata).toMatchObject({
      name: 'local-worker',
      namespace: 'shoot--local--local',
      ownerReferences: [{ kind: 'EtcdCopyBackupsTask', name: 'local', uid: 'task-uid', controller: true }],
    });
    expect(job.spec.template.metadata.labels).toMatchObject({
      'app.kubernetes.io/component': 'etcd-copy-backups-job',
      'networking.gardener.cloud/to-dns': 'allowed',
    });
    expect(job.spec.template.spec.restartPolicy).toBe('OnFailure');
    expect(job.spec.template.spec.volumes).toEqual([
      { name: 'host-storage', hostPath: { path: '/srv/b/target-bucket', type: 'DirectoryOrCreate' } },
      { name: 'source-host-storage', hostPath: { path: '/srv/a/source-bucket', type: 'DirectoryOrCreate' } },
    ]);
    const container = containerOf(job);
    const env = Object.fromEntries(container.env.map((e) => [e.name, e.value]));
    expect(env).toEqual({
      STORAGE_CONTAINER: '/home/nonroot/target-bucket',
      SOURCE_STORAGE_CONTAINER: '/home/nonroot/source-bucket',
    });
    expect(container.volumeMounts.map((m) => m.mountPath)).toEqual(Object.values(env));
    expect(parseEtcdbrctlArgs(container.args, env)).toMatchObject({
      command: 'copy',
      storeDirectory: '/home/nonroot/target-bucket/shoot--local--local--uid/etcd-main/v2',
      copy: {
        sourceStoreDirectory: '/home/nonroot/source-bucket/shoot--local--local--uid/etcd-main/v2',
        waitForFinalSnapshot: true,
        waitForFinalSnapshotTimeoutMs: 300_000,
      },
    });
  });

  it('keeps two buckets of one name apart, and refuses stores without a local counterpart', () => {
    const same = copyJob(
      exampleTask((t) => (t.spec.sourceStore.container = 'target-bucket')),
      'i',
      { source: '/srv/a', target: '/srv/b' },
    );
    expect(containerOf(same).volumeMounts.map((m) => m.mountPath)).toEqual([
      '/home/nonroot/target-bucket',
      '/home/nonroot/source-target-bucket',
    ]);
    expect(() =>
      copyJob(
        exampleTask((t) => (t.spec.sourceStore.provider = 'aws')),
        'i',
        { source: '/a', target: '/b' },
      ),
    ).toThrow(/spec.sourceStore.provider of EtcdCopyBackupsTask shoot--local--local\/local: only Local stores/);
    expect(() =>
      copyJob(
        exampleTask((t) => (t.spec.targetStore.provider = 'punchcards')),
        'i',
        { source: '/a', target: '/b' },
      ),
    ).toThrow('spec.targetStore.provider: unsupported storage provider "punchcards"');
  });

  it("takes the Job's Complete and Failed conditions as Succeeded and Failed", () => {
    const job = {
      status: {
        conditions: [
          { type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached' },
          { type: 'Complete', status: 'True', reason: 'CompletionsReached', message: 'done', lastTransitionTime: 't1' },
        ],
      },
    } as never;
    expect(taskConditions(job, 'now')).toEqual([
      {
        type: 'Succeeded',
        status: 'True',
        reason: 'CompletionsReached',
        message: 'done',
        lastTransitionTime: 't1',
        lastUpdateTime: 't1',
      },
    ]);
    expect(
      taskConditions({ status: { conditions: [{ type: 'Failed', status: 'True' }] } } as never, 'now')[0],
    ).toMatchObject({
      type: 'Failed',
      status: 'True',
    });
    expect(taskConditions(undefined, 'now')).toEqual([]);
  });
});
