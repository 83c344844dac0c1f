import { Writable } from 'node:stream';
import { Registry } from 'prom-client';
import { createLogger } from '@gardener-ts/logging';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, type TestCluster } from '@gardener-ts/testing';
import {
  ApiClient,
  Checks,
  ConfigMapKind,
  Manager,
  controllerFor,
  generationChanged,
  isNotFound,
  labelSelectorPredicate,
  type ConfigMap,
  type Request,
} from '../src/index.js';
import {
  WidgetKind,
  configMap,
  installWidgetCRD,
  startClusterWithClient,
  useTestCluster,
  type Widget,
} from './fixtures.js';

const env = useTestCluster();
let cluster: TestCluster;
let client: ApiClient;
const managers: Manager[] = [];

beforeAll(async () => {
  ({ cluster, client } = env);
  await installWidgetCRD(client);
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.stop()));
});

async function newManager(options: Partial<Parameters<typeof Manager.create>[0]> = {}): Promise<Manager> {
  const mgr = await Manager.create({ clusters: { main: cluster.kubeconfigPath }, ...options });
  managers.push(mgr);
  return mgr;
}

async function createNamespace(name: string): Promise<string> {
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  return name;
}

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

describe('controllers', () => {
  it('reconciles 1,000 ConfigMaps until the cluster converges, never one key in two workers', async () => {
    const ns = await createNamespace('bulk');
    const names = Array.from({ length: 1000 }, (_, i) => `cm-${i}`);
    await inBatches(names, 25, (name) => client.create(configMap(name, { v: name }, { bulk: 'yes' }, ns)));

    const registry = new Registry();
    const mgr = await newManager({ metrics: registry });
    const inFlight = new Set<string>();
    let overlaps = 0;
    let reconciles = 0;
    controllerFor(mgr, 'annotate')
      .for(ConfigMapKind, { predicates: [labelSelectorPredicate({ matchLabels: { bulk: 'yes' } })] })
      .withOptions({ maxConcurrentReconciles: 8 })
      .complete(async ({ namespace, name }) => {
        const key = `${namespace}/${name}`;
        if (inFlight.has(key)) overlaps++;
        inFlight.add(key);
        try {
          reconciles++;
          const cm = await mgr.cluster().client.get(ConfigMapKind, { namespace, name });
          if (cm.metadata?.annotations?.reconciled === cm.data?.v) return;
          await mgr
            .cluster()
            .client.patch(
              ConfigMapKind,
              { namespace, name },
              { type: 'merge', patch: { metadata: { annotations: { reconciled: cm.data?.v ?? '' } } } },
            );
        } finally {
          inFlight.delete(key);
        }
      });
    await mgr.start();

    await waitFor(
      'every ConfigMap to carry its annotation',
      async () => {
        const list = await client.listAll(ConfigMapKind, { namespace: ns, labelSelector: 'bulk=yes' });
        return list.length === 1000 && list.every((cm) => cm.metadata?.annotations?.reconciled === cm.data?.v);
      },
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    expect(overlaps).toBe(0);
    expect(reconciles).toBeGreaterThanOrEqual(1000);
    const metrics = await registry.metrics();
    expect(metrics).toMatch(/controller_runtime_reconcile_total\{controller="annotate",result="success"\} \d{4}/);
    expect(metrics).toContain('controller_runtime_active_workers{controller="annotate"}');
    expect(metrics).toContain('workqueue_adds_total{controller="annotate",name="annotate"}');
  }, 180_000);

  it('reconciles the owner when an owned object changes or disappears', async () => {
    const ns = await createNamespace('owners');
    const mgr = await newManager();
    const reconciled: string[] = [];
    controllerFor(mgr, 'widget-config')
      .for(WidgetKind)
      .owns(ConfigMapKind)
      .complete(async ({ namespace, name }) => {
        reconciled.push(name);
        const c = mgr.cluster().client;
        const widget = await c
          .get(WidgetKind, { namespace, name })
          .catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)));
        if (!widget) return;
        const want = String(widget.spec?.size ?? 0);
        const existing = await c
          .get(ConfigMapKind, { namespace, name: `${name}-config` })
          .catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)));
        if (!existing) {
          await c.create<ConfigMap>({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: {
              name: `${name}-config`,
              namespace,
              ownerReferences: [
                {
                  apiVersion: 'example.gardener-ts.io/v1',
                  kind: 'Widget',
                  name,
                  uid: widget.metadata!.uid!,
                  controller: true,
                },
              ],
            },
            data: { size: want },
          });
        } else if (existing.data?.size !== want) {
          await c.update({ ...structuredClone(existing), data: { size: want } });
        }
      });
    await mgr.start();
    await client.create<Widget>({
      apiVersion: 'example.gardener-ts.io/v1',
      kind: 'Widget',
      metadata: { name: 'w1', namespace: ns },
      spec: { size: 3 },
    });
    const cmKey = { namespace: ns, name: 'w1-config' };
    await waitFor('the owned ConfigMap', () =>
      client
        .get(ConfigMapKind, cmKey)
        .then((cm) => cm.data?.size === '3')
        .catch(() => false),
    );

    // Someone changes the owned object: the owner's reconcile puts it back.
    const before = reconciled.length;
    await client.patch(ConfigMapKind, cmKey, { type: 'merge', patch: { data: { size: 'tampered' } } });
    await waitFor('the owner to repair its ConfigMap', () =>
      client.get(ConfigMapKind, cmKey).then((cm) => cm.data?.size === '3'),
    );
    expect(reconciled.length).toBeGreaterThan(before);

    // Deleting it makes the owner recreate it.
    await client.delete(ConfigMapKind, cmKey);
    await waitFor('the owner to recreate its ConfigMap', () =>
      client
        .get(ConfigMapKind, cmKey)
        .then((cm) => cm.data?.size === '3')
        .catch(() => false),
    );
    expect(reconciled.every((n) => n === 'w1')).toBe(true);
  });

  it('drops events its predicates filter out', async () => {
    const ns = await createNamespace('predicates');
    for (const name of ['a', 'b']) {
      await client.create<Widget>({
        apiVersion: 'example.gardener-ts.io/v1',
        kind: 'Widget',
        metadata: { name, namespace: ns },
        spec: { size: 1 },
      });
    }
    const mgr = await newManager();
    const seen: Request[] = [];
    controllerFor(mgr, 'generation')
      .for(WidgetKind, { predicates: [generationChanged] })
      .withOptions({ maxConcurrentReconciles: 1 })
      // A reconciler may also be an object with a reconcile method.
      .complete({ reconcile: async (req) => void seen.push(req) });
    await mgr.start();
    await waitFor('the initial reconciles', () => seen.filter((r) => r.namespace === ns).length === 2);

    // A status write keeps the generation: filtered. A spec write, after it on the same watch, passes.
    const a = await client.get(WidgetKind, { namespace: ns, name: 'a' });
    await client.updateStatus({ ...a, status: { observed: 1 } });
    await client.patch(WidgetKind, { namespace: ns, name: 'b' }, { type: 'merge', patch: { spec: { size: 2 } } });
    await waitFor('the spec change of b to be reconciled', () => seen.filter((r) => r.name === 'b').length === 2);
    expect(seen.filter((r) => r.name === 'a')).toHaveLength(1);
  });

  it('retries failing reconciles with growing back-off and honours requeueAfter', async () => {
    const ns = await createNamespace('retries');
    await client.create(configMap('flaky', {}, {}, ns));
    await client.create(configMap('periodic', {}, {}, ns));
    const registry = new Registry();
    const lines: Record<string, unknown>[] = [];
    const log = createLogger({
      name: 'test',
      level: 'error',
      destination: new Writable({ write: (chunk, _e, cb) => cb(void lines.push(JSON.parse(String(chunk)))) }),
    });
    const mgr = await newManager({ metrics: registry, log });
    const attempts: Record<string, number[]> = { flaky: [], periodic: [] };
    controllerFor(mgr, 'retry')
      .for(ConfigMapKind, { predicates: [labelSelectorPredicate('!ignored')] })
      .withOptions({ maxConcurrentReconciles: 2 })
      .complete(async ({ namespace, name }) => {
        if (namespace !== ns || !(name in attempts)) return;
        attempts[name].push(performance.now());
        if (name === 'flaky' && attempts.flaky.length <= 4)
          throw new Error(`transient failure ${attempts.flaky.length}`);
        if (name === 'periodic' && attempts.periodic.length < 3) return { requeueAfter: 300 };
      });
    await mgr.start();
    await waitFor(
      'flaky to succeed and periodic to run three times',
      () => attempts.flaky.length === 5 && attempts.periodic.length === 3,
      { timeoutMs: 20_000 },
    );

    const gaps = (ts: number[]) => ts.slice(1).map((t, i) => t - ts[i]);
    // Back-off 5, 10, 20, 40 ms: each gap at least its delay (timers never fire early).
    gaps(attempts.flaky).forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(5 * 2 ** i - 1));
    gaps(attempts.periodic).forEach((gap) => expect(gap).toBeGreaterThanOrEqual(299));
    expect(lines.filter((l) => l.msg === 'Reconciler error')).toHaveLength(4);
    expect(lines.find((l) => l.msg === 'Reconciler error')).toMatchObject({
      controller: 'retry',
      kind: 'ConfigMap',
      namespace: ns,
      name: 'flaky',
      err: { message: 'transient failure 1' },
    });
    const metrics = await registry.metrics();
    expect(metrics).toContain('controller_runtime_reconcile_errors_total{controller="retry"} 4');
    expect(metrics).toContain('controller_runtime_reconcile_total{controller="retry",result="requeue_after"} 2');
    expect(metrics).toContain('workqueue_retries_total{controller="retry",name="retry"} 4');
  });
});

