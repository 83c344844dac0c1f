// The machine controller's view of a shoot against the local API server (playing the shoot): the drain of a deleted
// machine's Node (cordon, Terminating condition, Pods evicted through the Eviction API, DaemonSet and mirror Pods left,
// a PodDisruptionBudget refusing until the drain timeout forces a deletion) and the watch of the shoot's Nodes (a
// Node's change is told at once, its health read from the watch, a dead shoot is unreachable).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeConfig } from '@kubernetes/client-node';
import { ApiClient, ApiError, Kinds, type KubernetesObject, type PodObject } from '@gardener-ts/controller-runtime';
import { startTestCluster, waitFor, type TestCluster } from '@gardener-ts/testing';
import { NodeDrainer, drainShootOf, type DrainRequest } from '../src/machine/controller/machine/drainer.js';
import { ShootNodeWatches } from '../src/machine/controller/machine/node-watch.js';

let cluster: TestCluster;
let shoot: ApiClient;
const ns = 'work';

beforeAll(async () => {
  cluster = await startTestCluster();
  shoot = await ApiClient.create(cluster.kubeconfigPath);
  await shoot.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
}, 30_000);

afterAll(async () => {
  shoot?.close();
  await cluster?.stop();
});

const readyNode = (name: string, ready = 'True') => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  spec: {},
  status: { conditions: [{ type: 'Ready', status: ready, lastTransitionTime: new Date().toISOString() }] },
});

async function createNode(name: string): Promise<void> {
  await shoot.create(readyNode(name) as KubernetesObject);
  await shoot.patch(
    Kinds.Node,
    { name },
    { type: 'merge', patch: { status: readyNode(name).status } },
    { subresource: 'status' },
  );
}

/** An owner of kind `kind` (apps/v1; no controller runs, it never makes Pods), its uid. */
async function createOwner(kind: string, name: string): Promise<string> {
  const selector = { matchLabels: { owner: name } };
  const template = { metadata: { labels: { owner: name } }, spec: { containers: [{ name: 'c', image: 'x' }] } };
  const spec = kind === 'DaemonSet' ? { selector, template } : { replicas: 0, selector, template, serviceName: name };
  const created = await shoot.create({
    apiVersion: 'apps/v1',
    kind,
    metadata: { name, namespace: ns },
    spec,
  } as KubernetesObject);
  return created.metadata!.uid!;
}

/** A running, ready Pod on `node`; `owner` its controller's kind. */
async function createPod(
  name: string,
  node: string,
  over: { owner?: string; app?: string; mirror?: boolean; emptyDir?: boolean } = {},
): Promise<void> {
  const ownerUid = over.owner ? await createOwner(over.owner, `${name}-owner`) : undefined;
  const pod: PodObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: ns,
      labels: { app: over.app ?? name },
      ...(over.mirror ? { annotations: { 'kubernetes.io/config.mirror': 'hash' } } : {}),
      ...(over.owner
        ? {
            ownerReferences: [
              { apiVersion: 'apps/v1', kind: over.owner, name: `${name}-owner`, uid: ownerUid!, controller: true },
            ],
          }
        : {}),
    },
    spec: {
      nodeName: node,
      terminationGracePeriodSeconds: 0,
      containers: [{ name: 'c', image: 'x' }],
      ...(over.emptyDir ? { volumes: [{ name: 'tmp', emptyDir: {} }] } : {}),
    },
  };
  await shoot.create(pod);
  await shoot.patch(
    Kinds.Pod,
    { namespace: ns, name },
    { type: 'merge', patch: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } } },
    { subresource: 'status' },
  );
}

const podNames = async (node: string) =>
  (await shoot.list(Kinds.Pod, { fieldSelector: { 'spec.nodeName': node } })).items
    .map((p) => p.metadata!.name!)
    .sort();

/** Plays the kubelet: Pods being deleted on `node` go. */
async function finishDeletions(node: string): Promise<void> {
  for (const p of (await shoot.list(Kinds.Pod, { fieldSelector: { 'spec.nodeName': node } })).items) {
    if (p.metadata?.deletionTimestamp) {
      await shoot
        .delete(Kinds.Pod, { namespace: ns, name: p.metadata.name! }, { gracePeriodSeconds: 0 })
        .catch(() => undefined);
    }
  }
}

