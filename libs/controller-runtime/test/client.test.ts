import { beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  ApiError,
  ConfigMapKind,
  NamespaceKind,
  NoKindMatchError,
  ignoreNotFound,
  isAlreadyExists,
  isConflict,
  isNotFound,
  kind,
  type ConfigMap,
} from '../src/index.js';
import { WidgetKind, configMap, installWidgetCRD, useTestCluster } from './fixtures.js';

const env = useTestCluster();
let client: ApiClient;
beforeAll(() => {
  client = env.client;
});

describe('ApiClient', () => {
  it('creates, gets and updates a ConfigMap as a plain object', async () => {
    const created = await client.create(configMap('plain', { a: '1' }));
    expect(created.metadata?.uid).toBeTruthy();
    const got = await client.get(ConfigMapKind, { namespace: 'default', name: 'plain' });
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(typeof got.metadata?.creationTimestamp).toBe('string');
    expect(got.data).toEqual({ a: '1' });
    const updated = await client.update({ ...got, data: { a: '2' } });
    expect(updated.data).toEqual({ a: '2' });
    expect(updated.metadata?.resourceVersion).not.toBe(got.metadata?.resourceVersion);
  });

  it('reports typed errors: NotFound, AlreadyExists, Conflict', async () => {
    const missing = await client.get(ConfigMapKind, { namespace: 'default', name: 'nope' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect(isNotFound(missing)).toBe(true);
    expect((missing as ApiError).code).toBe(404);
    expect(
      await client.get(ConfigMapKind, { namespace: 'default', name: 'nope' }).catch(ignoreNotFound),
    ).toBeUndefined();

    const first = await client.create(configMap('dup'));
    expect(isAlreadyExists(await client.create(configMap('dup')).catch((e: unknown) => e))).toBe(true);
    await client.update({ ...first, data: { x: 'new' } });
    const stale = await client.update({ ...first, data: { x: 'stale' } }).catch((e: unknown) => e);
    expect(isConflict(stale)).toBe(true);
    expect((stale as ApiError).reason).toBe('Conflict');
  });

  it('lists with label and field selectors and pages with limit/continue', async () => {
    for (let i = 0; i < 7; i++)
      await client.create(configMap(`page-${i}`, {}, { set: 'paging', parity: i % 2 ? 'odd' : 'even' }));
    const odd = await client.list(ConfigMapKind, {
      namespace: 'default',
      labelSelector: { set: 'paging', parity: 'odd' },
    });
    expect(odd.items.map((o) => o.metadata?.name).sort()).toEqual(['page-1', 'page-3', 'page-5']);
    expect(odd.items.every((o) => o.kind === 'ConfigMap' && o.apiVersion === 'v1')).toBe(true);
    const byName = await client.list(ConfigMapKind, { namespace: 'default', fieldSelector: 'metadata.name=page-4' });
    expect(byName.items.map((o) => o.metadata?.name)).toEqual(['page-4']);

    const first = await client.list(ConfigMapKind, { namespace: 'default', labelSelector: 'set=paging', limit: 3 });
    expect(first.items).toHaveLength(3);
    expect(first.metadata.continue).toBeTruthy();
    const all = await client.listAll(ConfigMapKind, { namespace: 'default', labelSelector: 'set=paging', pageSize: 2 });
    expect(all.map((o) => o.metadata?.name).sort()).toEqual([
      'page-0',
      'page-1',
      'page-2',
      'page-3',
      'page-4',
      'page-5',
      'page-6',
    ]);
  });

  it('patches with merge, JSON and strategic merge patches', async () => {
    await client.create(configMap('patched', { a: '1', b: '2' }));
    const key = { namespace: 'default', name: 'patched' };
    let cm = await client.patch(ConfigMapKind, key, { type: 'merge', patch: { data: { b: null, c: '3' } } });
    expect(cm.data).toEqual({ a: '1', c: '3' });
    cm = await client.patch(ConfigMapKind, key, {
      type: 'json',
      patch: [{ op: 'replace', path: '/data/a', value: 'one' }],
    });
    expect(cm.data).toEqual({ a: 'one', c: '3' });
    cm = await client.patch(ConfigMapKind, key, { type: 'strategic', patch: { metadata: { labels: { l: 'v' } } } });
    expect(cm.metadata?.labels).toEqual({ l: 'v' });
  });

  it('applies server-side with a field manager and forces conflicts only when asked', async () => {
    const intent: ConfigMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'applied', namespace: 'default' },
      data: { owned: 'by-a' },
    };
    const applied = await client.apply(intent, { fieldManager: 'manager-a' });
    expect(applied.data).toEqual({ owned: 'by-a' });
    const takeover = { ...intent, data: { owned: 'by-b' } };
    const conflict = await client.apply(takeover, { fieldManager: 'manager-b' }).catch((e: unknown) => e);
    expect(isConflict(conflict)).toBe(true);
    const forced = await client.apply(takeover, { fieldManager: 'manager-b', force: true });
    expect(forced.data).toEqual({ owned: 'by-b' });
    const managers = (forced.metadata?.managedFields as { manager: string }[]).map((f) => f.manager);
    expect(managers).toContain('manager-b');
  });

  it('deletes with preconditions and deletes all of a selection', async () => {
    const cm = await client.create(configMap('precondition'));
    const wrongUid = await client
      .delete(ConfigMapKind, { namespace: 'default', name: 'precondition' }, { preconditions: { uid: 'not-the-uid' } })
      .catch((e: unknown) => e);
    expect(isConflict(wrongUid)).toBe(true);
    await client.delete(
      ConfigMapKind,
      { namespace: 'default', name: 'precondition' },
      { preconditions: { uid: cm.metadata?.uid }, propagationPolicy: 'Background' },
    );
    expect(
      isNotFound(
        await client.get(ConfigMapKind, { namespace: 'default', name: 'precondition' }).catch((e: unknown) => e),
      ),
    ).toBe(true);

    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    for (const ns of ['default', 'other'])
      for (const n of ['x', 'y']) await client.create(configMap(`bulk-${n}`, {}, { bulk: 'yes' }, ns));
    await client.create(configMap('bulk-keep', {}, { bulk: 'no' }));
    await client.deleteAllOf(ConfigMapKind, { labelSelector: { bulk: 'yes' } });
    const left = await client.list(ConfigMapKind, { labelSelector: 'bulk' });
    expect(left.items.map((o) => o.metadata?.name)).toEqual(['bulk-keep']);
  });

  it('finds kinds of CRDs created after start and updates their status subresource', async () => {
    // Unknown at first; the mapper re-reads discovery on the next miss and finds the new CRD's kind.
    await expect(client.list(WidgetKind, { namespace: 'default' })).rejects.toBeInstanceOf(NoKindMatchError);
    await installWidgetCRD(client);
    const w = await client.create({
      apiVersion: 'example.gardener-ts.io/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'default' },
      spec: { size: 1 },
    });
    const withStatus = await client.updateStatus({ ...w, spec: { size: 99 }, status: { observed: 1 } });
    expect(withStatus.status).toEqual({ observed: 1 });
    // The status subresource ignores spec changes.
    expect(withStatus.spec).toEqual({ size: 1 });
    const got = await client.get(WidgetKind, { namespace: 'default', name: 'w' });
    expect(got.status?.observed).toBe(1);
  });

  it('rejects unknown kinds and bad input with clear errors', async () => {
    await expect(
      client.get(kind('nothing.example.com/v1', 'Nothing'), { namespace: 'default', name: 'x' }),
    ).rejects.toBeInstanceOf(NoKindMatchError);
    await expect(client.get(ConfigMapKind, { name: 'no-namespace' })).rejects.toThrow(/namespace is required/);
    await expect(client.get(NamespaceKind, { namespace: 'default', name: 'default' })).rejects.toThrow(
      /cluster-scoped/,
    );
    await expect(client.create({ metadata: { name: 'x' } } as ConfigMap)).rejects.toThrow(/apiVersion\/kind/);
    expect(() => kind('a/b/c', 'X')).toThrow(/invalid apiVersion/);
  });
});
