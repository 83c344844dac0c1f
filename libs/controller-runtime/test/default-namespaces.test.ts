// The cache option `defaultNamespaces` (controller-runtime's DefaultNamespaces) against a real API server: namespaced
// kinds are cached only in those namespaces (one list/watch each, merged), cluster-scoped kinds cluster-wide, and reads
// elsewhere fail as controller-runtime's multi-namespace cache fails.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, type TestCluster } from '@gardener-ts/testing';
import {
  ApiClient,
  ConfigMapKind,
  InformerCache,
  Manager,
  NamespaceKind,
  controllerFor,
  kind,
  type Request,
} from '../src/index.js';
import { configMap, useTestCluster } from './fixtures.js';

const env = useTestCluster();
let cluster: TestCluster;
let client: ApiClient;
const managers: Manager[] = [];

beforeAll(async () => {
  ({ cluster, client } = env);
  for (const ns of ['ns-a', 'ns-b', 'ns-c']) {
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await client.create(configMap('before', { v: '1' }, {}, ns));
  }
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.stop()));
});

async function restrictedManager(): Promise<Manager> {
  const mgr = await Manager.create({
    clusters: { main: { kubeConfig: cluster.kubeconfigPath, cache: { defaultNamespaces: ['ns-a', 'ns-b'] } } },
  });
  managers.push(mgr);
  return mgr;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('cache defaultNamespaces', () => {
  it('an informer-backed controller sees ConfigMaps in the default namespaces only, and cluster-scoped kinds everywhere', async () => {
    const mgr = await restrictedManager();
    const configMaps = new Set<string>();
    const namespaces = new Set<string>();
    controllerFor(mgr, 'configmaps')
      .for(ConfigMapKind)
      .complete(async ({ namespace, name }: Request) => {
        configMaps.add(`${namespace}/${name}`);
      });
    controllerFor(mgr, 'namespaces')
      .for(NamespaceKind)
      .complete(async ({ name }: Request) => {
        namespaces.add(name);
      });
    await mgr.start();

    // Existing objects (initial lists of both namespaces) and new ones (watches of both namespaces).
    for (const ns of ['ns-a', 'ns-b', 'ns-c']) await client.create(configMap('after', { v: '1' }, {}, ns));
    await waitFor('ConfigMaps of ns-a and ns-b reconciled', () =>
      ['ns-a/before', 'ns-b/before', 'ns-a/after', 'ns-b/after'].every((k) => configMaps.has(k)),
    );
    // Cluster-scoped: not restricted, so every Namespace is seen, including ns-c and one created now.
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns-late' } });
    await waitFor('Namespaces reconciled', () =>
      ['ns-a', 'ns-b', 'ns-c', 'default', 'kube-system', 'ns-late'].every((n) => namespaces.has(n)),
    );
    await sleep(500);
    expect([...configMaps].filter((k) => !k.startsWith('ns-a/') && !k.startsWith('ns-b/'))).toEqual([]);

    const informer = mgr.cluster().cache.informerFor(ConfigMapKind);
    expect(informer.watchedNamespaces?.sort()).toEqual(['ns-a', 'ns-b']);
    expect(mgr.cluster().cache.informerFor(NamespaceKind).watchedNamespaces).toBeUndefined();

    // Updates and deletes in both namespaces reach the one merged store.
    await client.delete(ConfigMapKind, { namespace: 'ns-b', name: 'after' });
    await waitFor('ns-b/after gone from the cache', () => !informer.store.get('ns-b/after'));
  });

  it("reads: merged lists, and controller-runtime's error for a namespace outside", async () => {
    const mgr = await restrictedManager();
    await mgr.start();
    const { cache, client: cached } = mgr.cluster();

    const all = await cached.list(ConfigMapKind);
    const namespacesListed = new Set(all.items.map((o) => o.metadata!.namespace));
    expect([...namespacesListed].sort()).toEqual(['ns-a', 'ns-b']);
    expect(
      (await cached.list(ConfigMapKind, { namespace: 'ns-a' })).items.every((o) => o.metadata!.namespace === 'ns-a'),
    ).toBe(true);
    expect((await cached.get(ConfigMapKind, { namespace: 'ns-b', name: 'before' })).data).toEqual({ v: '1' });

    await expect(cached.get(ConfigMapKind, { namespace: 'ns-c', name: 'before' })).rejects.toThrow(
      'unable to get: ns-c/before because of unknown namespace for the cache',
    );
    await expect(cache.list(ConfigMapKind, { namespace: 'ns-c' })).rejects.toThrow(
      'unable to list: ns-c because of unknown namespace for the cache',
    );
    // Not NotFound: the cache cannot know.
    await cached
      .get(ConfigMapKind, { namespace: 'ns-c', name: 'before' })
      .catch((err: unknown) => expect((err as { code?: number }).code).toBeUndefined());

    // Cluster-scoped kinds read from the cluster-wide informer.
    expect((await cached.get(NamespaceKind, { name: 'ns-c' })).metadata!.name).toBe('ns-c');
    expect(
      (await cached.get(kind('rbac.authorization.k8s.io/v1', 'ClusterRole'), { name: 'cluster-admin' })).metadata!.name,
    ).toBe('cluster-admin');

    // The live client is not restricted.
    expect((await cached.api.get(ConfigMapKind, { namespace: 'ns-c', name: 'before' })).metadata!.name).toBe('before');
  });

  it('a kind with its own scope ignores defaultNamespaces; a kind unknown to discovery is a clear error', async () => {
    const cache = new InformerCache(client, {
      defaultNamespaces: ['ns-a'],
      scopes: [{ kind: kind('v1', 'Secret'), scope: {} }],
    });
    const abort = new AbortController();
    cache.start(abort.signal);
    try {
      await client.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's', namespace: 'ns-c' },
        stringData: { k: 'v' },
      });
      await waitFor(
        'Secret in ns-c cached',
        async () => !!(await cache.get(kind('v1', 'Secret'), { namespace: 'ns-c', name: 's' }).catch(() => undefined)),
      );
      await expect(cache.get(ConfigMapKind, { namespace: 'ns-b', name: 'before' })).rejects.toThrow(
        /unknown namespace for the cache/,
      );
      await expect(
        cache.get(kind('example.gardener-ts.io/v1', 'Nothing'), { namespace: 'ns-a', name: 'x' }),
      ).rejects.toThrow(
        /cannot tell whether example\.gardener-ts\.io\/v1, Kind=Nothing is namespaced|cannot tell whether .*Nothing.* is namespaced/,
      );
    } finally {
      abort.abort();
      await cache.stop();
    }
  });

  it('a kind scoped to its own namespaces (ByObject.Namespaces) is cached there only, with labels, overriding defaultNamespaces', async () => {
    const SecretKind = kind('v1', 'Secret');
    for (const ns of ['ns-a', 'ns-b', 'ns-c']) {
      await client.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'picked', namespace: ns, labels: { pick: 'yes' } },
        stringData: { k: ns },
      });
      await client.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'unlabelled', namespace: ns },
        stringData: { k: ns },
      });
    }
    const cache = new InformerCache(client, {
      defaultNamespaces: ['ns-a'],
      scopes: [{ kind: SecretKind, scope: { namespaces: ['ns-b', 'ns-c', 'ns-c'], labelSelector: 'pick=yes' } }],
    });
    const abort = new AbortController();
    cache.start(abort.signal);
    try {
      const secrets = await cache.list(SecretKind);
      expect(secrets.items.map((s) => `${s.metadata!.namespace}/${s.metadata!.name}`).sort()).toEqual([
        'ns-b/picked',
        'ns-c/picked',
      ]);
      expect(cache.informerFor(SecretKind).watchedNamespaces?.sort()).toEqual(['ns-b', 'ns-c']);
      await expect(cache.get(SecretKind, { namespace: 'ns-a', name: 'picked' })).rejects.toThrow(
        'unable to get: ns-a/picked because of unknown namespace for the cache',
      );
      await expect(cache.list(SecretKind, { namespace: 'ns-a' })).rejects.toThrow(
        'unable to list: ns-a because of unknown namespace for the cache',
      );
      // Other kinds still follow defaultNamespaces.
      await expect(cache.get(ConfigMapKind, { namespace: 'ns-b', name: 'before' })).rejects.toThrow(
        /unknown namespace for the cache/,
      );
    } finally {
      abort.abort();
      await cache.stop();
    }
  });

  it('without defaultNamespaces every namespace is cached', async () => {
    const cache = new InformerCache(client, { defaultNamespaces: [] });
    const abort = new AbortController();
    cache.start(abort.signal);
    try {
      expect((await cache.get(ConfigMapKind, { namespace: 'ns-c', name: 'before' })).metadata!.name).toBe('before');
    } finally {
      abort.abort();
      await cache.stop();
    }
  });
});
