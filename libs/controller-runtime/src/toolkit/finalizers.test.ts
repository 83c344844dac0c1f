import { describe, expect, it } from 'vitest';
import { addFinalizer, finalize, hasFinalizer, removeFinalizer } from './finalizers.js';
import { FakeClient } from './testing/fake-client.js';

const FINALIZER = 'gardener.cloud/test';
const configMap = (finalizers?: string[], deletionTimestamp?: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'cm',
    namespace: 'default',
    ...(finalizers ? { finalizers } : {}),
    ...(deletionTimestamp ? { deletionTimestamp } : {}),
  },
  data: { a: '1' },
});

describe('hasFinalizer', () => {
  it('reads metadata.finalizers', () => {
    expect(hasFinalizer(configMap([FINALIZER]), FINALIZER)).toBe(true);
    expect(hasFinalizer(configMap(['other']), FINALIZER)).toBe(false);
    expect(hasFinalizer(configMap(), FINALIZER)).toBe(false);
  });
});

describe('addFinalizer', () => {
  it('adds the finalizer with a patch that carries the resourceVersion read', async () => {
    const client = new FakeClient();
    const cm = client.put(configMap(['other']));
    const updated = await addFinalizer(client, cm, FINALIZER);
    expect(updated.metadata?.finalizers).toEqual(['other', FINALIZER]);
    expect(client.stored(cm)?.metadata?.finalizers).toEqual(['other', FINALIZER]);
    expect(client.patches[0].patch).toEqual({
      type: 'merge',
      patch: { metadata: { resourceVersion: cm.metadata.resourceVersion, finalizers: ['other', FINALIZER] } },
    });
  });

  it('is a no-op when the finalizer is there', async () => {
    const client = new FakeClient();
    const cm = client.put(configMap([FINALIZER]));
    expect(await addFinalizer(client, cm, FINALIZER)).toBe(cm);
    expect(client.patches).toHaveLength(0);
  });

  it('keeps a finalizer another writer added meanwhile (409 → re-read → retry)', async () => {
    const client = new FakeClient();
    const stale = client.put(configMap());
    let raced = false;
    client.beforePatch = () => {
      if (raced) return;
      raced = true;
      client.put({ ...client.stored(stale)!, metadata: { ...stale.metadata, finalizers: ['someone/else'] } });
    };
    const updated = await addFinalizer(client, stale, FINALIZER);
    expect(updated.metadata?.finalizers).toEqual(['someone/else', FINALIZER]);
    expect(client.patches).toHaveLength(2);
  });

  it('re-reads a conflicting object from the API server, not from a stale cache', async () => {
    const api = new FakeClient();
    const stale = api.put(configMap());
    api.put({ ...configMap(), data: { a: '2' } });
    const cached = {
      get: (async () => structuredClone(stale)) as unknown as FakeClient['get'],
      patch: api.patch.bind(api),
      api,
    };
    const updated = await addFinalizer(cached, stale, FINALIZER);
    expect(updated.metadata?.finalizers).toEqual([FINALIZER]);
    expect(api.stored<ReturnType<typeof configMap>>(stale)?.data).toEqual({ a: '2' });
  });

  it('reads the object first when the given one has no resourceVersion', async () => {
    const client = new FakeClient(configMap(['x']));
    const updated = await addFinalizer(client, configMap(), FINALIZER);
    expect(updated.metadata?.finalizers).toEqual(['x', FINALIZER]);
  });

  it('fails with NotFound when the object is gone', async () => {
    const client = new FakeClient();
    await expect(
      addFinalizer(client, { ...configMap(), metadata: { ...configMap().metadata, resourceVersion: '5' } }, FINALIZER),
    ).rejects.toThrow(/not found/);
  });
});

