// pods/eviction honours the Pod's PodDisruptionBudget (minAvailable or maxUnavailable, numbers or percentages):
// an eviction that would leave too few healthy Pods gets kube's 429, one within budget deletes the Pod.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';

let cluster: TestCluster;
const k = (args: string[], input?: string) => kubectl(cluster.kubeconfigPath, args, { input });

beforeAll(async () => {
  cluster = await startTestCluster();
  await k(['create', 'namespace', 'budget']);
});
afterAll(async () => cluster?.stop());

/** A Pod of app `app` in phase `phase`, Ready when asked. */
async function pod(name: string, app: string, phase = 'Running', ready = true): Promise<void> {
  await k(
    ['create', '-f', '-'],
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'budget', labels: { app } },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    }),
  );
  const status = { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] };
  await k([
    'patch',
    'pod',
    name,
    '-n',
    'budget',
    '--subresource=status',
    '--type=merge',
    '-p',
    JSON.stringify({ status }),
  ]);
}

function evict(name: string) {
  return runKubectl(
    cluster.kubeconfigPath,
    ['create', '--raw', `/api/v1/namespaces/budget/pods/${name}/eviction`, '-f', '-'],
    {
      input: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'budget' } }),
    },
  );
}

const exists = async (name: string) =>
  (await runKubectl(cluster.kubeconfigPath, ['get', 'pod', name, '-n', 'budget'])).code === 0;

describe('pods/eviction with a PodDisruptionBudget', () => {
  it('refuses with 429 when minAvailable would be violated, and evicts once there is room', async () => {
    await k(['create', 'poddisruptionbudget', 'web', '-n', 'budget', '--selector=app=web', '--min-available=2']);
    await pod('web-1', 'web');
    await pod('web-2', 'web');
    const refused = await evict('web-1');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(refused.stderr).toContain('(TooManyRequests)');
    expect(await exists('web-1')).toBe(true);

    await pod('web-3', 'web');
    expect((await evict('web-1')).code).toBe(0);
    expect(await exists('web-1')).toBe(false);
  });

  it('counts only Ready Pods as healthy, and always evicts Pending or finished Pods', async () => {
    await k(['create', 'poddisruptionbudget', 'db', '-n', 'budget', '--selector=app=db', '--max-unavailable=50%']);
    await pod('db-1', 'db');
    await pod('db-2', 'db', 'Running', false);
    await pod('db-3', 'db', 'Pending', false);
    // expected 3, at most 2 (50% rounded up) unavailable → 1 must stay healthy; only db-1 is healthy.
    expect((await evict('db-1')).code).not.toBe(0);
    expect((await evict('db-3')).code).toBe(0);
    await pod('db-4', 'db');
    expect((await evict('db-1')).code).toBe(0);
  });

  it('evicts freely without a matching budget and refuses a Pod covered by two', async () => {
    await pod('free', 'free');
    expect((await evict('free')).code).toBe(0);
    await k(['create', 'poddisruptionbudget', 'a', '-n', 'budget', '--selector=app=both', '--min-available=0']);
    await k(['create', 'poddisruptionbudget', 'b', '-n', 'budget', '--selector=app=both', '--min-available=0']);
    await pod('both', 'both');
    const refused = await evict('both');
    expect(refused.stderr).toContain('more than one PodDisruptionBudget');
  });
});
