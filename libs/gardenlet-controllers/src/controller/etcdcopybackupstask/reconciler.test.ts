// The EtcdCopyBackupsTask reconciler against the in-memory seed: a new task gets the finalizer and its Job (the Local
// stores' host directories from their Secrets) with observedGeneration; the Job's completion becomes Succeeded; a
// missing store Secret is a lastError naming it; deletion removes the Job first, then the finalizer.
import { describe, expect, it } from 'vitest';
import { FakeCluster } from '../../../test/support/fake-cluster.js';
import { EtcdFinalizer } from '../etcd/reconciler.js';
import { exampleTask } from './testdata.js';
import { EtcdCopyBackupsTaskReconciler } from './reconciler.js';

const namespace = 'shoot--local--local';
const key = { namespace, name: 'local' };
const b64 = (s: string) => Buffer.from(s).toString('base64');

const setup = (withSecrets = true) => {
  const seed = new FakeCluster();
  seed.put(exampleTask() as never);
  if (withSecrets) {
    for (const [name, root] of [
      ['source-etcd-backup', '/srv/source-root'],
      ['etcd-backup', '/srv/target-root'],
    ])
      seed.put({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, data: { hostPath: b64(root!) } });
  }
  const reconciler = new EtcdCopyBackupsTaskReconciler({
    client: seed as never,
    backupRestoreImage: 'etcdbrctl:test',
    now: () => new Date('2026-11-30T00:00:00Z'),
  });
  return { seed, reconciler, task: () => seed.find('EtcdCopyBackupsTask', 'local', namespace) };
};

describe('the EtcdCopyBackupsTask reconciler', () => {
  it('creates the copy Job of a new task with both stores mounted, and records the observed generation', async () => {
    const { seed, reconciler, task } = setup();
    await reconciler.reconcile(key);
    expect(task()?.metadata.finalizers).toEqual([EtcdFinalizer]);
    const job = seed.find('Job', 'local-worker', namespace)!;
    expect(job.spec.template.spec.containers[0].image).toBe('etcdbrctl:test');
    expect(job.spec.template.spec.volumes.map((v: any) => v.hostPath.path)).toEqual([
      '/srv/target-root/target-bucket',
      '/srv/source-root/source-bucket',
    ]);
    expect(task()?.status).toEqual({ observedGeneration: 1 });
    // Reconciled again while the Job runs: no second Job.
    await reconciler.reconcile(key);
    expect(seed.calls.filter((c) => c.startsWith('create'))).toEqual(['create Job local-worker']);
  });

  it('reports Succeeded once the Job completed, and Failed when it failed', async () => {
    const { seed, reconciler, task } = setup();
    await reconciler.reconcile(key);
    const job = seed.find('Job', 'local-worker', namespace)!;
    seed.put({
      ...job,
      status: { conditions: [{ type: 'Complete', status: 'True', reason: 'CompletionsReached', message: '' }] },
    });
    await reconciler.reconcile(key);
    expect(task()?.status.conditions).toMatchObject([{ type: 'Succeeded', status: 'True' }]);
    expect(task()?.status.lastError).toBeUndefined();
    seed.put({
      ...job,
      status: { conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'gave up' }] },
    });
    await reconciler.reconcile(key);
    expect(task()?.status.conditions).toMatchObject([
      { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'gave up' },
    ]);
  });

  it('writes lastError naming a missing store Secret, and clears it once the Job exists', async () => {
    const { seed, reconciler, task } = setup(false);
    await expect(reconciler.reconcile(key)).rejects.toThrow(/reading the source store Secret source-etcd-backup/);
    expect(task()?.status).toMatchObject({ observedGeneration: 1 });
    expect(task()?.status.lastError).toMatch(/reading the source store Secret source-etcd-backup/);
    expect(seed.find('Job', 'local-worker', namespace)).toBeUndefined();
    for (const name of ['source-etcd-backup', 'etcd-backup'])
      seed.put({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, data: {} });
    await reconciler.reconcile(key);
    expect(task()?.status.lastError).toBeUndefined();
    expect(seed.find('Job', 'local-worker', namespace)?.spec.template.spec.volumes[0].hostPath.path).toBe(
      '/etc/gardener/local-backupbuckets/target-bucket',
    );
  });

  it('deletes the Job (foreground) before it releases the task', async () => {
    const { seed, reconciler, task } = setup();
    await reconciler.reconcile(key);
    await seed.delete({ kind: 'EtcdCopyBackupsTask' }, key);
    expect(await reconciler.reconcile(key)).toEqual({ requeueAfter: 1_000 });
    expect(seed.find('Job', 'local-worker', namespace)).toBeUndefined();
    expect(task()).toBeDefined();
    await reconciler.reconcile(key);
    expect(task()).toBeUndefined();
  });
});