describe('removeFinalizer', () => {
  it('removes only its own finalizer', async () => {
    const client = new FakeClient();
    const cm = client.put(configMap(['a', FINALIZER, 'b']));
    expect((await removeFinalizer(client, cm, FINALIZER)).metadata?.finalizers).toEqual(['a', 'b']);
  });

  it('is a no-op when the finalizer is not there', async () => {
    const client = new FakeClient();
    const cm = client.put(configMap(['a']));
    expect(await removeFinalizer(client, cm, FINALIZER)).toBe(cm);
    expect(client.patches).toHaveLength(0);
  });

  it('treats a gone object as done', async () => {
    const client = new FakeClient();
    const cm = client.put(configMap([FINALIZER]));
    client.remove(cm);
    await expect(removeFinalizer(client, cm, FINALIZER)).resolves.toBe(cm);
  });

  it('keeps a finalizer another writer added between read and write', async () => {
    const client = new FakeClient();
    const stale = client.put(configMap([FINALIZER]));
    let raced = false;
    client.beforePatch = () => {
      if (raced) return;
      raced = true;
      client.put({ ...client.stored(stale)!, metadata: { ...stale.metadata, finalizers: [FINALIZER, 'late/comer'] } });
    };
    expect((await removeFinalizer(client, stale, FINALIZER)).metadata?.finalizers).toEqual(['late/comer']);
  });

  it('gives up after repeated conflicts with the last 409', async () => {
    const client = new FakeClient();
    const cm = client.put(configMap([FINALIZER]));
    client.beforePatch = () => void client.put(client.stored(cm)!);
    await expect(removeFinalizer(client, cm, FINALIZER)).rejects.toThrow(/modified/);
  });
});

describe('finalize', () => {
  it('adds the finalizer before apply and hands apply the updated object', async () => {
    const client = new FakeClient();
    const cm = client.put(configMap());
    const seen: (string[] | undefined)[] = [];
    const result = await finalize(client, cm, FINALIZER, {
      apply: async (obj) => {
        seen.push(client.stored(obj)?.metadata?.finalizers, obj.metadata?.finalizers);
        return { requeueAfter: 60_000 };
      },
      cleanup: () => Promise.reject(new Error('not deleting')),
    });
    expect(seen).toEqual([[FINALIZER], [FINALIZER]]);
    expect(result).toEqual({ requeueAfter: 60_000 });
  });

  it('runs cleanup and then removes the finalizer once deletion started', async () => {
    const client = new FakeClient();
    const cm = client.put(configMap([FINALIZER], '2026-01-01T00:00:00Z'));
    const order: string[] = [];
    client.beforePatch = () => order.push('patch');
    await finalize(client, cm, FINALIZER, {
      apply: () => Promise.reject(new Error('not applying')),
      cleanup: async () => {
        order.push('cleanup');
      },
    });
    expect(order).toEqual(['cleanup', 'patch']);
    expect(client.stored(cm)).toBeUndefined(); // last finalizer gone: the server deleted it
  });

  it('keeps the finalizer while cleanup asks to be called again', async () => {
    const client = new FakeClient();
    const cm = client.put(configMap([FINALIZER], '2026-01-01T00:00:00Z'));
    const result = await finalize(client, cm, FINALIZER, {
      apply: async () => undefined,
      cleanup: async () => ({ requeueAfter: 5000 }),
    });
    expect(result).toEqual({ requeueAfter: 5000 });
    expect(client.stored(cm)?.metadata?.finalizers).toEqual([FINALIZER]);
  });

  it('keeps the finalizer when cleanup throws', async () => {
    const client = new FakeClient();
    const cm = client.put(configMap([FINALIZER], '2026-01-01T00:00:00Z'));
    await expect(
      finalize(client, cm, FINALIZER, {
        apply: async () => undefined,
        cleanup: () => Promise.reject(new Error('boom')),
      }),
    ).rejects.toThrow('boom');
    expect(client.stored(cm)?.metadata?.finalizers).toEqual([FINALIZER]);
  });

  it('does nothing for an object being deleted without its finalizer', async () => {
    const client = new FakeClient();
    const cm = client.put(configMap(['other'], '2026-01-01T00:00:00Z'));
    let called = false;
    await finalize(client, cm, FINALIZER, {
      apply: async () => void (called = true),
      cleanup: async () => void (called = true),
    });
    expect(called).toBe(false);
    expect(client.patches).toHaveLength(0);
  });
});
