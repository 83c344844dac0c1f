// The etcd watch cache: the storage conformance suite through it, consistent reads of writes made by another client
// (another API server on the same etcd), and a restart of the cached store on the same etcd.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStorageConformance } from '../../test/storage/conformance.js';
import { startEtcd, type EtcdProcess } from '../../test/storage/etcd-process.js';
import { EtcdStorage } from './etcd.js';
import { WatchCachedStorage } from './watch-cache.js';
import type { StorageEvent } from './types.js';

describe('etcd with the watch cache', () => {
  let etcd: EtcdProcess | undefined;
  beforeAll(async () => {
    etcd = await startEtcd();
  });
  afterAll(async () => {
    await etcd?.stop();
  });

  const cached = async () => {
    const storage = new WatchCachedStorage(new EtcdStorage({ endpoints: [etcd!.endpoint] }));
    await storage.open();
    return storage;
  };

  describeStorageConformance('etcd + watch cache', cached);

  it('reads, from the cache, what another client wrote just before (consistent reads)', async () => {
    const storage = await cached();
    const other = new EtcdStorage({ endpoints: [etcd!.endpoint] });
    await other.open();
    try {
      const root = `/registry/cache-consistency-${process.pid}/`;
      for (let i = 0; i < 50; i++) {
        const written = await other.create(`${root}cm-${i}`, { metadata: { name: `cm-${i}` }, data: { i: String(i) } });
        const got = await storage.get(`${root}cm-${i}`);
        expect(got?.revision).toBe(written.revision);
        const listed = await storage.list({ prefix: root });
        expect(listed.items).toHaveLength(i + 1);
        expect(listed.revision).toBeGreaterThanOrEqual(written.revision);
        await other.update(`${root}cm-${i}`, { metadata: { name: `cm-${i}` }, data: { i: 'changed' } });
        expect((await storage.get(`${root}cm-${i}`))?.object.data).toEqual({ i: 'changed' });
      }
      expect(storage.synced).toBe(true);
      // resourceVersion "0": whatever the cache has, without asking etcd.
      const deleted = await other.delete(`${root}cm-0`);
      const deadline = Date.now() + 5_000;
      while ((await storage.get(`${root}cm-0`, { consistent: false })) !== undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      expect(await storage.get(`${root}cm-0`, { consistent: false })).toBeUndefined();
      expect(await storage.currentRevision()).toBeGreaterThanOrEqual(deleted.revision);
    } finally {
      await other.close();
      await storage.close();
    }
  });

  it('serves concurrent reads with fewer revision requests than reads, each seeing the writes before it', async () => {
    const storage = await cached();
    try {
      const root = `/registry/cache-concurrent-${process.pid}/`;
      const results = await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const written = await storage.create(`${root}cm-${i}`, { metadata: { name: `cm-${i}` } });
          const got = await storage.get(`${root}cm-${i}`);
          return got?.revision === written.revision;
        }),
      );
      expect(results.every(Boolean)).toBe(true);
    } finally {
      await storage.close();
    }
  });

  it('keeps its objects and serves watches from an older revision after a restart on the same etcd', async () => {
    const root = `/registry/cache-restart-${process.pid}/`;
    const first = await cached();
    const a = await first.create(`${root}a`, { metadata: { name: 'a' } });
    await first.create(`${root}b`, { metadata: { name: 'b' } });
    await first.close();
    const second = await cached();
    try {
      expect((await second.list({ prefix: root })).items.map((i) => i.key)).toEqual([`${root}a`, `${root}b`]);
      // Older than the new cache's history: served by etcd, which still has it.
      const events: StorageEvent[] = [];
      const w = second.watch({ prefix: root, afterRevision: a.revision - 1 }, (e) => events.push(e), () => {});
      const deadline = Date.now() + 5_000;
      while (events.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      w.stop();
      expect(events.map((e) => e.key)).toEqual([`${root}a`, `${root}b`]);
    } finally {
      await second.close();
    }
  });
});