describe('manager', () => {
  it('is ready once caches sync, and stops only after the reconcile in progress finishes', async () => {
    const ns = await createNamespace('shutdown');
    await client.create(configMap('slow', {}, {}, ns));
    const ready = new Checks();
    const mgr = await newManager({ ready });
    expect((await ready.run()).results['cache-sync']).toBe(false);
    let release!: () => void;
    const blocked = new Promise<void>((r) => (release = r));
    let started = false;
    let finished = false;
    controllerFor(mgr, 'slow')
      .for(ConfigMapKind)
      .complete(async ({ namespace, name }) => {
        if (namespace !== ns || name !== 'slow') return;
        started = true;
        await blocked;
        finished = true;
      });
    await mgr.start();
    expect((await ready.run()).results['cache-sync']).toBe(true);
    await waitFor('the slow reconcile to start', () => started);

    let stopped = false;
    const stopping = mgr.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(true);
  });

  it('starts controllers that need leadership only once elected', async () => {
    let elect!: () => void;
    const elected = new Promise<void>((r) => (elect = r));
    const mgr = await newManager({ leaderElection: () => elected });
    const leaderOnly: string[] = [];
    const always: string[] = [];
    controllerFor(mgr, 'leader-only')
      .for(ConfigMapKind)
      .complete(async (r) => void leaderOnly.push(r.name));
    controllerFor(mgr, 'always')
      .for(ConfigMapKind)
      .withOptions({ needLeaderElection: false })
      .complete(async (r) => void always.push(r.name));
    await mgr.start();
    await waitFor('the non-leader controller to reconcile', () => always.length > 0);
    expect(leaderOnly).toHaveLength(0);
    elect();
    await waitFor('the leader-only controller to reconcile once elected', () => leaderOnly.length > 0);
  });

  it('holds several named clusters and watches across them', async () => {
    const other = await startClusterWithClient();
    try {
      const mgr = await newManager({
        clusters: { garden: cluster.kubeconfigPath, seed: other.cluster.kubeconfigPath },
      });
      expect(mgr.clusterNames).toEqual(['garden', 'seed']);
      expect(() => mgr.cluster('shoot')).toThrow(/no cluster named "shoot"/);
      const mapped: string[] = [];
      controllerFor(mgr, 'cross')
        .for(ConfigMapKind)
        .watches(ConfigMapKind, (cm) => [{ namespace: 'default', name: `from-seed-${cm.metadata!.name}` }], {
          cluster: 'seed',
        })
        .complete(async (r) => void mapped.push(r.name));
      await mgr.start();
      await other.client.create(configMap('only-in-seed'));
      await waitFor('a seed event to enqueue a garden request', () => mapped.includes('from-seed-only-in-seed'));
    } finally {
      other.client.close();
      await Promise.all(managers.splice(0).map((m) => m.stop()));
      await other.cluster.stop();
    }
  });
});
