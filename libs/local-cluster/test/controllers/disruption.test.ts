// The disruption controller (with the Deployment and ReplicaSet controllers and the scheduler) against the local
// API server: PodDisruptionBudget status from the selected pods and the scale of their controllers.
import { isConflict, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { waitFor } from '@gardener-ts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Deployment,
  DeploymentKind,
  type PodDisruptionBudget,
  PodDisruptionBudgetKind,
  PodKind,
} from '../../src/controllers/shared/kinds.js';
import { isPodReady } from '../../src/controllers/shared/pods.js';
import { pod, template } from './support/fixtures.js';
import { type Harness, startHarness } from './support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness(['deployment', 'replicaset', 'scheduler', 'disruption']);
  await h.kubelet.addNode('node-1');
});
afterAll(() => h?.stop());

const key = (name: string) => ({ namespace: 'default', name });
const rfc3339 = (ms = Date.now()) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function deployment(name: string, replicas: number): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: template({ app: name }) },
  };
}

function budget(
  name: string,
  app: string,
  spec: Partial<NonNullable<PodDisruptionBudget['spec']>>,
): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: { selector: { matchLabels: { app } }, ...spec },
  };
}

const allowedCondition = (b: PodDisruptionBudget) => b.status?.conditions?.find((c) => c.type === 'DisruptionAllowed');
/** The counts as [expected, desired, healthy, allowed]. */
const counts = (b: PodDisruptionBudget) => [
  b.status?.expectedPods,
  b.status?.desiredHealthy,
  b.status?.currentHealthy,
  b.status?.disruptionsAllowed,
];
const waitBudget = (what: string, name: string, check: (b: PodDisruptionBudget) => boolean) =>
  h.eventually(what, PodDisruptionBudgetKind, key(name), check, 30_000);
const readyPodsOf = async (app: string) =>
  (await h.api.list(PodKind, { namespace: 'default', labelSelector: `app=${app}` })).items.filter(
    (p) => isPodReady(p) && !p.metadata?.deletionTimestamp,
  );

async function scale(name: string, replicas: number): Promise<void> {
  await h.api.patch(DeploymentKind, key(name), { type: 'merge', patch: { spec: { replicas } } });
}

