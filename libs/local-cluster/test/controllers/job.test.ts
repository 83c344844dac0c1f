// The Job controller (with the scheduler) against the local API server; the test kubelet ends pods as told.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/test-support';
import { type Job, JobKind, type Pod, PodKind } from '../../src/controllers/shared/kinds.js';
import { template } from './support/fixtures.js';
import { type Harness, startHarness } from './support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness(['job', 'scheduler'], { jobBackoffBaseMs: 100 });
  await h.kubelet.addNode('node-1');
});
afterAll(() => h?.stop());

const key = (name: string) => ({ namespace: 'default', name });
const job = (name: string, spec: Partial<NonNullable<Job['spec']>> = {}): Job => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name, namespace: 'default' },
  spec: { template: template({ app: name }, 'task:v1', { restartPolicy: 'Never' }), ...spec },
});
const condition = (j: Job, type: string) => j.status?.conditions?.find((c) => c.type === type);
const livePods = async (name: string) =>
  (
    await h.api.list(PodKind, { namespace: 'default', labelSelector: `batch.kubernetes.io/job-name=${name}` })
  ).items.filter(
    (p) => !p.metadata?.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed',
  );
const running = (name: string, count: number) =>
  waitFor(`${count} running pods of ${name}`, async () => {
    const pods = await livePods(name);
    return pods.length === count && pods.every((p: Pod) => p.status?.phase === 'Running') ? pods : undefined;
  });

describe('Job controller', () => {
  it('runs parallelism pods until completions succeeded, then completes', async () => {
    const created = await h.api.create(job('batch', { completions: 3, parallelism: 2 }));
    const first = await running('batch', 2);
    for (const p of first) {
      expect(p.metadata?.finalizers).toContain('batch.kubernetes.io/job-tracking');
      expect(p.metadata?.labels).toMatchObject({
        app: 'batch',
        'batch.kubernetes.io/job-name': 'batch',
        'batch.kubernetes.io/controller-uid': created.metadata?.uid,
      });
    }
    const started = await h.eventually(
      '2 active',
      JobKind,
      key('batch'),
      (j) => j.status?.active === 2 && j.status.ready === 2,
    );
    expect(started.status?.startTime).toBeDefined();
    for (const p of first) await h.kubelet.finish('default', p.metadata!.name!, 'Succeeded');
    const [last] = await running('batch', 1);
    await h.kubelet.finish('default', last.metadata!.name!, 'Succeeded');
    const done = await h.eventually(
      'Complete',
      JobKind,
      key('batch'),
      (j) => condition(j, 'Complete')?.status === 'True',
    );
    expect(done.status).toMatchObject({ succeeded: 3, active: 0 });
    expect(done.status?.failed ?? 0).toBe(0);
    expect(done.status?.completionTime).toBeDefined();
    expect(condition(done, 'SuccessCriteriaMet')).toMatchObject({ status: 'True', reason: 'CompletionsReached' });
    expect(condition(done, 'Complete')).toMatchObject({
      reason: 'CompletionsReached',
      message: 'Reached expected number of succeeded pods',
    });
    const pods = (
      await h.api.list(PodKind, { namespace: 'default', labelSelector: 'batch.kubernetes.io/job-name=batch' })
    ).items;
    expect(pods).toHaveLength(3);
    await waitFor('the tracking finalizers to be removed', async () =>
      (
        await h.api.list(PodKind, { namespace: 'default', labelSelector: 'batch.kubernetes.io/job-name=batch' })
      ).items.every((p) => !p.metadata?.finalizers?.length),
    );
  });

  it('replaces failed pods until the backoff limit, then fails', async () => {
    await h.api.create(job('flaky', { backoffLimit: 1 }));
    const [one] = await running('flaky', 1);
    await h.kubelet.finish('default', one.metadata!.name!, 'Failed');
    const [two] = await waitFor('a replacement pod', async () => {
      const pods = await livePods('flaky');
      return pods.length === 1 && pods[0].metadata?.name !== one.metadata?.name && pods[0].status?.phase === 'Running'
        ? pods
        : undefined;
    });
    await h.kubelet.finish('default', two.metadata!.name!, 'Failed');
    const failed = await h.eventually(
      'Failed',
      JobKind,
      key('flaky'),
      (j) => condition(j, 'Failed')?.status === 'True',
    );
    expect(failed.status).toMatchObject({ failed: 2, active: 0 });
    expect(condition(failed, 'FailureTarget')).toMatchObject({ status: 'True', reason: 'BackoffLimitExceeded' });
    expect(condition(failed, 'Failed')).toMatchObject({
      reason: 'BackoffLimitExceeded',
      message: 'Job has reached the specified backoff limit',
    });
    expect(await livePods('flaky')).toEqual([]);
  });

  it('fails a Job that runs past activeDeadlineSeconds and stops its pods', async () => {
    await h.api.create(job('slow', { activeDeadlineSeconds: 1 }));
    // No wait for its pod first: on a loaded machine the 1 s deadline can pass, and the pod be gone, before a poll sees
    // it. `status.failed` below counts the pod the Job started and stopped.
    const failed = await h.eventually(
      'DeadlineExceeded',
      JobKind,
      key('slow'),
      (j) => condition(j, 'Failed')?.status === 'True',
    );
    expect(condition(failed, 'Failed')).toMatchObject({
      reason: 'DeadlineExceeded',
      message: 'Job was active longer than specified deadline',
    });
    expect(failed.status?.failed).toBe(1);
    await waitFor('the pod to be gone', async () => (await livePods('slow')).length === 0);
  });

  it('deletes a finished Job after ttlSecondsAfterFinished', async () => {
    await h.api.create(job('short', { ttlSecondsAfterFinished: 1 }));
    const [p] = await running('short', 1);
    await h.kubelet.finish('default', p.metadata!.name!, 'Succeeded');
    await h.eventually('Complete', JobKind, key('short'), (j) => condition(j, 'Complete')?.status === 'True');
    await waitFor(
      'the Job to be deleted',
      async () => !(await h.api.get(JobKind, key('short')).catch(() => undefined)),
      { timeoutMs: 15_000 },
    );
  });
});
