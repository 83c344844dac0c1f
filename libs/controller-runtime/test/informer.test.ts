import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, type TestCluster } from '@gardener-ts/testing';
import {
  ApiClient,
  CachedClient,
  ConfigMapKind,
  InformerCache,
  SecretKind,
  SharedInformer,
  isNotFound,
  metadataOnly,
  type ConfigMap,
  type KubernetesObject,
} from '../src/index.js';
import { configMap, startClusterWithClient } from './fixtures.js';
import { TcpProxy } from './tcp-proxy.js';

/** Records what an informer's handlers saw: every resourceVersion per object and deletions. */
function recordEvents(informer: SharedInformer<ConfigMap>) {
  const seen = new Map<string, Set<string>>();
  const deleted = new Set<string>();
  const note = (o: KubernetesObject) => {
    const name = o.metadata!.name!;
    if (!seen.has(name)) seen.set(name, new Set());
    seen.get(name)!.add(o.metadata!.resourceVersion!);
  };
  informer.addEventHandler({
    onAdd: note,
    onUpdate: (_old, o) => note(o),
    onDelete: (o) => {
      note(o);
      deleted.add(o.metadata!.name!);
    },
  });
  return { seen, deleted };
}

/** A client that reaches the cluster through a cuttable proxy. */
async function clientThroughProxy(cluster: TestCluster, proxy: TcpProxy): Promise<ApiClient> {
  const text = await readFile(cluster.kubeconfigPath, 'utf8');
  const path = join(cluster.dir, `proxied-${proxy.port}.kubeconfig`);
  await writeFile(path, text.replaceAll(cluster.server.url, `https://127.0.0.1:${proxy.port}`));
  return ApiClient.create(path);
}

describe('InformerCache', () => {
  let cluster: TestCluster;
  let client: ApiClient;
  let cache: InformerCache;
  const abort = new AbortController();

  beforeAll(async () => {
    ({ cluster, client } = await startClusterWithClient());
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    await client.create(configMap('one', { k: 'v' }, { app: 'web' }));
    await client.create(configMap('two', {}, { app: 'db' }));
    await client.create(configMap('three', {}, { app: 'web' }, 'team'));
    cache = new InformerCache(client);
    cache.indexField(ConfigMapKind, 'app', (cm) => (cm.metadata?.labels?.app ? [cm.metadata.labels.app] : []));
    cache.start(abort.signal);
    expect(await cache.waitForSync()).toBe(true);
  });
  afterAll(async () => {
    abort.abort();
    await cache?.stop();
    client?.close();
    await cluster?.stop();
  });

  it('gets and lists from memory by namespace, labels and indexed fields', async () => {
    const one = await cache.get(ConfigMapKind, { namespace: 'default', name: 'one' });
    expect(one.data).toEqual({ k: 'v' });
    const names = async (opts: Parameters<InformerCache['list']>[1]) =>
      (await cache.list(ConfigMapKind, opts)).items
        .map((o) => o.metadata?.name)
        .filter((n) => n !== 'kube-root-ca.crt')
        .sort();
    expect(await names({ namespace: 'team' })).toEqual(['three']);
    expect(await names({ labelSelector: 'app=web' })).toEqual(['one', 'three']);
    expect(await names({ labelSelector: { app: 'web' }, namespace: 'default' })).toEqual(['one']);
    expect(await names({ fieldSelector: { app: 'db' } })).toEqual(['two']);
    expect(await names({ fieldSelector: 'metadata.name=three' })).toEqual(['three']);
    await expect(cache.list(ConfigMapKind, { fieldSelector: 'data.k=v' })).rejects.toThrow(
      /no index for field "data.k"/,
    );
    expect(
      isNotFound(await cache.get(ConfigMapKind, { namespace: 'default', name: 'missing' }).catch((e: unknown) => e)),
    ).toBe(true);
  });

  it('hands out frozen objects: mutating one throws instead of corrupting the cache', async () => {
    const one = await cache.get(ConfigMapKind, { namespace: 'default', name: 'one' });
    expect(() => {
      one.data!.k = 'changed';
    }).toThrow(TypeError);
    const copy = structuredClone(one);
    copy.data!.k = 'changed';
    expect((await cache.get(ConfigMapKind, { namespace: 'default', name: 'one' })).data).toEqual({ k: 'v' });
  });

  it('follows changes made after sync', async () => {
    await client.create(configMap('later', { n: '1' }));
    await client.patch(
      ConfigMapKind,
      { namespace: 'default', name: 'one' },
      { type: 'merge', patch: { data: { k: 'v2' } } },
    );
    await client.delete(ConfigMapKind, { namespace: 'default', name: 'two' });
    await waitFor('the cache to see the changes', async () => {
      const later = await cache.get(ConfigMapKind, { namespace: 'default', name: 'later' }).catch(() => undefined);
      const one = await cache.get(ConfigMapKind, { namespace: 'default', name: 'one' });
      const two = await cache.get(ConfigMapKind, { namespace: 'default', name: 'two' }).catch(() => undefined);
      return later !== undefined && one.data?.k === 'v2' && two === undefined;
    });
  });

  it('reads uncached kinds live through the cached client, and writes through the API', async () => {
    const reader = new CachedClient(cache, client, [SecretKind]);
    await reader.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'live', namespace: 'default' },
      data: { a: Buffer.from('b').toString('base64') },
    });
    // No informer needed and no waiting: the read goes to the server.
    expect((await reader.get(SecretKind, { namespace: 'default', name: 'live' })).data).toEqual({
      a: Buffer.from('b').toString('base64'),
    });
    expect(Object.isFrozen(await reader.get(SecretKind, { namespace: 'default', name: 'live' }))).toBe(false);
    expect(Object.isFrozen(await reader.get(ConfigMapKind, { namespace: 'default', name: 'one' }))).toBe(true);
  });

  it('caches metadata only for metadata-only kinds', async () => {
    const meta = await cache.get(metadataOnly(ConfigMapKind), { namespace: 'default', name: 'one' });
    expect(meta.kind).toBe('PartialObjectMetadata');
    expect(meta.metadata.labels).toEqual({ app: 'web' });
    expect((meta as ConfigMap).data).toBeUndefined();
  });

  it('resyncs: every cached object comes again as an update with the same object', async () => {
    const informer = new SharedInformer(client, ConfigMapKind, { namespace: 'team', resyncPeriodMs: 50 });
    const resynced: string[] = [];
    informer.addEventHandler({ onUpdate: (a, b) => a === b && resynced.push(b.metadata!.name!) });
    informer.start();
    try {
      await waitFor('two resyncs of the namespace', () => resynced.filter((n) => n === 'three').length >= 2);
    } finally {
      await informer.stop();
    }
  });

  it('starts informers created after start and replays cached objects to late handlers', async () => {
    const informer = cache.informerFor(ConfigMapKind);
    const late: string[] = [];
    const remove = informer.addEventHandler({ onAdd: (o) => late.push(o.metadata!.name!) });
    expect(late).toContain('one');
    remove();
    const namespaces = await cache.list({ group: '', version: 'v1', kind: 'Namespace' });
    expect(namespaces.items.map((n) => n.metadata?.name)).toContain('team');
  });
});