describe('draining the Node of a deleted machine', () => {
  it('cordons, evicts what MCM evicts, and deletes a Pod a PodDisruptionBudget protects once the drain timeout passed', async () => {
    await createNode('n1');
    await createPod('web', 'n1', { owner: 'ReplicaSet' });
    await createPod('cache', 'n1', { owner: 'ReplicaSet', emptyDir: true });
    await createPod('bare', 'n1');
    await createPod('agent', 'n1', { owner: 'DaemonSet' });
    await createPod('static', 'n1', { mirror: true });
    await createPod('db', 'n1', { owner: 'StatefulSet', app: 'db' });
    await shoot.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'db', namespace: ns },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'db' } } },
    } as KubernetesObject);

    const drainer = new NodeDrainer();
    const t0 = Date.now();
    const req = (now: number): DrainRequest => ({
      machine: 'shoot--local--local/m1',
      nodeName: 'n1',
      phase: 'Running',
      deletedAt: t0,
      now,
      drainTimeoutMs: 60_000,
      maxEvictRetries: 10,
    });
    const target = drainShootOf(shoot);

    const first = await drainer.step(target, req(t0));
    expect(first.state).toBe('Draining');
    expect(first.forced).toBeUndefined();
    const node = await shoot.get(Kinds.Node, { name: 'n1' });
    expect(node.spec?.unschedulable).toBe(true);
    expect(node.status?.conditions?.find((c) => c.type === 'Terminating')).toMatchObject({
      status: 'True',
      reason: 'ScaleDown',
    });
    // The kubelet's Ready condition is still there (the Terminating condition was merged in).
    expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    await finishDeletions('n1');
    // Evicted: web, cache (local storage), bare (no controller); left: the DaemonSet and mirror Pods; refused: db.
    expect(await podNames('n1')).toEqual(['agent', 'db', 'static']);

    // The budget keeps refusing; within the retry interval nothing is asked, the drain goes on.
    const second = await drainer.step(target, req(t0 + 5_000));
    expect(second).toMatchObject({ state: 'Draining', message: '1 Pod(s) left on Node n1' });
    expect(second.recheckAfterMs).toBeLessThanOrEqual(15_000);
    const third = await drainer.step(target, req(t0 + 21_000));
    expect(third.state).toBe('Draining');
    expect(await podNames('n1')).toEqual(['agent', 'db', 'static']);

    // Past the drain timeout the drain is forced: the protected Pod is deleted, not waited for.
    const forced = await drainer.step(target, req(t0 + 60_001));
    expect(forced).toMatchObject({ state: 'Done', forced: 'timeout' });
    await finishDeletions('n1');
    expect(await podNames('n1')).toEqual(['agent', 'static']);
  });

  it('deletes a Pod once its evictions are used up, and is done at once for a Node that is not there', async () => {
    await createNode('n2');
    await createPod('guarded', 'n2', { owner: 'ReplicaSet', app: 'guarded' });
    await shoot.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'guarded', namespace: ns },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'guarded' } } },
    } as KubernetesObject);
    const drainer = new NodeDrainer(1000);
    const t0 = Date.now();
    const req = (now: number): DrainRequest => ({
      machine: 'ns/m2',
      nodeName: 'n2',
      phase: 'Failed',
      deletedAt: t0,
      now,
      drainTimeoutMs: 3_600_000,
      maxEvictRetries: 2,
    });
    const target = drainShootOf(shoot);
    expect((await drainer.step(target, req(t0))).state).toBe('Draining'); // refused once
    expect((await drainer.step(target, req(t0 + 1001))).state).toBe('Draining'); // refused twice
    expect(await podNames('n2')).toEqual(['guarded']);
    expect((await drainer.step(target, req(t0 + 2002))).state).toBe('Draining'); // deleted, waited for
    await finishDeletions('n2');
    expect(await podNames('n2')).toEqual([]);
    expect(await drainer.step(target, req(t0 + 3003))).toMatchObject({ state: 'Done', message: 'Node n2 drained' });
    const node = await shoot.get(Kinds.Node, { name: 'n2' });
    expect(node.status?.conditions?.find((c) => c.type === 'Terminating')?.reason).toBe('Unhealthy');

    expect(await drainer.step(target, { ...req(t0), nodeName: 'gone' })).toMatchObject({
      state: 'Done',
      nodeMissing: true,
    });
  });
});