/** Writes status.disruptedPods as the eviction subresource of kube's API server would, retrying on conflicts with the controller. */
async function recordDisruptions(name: string, disruptedPods: Record<string, string>): Promise<void> {
  for (;;) {
    const b = await h.api.get(PodDisruptionBudgetKind, key(name));
    try {
      await h.api.updateStatus({ ...b, status: { ...b.status!, disruptedPods } });
      return;
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }
}

describe('PodDisruptionBudget status', () => {
  it('allows one disruption for 3 ready pods and minAvailable 2, none once a pod is unready or the Deployment shrinks', async () => {
    await h.api.create(deployment('web', 3));
    await waitFor('3 ready web pods', async () => ((await readyPodsOf('web')).length === 3 ? true : undefined), {
      timeoutMs: 30_000,
    });
    await h.api.create(budget('web', 'web', { minAvailable: 2 }));

    let b = await waitBudget(
      'web to allow 1 disruption',
      'web',
      (x) => x.status?.disruptionsAllowed === 1 && allowedCondition(x)?.status === 'True',
    );
    expect(counts(b)).toEqual([3, 2, 3, 1]);
    expect(b.status?.observedGeneration).toBe(b.metadata?.generation);
    expect(allowedCondition(b)).toMatchObject({
      status: 'True',
      reason: 'SufficientPods',
      observedGeneration: b.metadata?.generation,
    });

    const [first] = await readyPodsOf('web');
    await h.kubelet.setReady('default', first.metadata!.name!, false);
    b = await waitBudget('web to allow none with a pod unready', 'web', (x) => x.status?.currentHealthy === 2);
    expect(counts(b)).toEqual([3, 2, 2, 0]);
    expect(allowedCondition(b)).toMatchObject({ status: 'False', reason: 'InsufficientPods' });
    await h.kubelet.setReady('default', first.metadata!.name!, true);
    await waitBudget(
      'web to allow 1 again',
      'web',
      (x) => x.status?.disruptionsAllowed === 1 && allowedCondition(x)?.status === 'True',
    );

    // A new generation of the budget: observed, and minAvailable 3 leaves no room.
    await h.api.patch(PodDisruptionBudgetKind, key('web'), { type: 'merge', patch: { spec: { minAvailable: 3 } } });
    b = await waitBudget('web to observe generation 2', 'web', (x) => x.status?.observedGeneration === 2);
    expect(counts(b)).toEqual([3, 3, 3, 0]);
    expect(allowedCondition(b)).toMatchObject({ status: 'False', reason: 'InsufficientPods', observedGeneration: 2 });

    await h.api.patch(PodDisruptionBudgetKind, key('web'), { type: 'merge', patch: { spec: { minAvailable: 2 } } });
    await waitBudget(
      'web to allow 1 at generation 3',
      'web',
      (x) => x.status?.observedGeneration === 3 && x.status.disruptionsAllowed === 1,
    );
    await scale('web', 2);
    b = await waitBudget(
      'web to follow the scale-down',
      'web',
      (x) => x.status?.expectedPods === 2 && x.status.currentHealthy === 2,
    );
    expect(counts(b)).toEqual([2, 2, 2, 0]);
    expect(allowedCondition(b)).toMatchObject({ status: 'False', reason: 'InsufficientPods' });
  });

  it('takes maxUnavailable and percentages of the Deployment scale, rounding up', async () => {
    await h.api.create(deployment('api', 3));
    await h.api.create(budget('api-max', 'api', { maxUnavailable: '34%' }));
    await h.api.create(budget('api-min', 'api', { minAvailable: '50%' }));
    // 34% of 3 rounds up to 2 unavailable: desired 1; 50% of 3 rounds up to 2.
    let max = await waitBudget('api-max for 3 ready pods', 'api-max', (x) => x.status?.currentHealthy === 3);
    expect(counts(max)).toEqual([3, 1, 3, 2]);
    let min = await waitBudget('api-min for 3 ready pods', 'api-min', (x) => x.status?.currentHealthy === 3);
    expect(counts(min)).toEqual([3, 2, 3, 1]);

    // The expected count is the scale, not the pods there are: right after a scale-up it runs ahead of them.
    await scale('api', 6);
    max = await waitBudget('api-max for 6 ready pods', 'api-max', (x) => x.status?.currentHealthy === 6);
    expect(counts(max)).toEqual([6, 3, 6, 3]);
    min = await waitBudget('api-min for 6 ready pods', 'api-min', (x) => x.status?.currentHealthy === 6);
    expect(counts(min)).toEqual([6, 3, 6, 3]);
  });

  it('fails safe on a pod whose controller is unknown, and leaves unmanaged pods out of the scale', async () => {
    // A controller that exists (the API server collects pods of a missing owner) but has no scale the controller knows.
    const owner = await h.api.create<KubernetesObject>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'stray-owner', namespace: 'default' },
    });
    const stray = pod('stray-1', { app: 'stray' }, { nodeName: 'node-1' });
    stray.metadata!.ownerReferences = [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'stray-owner', uid: owner.metadata!.uid!, controller: true },
    ];
    await h.api.create(stray);
    await h.api.create(pod('stray-2', { app: 'stray' }, { nodeName: 'node-1' }));
    await h.api.create(budget('stray', 'stray', { maxUnavailable: 1 }));
    const failed = await waitBudget('stray to fail safe', 'stray', (x) => allowedCondition(x)?.reason === 'SyncFailed');
    expect(allowedCondition(failed)).toMatchObject({
      status: 'False',
      message: 'found no controllers for pod "stray-1"',
    });
    expect(failed.status?.disruptionsAllowed).toBe(0);

    // Only the unmanaged pod left: it counts as healthy, but the scale it adds is 0, so nothing is allowed.
    await h.api.delete(PodKind, key('stray-1'), { gracePeriodSeconds: 0 });
    const unmanaged = await waitBudget(
      'stray to sync without the unknown controller',
      'stray',
      (x) => allowedCondition(x)?.reason === 'InsufficientPods',
    );
    expect(counts(unmanaged)).toEqual([0, 0, 1, 0]);

    // minAvailable as an integer needs no controller: every selected pod is expected.
    await h.api.create(budget('stray-int', 'stray', { minAvailable: 0 }));
    const int = await waitBudget('stray-int to allow 1', 'stray-int', (x) => x.status?.disruptionsAllowed === 1);
    expect(counts(int)).toEqual([1, 0, 1, 1]);
    expect(allowedCondition(int)).toMatchObject({ status: 'True', reason: 'SufficientPods' });
  });

  it('keeps recorded disruptions out of the healthy count for 2 minutes and drops stale or unknown entries', async () => {
    await h.api.create(deployment('jobs', 3));
    await h.api.create(budget('jobs', 'jobs', { minAvailable: 1 }));
    await waitBudget('jobs to allow 2', 'jobs', (x) => x.status?.disruptionsAllowed === 2);
    const [a, b] = (await readyPodsOf('jobs')).map((p) => p.metadata!.name!);
    const recent = rfc3339(Date.now() - 10_000);
    await recordDisruptions('jobs', { [a]: recent, [b]: rfc3339(Date.now() - 3 * 60_000), 'no-such-pod': recent });
    const status = await waitBudget(
      'jobs to count the recent disruption',
      'jobs',
      (x) => x.status?.currentHealthy === 2 && !x.status.disruptedPods?.['no-such-pod'],
    );
    expect(status.status?.disruptedPods).toEqual({ [a]: recent });
    expect(counts(status)).toEqual([3, 1, 2, 1]);
  });
});