describe('SharedInformer across dropped connections', () => {
  let cluster: TestCluster | undefined;
  let proxy: TcpProxy | undefined;
  const clients: ApiClient[] = [];
  const informers: SharedInformer<ConfigMap>[] = [];

  afterEach(async () => {
    await Promise.all(informers.splice(0).map((i) => i.stop()));
    for (const c of clients.splice(0)) c.close();
    await proxy?.close();
    await cluster?.stop();
  });

  async function setup(watchHistory?: number) {
    const started = await startClusterWithClient(watchHistory ? { watchHistory } : {});
    cluster = started.cluster;
    proxy = await TcpProxy.start(cluster.server.port);
    const proxied = await clientThroughProxy(cluster, proxy);
    clients.push(started.client, proxied);
    const informer = new SharedInformer(proxied, ConfigMapKind, { namespace: 'default' });
    informers.push(informer);
    const events = recordEvents(informer);
    informer.start();
    expect(await informer.waitForSync()).toBe(true);
    return { direct: started.client, informer, events };
  }

  it('resumes the watch from its last resourceVersion and sees every change', async () => {
    const { direct, informer, events } = await setup();
    const written = new Map<string, string[]>();
    const record = (o: KubernetesObject) =>
      written.set(o.metadata!.name!, [...(written.get(o.metadata!.name!) ?? []), o.metadata!.resourceVersion!]);
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 5; i++) {
        const name = `cm-${round}-${i}`;
        record(await direct.create(configMap(name, { v: '0' })));
        record(
          await direct.patch(
            ConfigMapKind,
            { namespace: 'default', name },
            { type: 'merge', patch: { data: { v: '1' } } },
          ),
        );
      }
      if (round % 3 === 2) {
        const name = `cm-${round - 1}-0`;
        await direct.delete(ConfigMapKind, { namespace: 'default', name });
        written.set(name, [...written.get(name)!, 'deleted']);
      }
      proxy!.cut();
    }
    await waitFor(
      'the informer to see every write',
      () =>
        [...written].every(([name, rvs]) =>
          rvs.every((rv) => (rv === 'deleted' ? events.deleted.has(name) : events.seen.get(name)?.has(rv))),
        ),
      { timeoutMs: 30_000 },
    );
    expect(proxy!.cuts).toBe(10);
    expect(informer.relists).toBe(0);
    const live = await direct.listAll(ConfigMapKind, { namespace: 'default' });
    expect(
      informer.store
        .list()
        .map((o) => o.metadata?.resourceVersion)
        .sort(),
    ).toEqual(live.map((o) => o.metadata?.resourceVersion).sort());
  }, 60_000);

  it('relists on 410 Gone when the watch history is too short, and reports what changed in between', async () => {
    const { direct, informer, events } = await setup(5);
    await direct.create(configMap('kept', { v: '0' }));
    await direct.create(configMap('doomed'));
    await waitFor('the informer to see both objects', () => informer.store.size >= 2 && events.seen.has('doomed'));
    proxy!.pause();
    for (let i = 0; i < 20; i++) await direct.create(configMap(`offline-${i}`));
    const kept = await direct.patch(
      ConfigMapKind,
      { namespace: 'default', name: 'kept' },
      { type: 'merge', patch: { data: { v: '1' } } },
    );
    await direct.delete(ConfigMapKind, { namespace: 'default', name: 'doomed' });
    proxy!.resume();
    await waitFor(
      'the informer to relist and converge',
      () =>
        informer.relists > 0 && informer.store.get('default/offline-19') !== undefined && events.deleted.has('doomed'),
      { timeoutMs: 30_000 },
    );
    expect(events.seen.get('kept')?.has(kept.metadata!.resourceVersion!)).toBe(true);
    expect(events.seen.has('offline-19')).toBe(true);
    const live = await direct.listAll(ConfigMapKind, { namespace: 'default' });
    expect(
      informer.store
        .list()
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(live.map((o) => o.metadata?.name).sort());
  }, 60_000);
});