describe("watching a shoot's Nodes", () => {
  const secret = (resourceVersion: string) => ({
    get: async () => ({ metadata: { name: 'gardener', namespace: 'shoot--a', resourceVersion }, data: {} }),
  });

  it('tells every change of a Node at once and reads its health from the watch', async () => {
    const seen: string[] = [];
    let built = 0;
    let version = '1';
    const watches = new ShootNodeWatches(
      { get: async () => secret(version).get() } as never,
      (namespace, node) => seen.push(`${namespace}/${node.metadata?.name}`),
      {
        clientFor: async () => {
          built++;
          return ApiClient.create(cluster.kubeconfigPath);
        },
      },
    );
    try {
      await createNode('w1');
      // Concurrent health checks of one shoot share one watch.
      const first = await Promise.all([1, 2, 3].map(() => watches.readiness('shoot--a', 'w1')));
      expect(first).toEqual([{ state: 'Ready' }, { state: 'Ready' }, { state: 'Ready' }]);
      expect(await watches.readiness('shoot--a', 'missing')).toEqual({ state: 'NotFound' });
      expect(seen).toContain('shoot--a/w1');
      await shoot.patch(
        Kinds.Node,
        { name: 'w1' },
        {
          type: 'merge',
          patch: { status: { conditions: [{ type: 'Ready', status: 'False', reason: 'KubeletNotReady' }] } },
        },
        { subresource: 'status' },
      );
      await waitFor(
        'the NotReady Node to be seen through the watch',
        async () => ((await watches.readiness('shoot--a', 'w1')).state === 'NotReady' ? true : undefined),
        { timeoutMs: 5000, intervalMs: 50 },
      );
      // The machine's own node conditions decide too.
      await shoot.patch(
        Kinds.Node,
        { name: 'w1' },
        {
          type: 'merge',
          patch: {
            status: {
              conditions: [
                { type: 'Ready', status: 'True' },
                { type: 'FrequentKubeletRestart', status: 'True' },
              ],
            },
          },
        },
        { subresource: 'status' },
      );
      await waitFor(
        'the Ready Node to be seen through the watch',
        async () => ((await watches.readiness('shoot--a', 'w1')).state === 'Ready' ? true : undefined),
        { timeoutMs: 5000, intervalMs: 50 },
      );
      expect((await watches.readiness('shoot--a', 'w1', ['FrequentKubeletRestart'])).state).toBe('NotReady');
      expect(built).toBe(1);
      // A new shoot access Secret (a rotated token) restarts the watch with a new client.
      version = '2';
      expect((await watches.readiness('shoot--a', 'w1')).state).toBe('Ready');
      expect(built).toBe(2);
      expect(watches.namespaces).toEqual(['shoot--a']);
    } finally {
      await watches.stopAll();
    }
    expect(watches.namespaces).toEqual([]);
  });

  it('answers Ready without a shoot access Secret, and rejects while the shoot does not answer', async () => {
    const none = new ShootNodeWatches(
      { get: async () => Promise.reject(new ApiError(404, 'NotFound', 'secrets "gardener" not found')) } as never,
      () => undefined,
    );
    expect(await none.readiness('shoot--b', 'x')).toEqual({ state: 'Ready' });
    const dead = new ShootNodeWatches(secret('1') as never, () => undefined, {
      clientFor: async () => {
        const config = new KubeConfig();
        config.loadFromOptions({
          clusters: [{ name: 'c', server: 'https://127.0.0.1:9', skipTLSVerify: true }],
          users: [{ name: 'u', token: 't' }],
          contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
          currentContext: 'x',
        });
        return ApiClient.create(config, { requestTimeoutMs: 2000 });
      },
    });
    try {
      const err = await dead.readiness('shoot--c', 'x').catch((e: unknown) => e);
      expect(String(err)).toContain('ECONNREFUSED');
    } finally {
      await dead.stopAll();
    }
  }, 15_000);
});
