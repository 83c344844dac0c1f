// The etcd watch cache: the storage conformance suite through it, consistent reads of writes made by another client
// (another API server on the same etcd), a restart of the cached store on the same etcd, lists at resourceVersion
// "0" and NotOlderThan, watches from a revision etcd compacted by itself, and the re-sync after a failed watch.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeStorageConformance } from '../../test/storage/conformance.js';
import { startEtcd, type EtcdProcess } from '../../test/storage/etcd-process.js';
import { dropStaleCancellations, EtcdStorage } from './etcd.js';
import { WatchCachedStorage, type WatchCacheOptions } from './watch-cache.js';
import { StorageError, type StorageEvent, type Watch } from './types.js';

describe('etcd with the watch cache', () => {
  let etcd: EtcdProcess | undefined;
  beforeAll(async () => {
    etcd = await startEtcd();
  });
  afterAll(async () => {
    await etcd?.stop();
  });

  const cached = async (options: WatchCacheOptions = {}) => {
    const storage = new WatchCachedStorage(new EtcdStorage({ endpoints: [etcd!.endpoint] }), options);
    await storage.open();
    return storage;
  };
  const client = async () => {
    const other = new EtcdStorage({ endpoints: [etcd!.endpoint] });
    await other.open();
    return other;
  };
  const until = async (done: () => boolean | Promise<boolean>, ms = 10_000) => {
    const deadline = Date.now() + ms;
    while (!(await done()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  };
  /** The promise's value, or a failure naming what never came (instead of the test's own timeout). */
  const within = <T>(promise: Promise<T>, what: string, ms = 10_000) =>
    Promise.race([
      promise,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms).unref()),
    ]);

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
      while ((await storage.get(`${root}cm-0`, { consistent: false })) !== undefined && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 5));
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
      const w = second.watch(
        { prefix: root, afterRevision: a.revision - 1 },
        (e) => events.push(e),
        () => {},
      );
      const deadline = Date.now() + 5_000;
      while (events.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      w.stop();
      expect(events.map((e) => e.key)).toEqual([`${root}a`, `${root}b`]);
    } finally {
      await second.close();
    }
  });

  it('serves a list at resourceVersion "0" from the cache without asking etcd, and a consistent one after asking', async () => {
    const storage = await cached();
    const other = await client();
    try {
      const root = `/registry/cache-any-${process.pid}/`;
      const written = await other.create(`${root}a`, { metadata: { name: 'a' } });
      await until(async () => (await storage.list({ prefix: root, consistent: false })).items.length === 1);
      const range = vi.spyOn(storage.source, 'currentRevision');
      const list = vi.spyOn(storage.source, 'list');
      const any = await storage.list({ prefix: root, consistent: false });
      expect(any.items.map((i) => i.revision)).toEqual([written.revision]);
      expect(range).not.toHaveBeenCalled();
      expect(list).not.toHaveBeenCalled();
      // The default (consistent) list asks etcd for its revision first, and is still served from the cache.
      expect((await storage.list({ prefix: root })).items).toHaveLength(1);
      expect(range).toHaveBeenCalledTimes(1);
      expect(list).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
      await other.close();
      await storage.close();
    }
  });

  it('waits for a NotOlderThan revision until the cache has it, and gives up at its own revision after blockMs', async () => {
    const storage = await cached({ blockMs: 30_000 });
    const impatient = await cached({ blockMs: 50 });
    const other = await client();
    try {
      const root = `/registry/cache-not-older-${process.pid}/`;
      const now = await other.currentRevision();
      let settled = false;
      const waiting = storage.list({ prefix: root, minRevision: now + 1 }).finally(() => (settled = true));
      await new Promise((r) => setTimeout(r, 50));
      expect(settled).toBe(false); // nothing reached now + 1 yet
      const written = await other.create(`${root}a`, { metadata: { name: 'a' } });
      const listed = await waiting;
      expect(listed.revision).toBeGreaterThanOrEqual(written.revision);
      expect(listed.items.map((i) => i.key)).toEqual([`${root}a`]);
      // A revision nobody writes: the list comes back (after blockMs) at the cache's revision, below the one asked.
      const future = written.revision + 1_000;
      const late = await impatient.list({ prefix: root, minRevision: future });
      expect(late.revision).toBeLessThan(future);
      expect(late.revision).toBeGreaterThanOrEqual(written.revision);
    } finally {
      await other.close();
      await impatient.close();
      await storage.close();
    }
  });

  it('answers Gone for a watch from a revision etcd compacted by itself, and keeps every other watch working', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    const root = `/registry/cache-compacted-${process.pid}/`;
    const other = await client();
    const first = await other.create(`${root}a`, { metadata: { name: 'a' } });
    await other.update(`${root}a`, { metadata: { name: 'a' }, data: { v: '2' } });
    const compactedAt = (await other.update(`${root}a`, { metadata: { name: 'a' }, data: { v: '3' } })).revision;
    // A cache started now has no history before its list, so older watches go to etcd.
    const storage = await cached();
    const watches: Watch[] = [];
    try {
      // etcd compacts (as with --auto-compaction-retention), not through the cache.
      await other.compact(compactedAt);
      const gone = await within(
        new Promise<StorageError>((resolve, reject) => {
          watches.push(
            storage.watch(
              { prefix: root, afterRevision: first.revision - 1 },
              () => reject(new Error('an event from a compacted revision')),
              resolve,
            ),
          );
        }),
        'Gone',
      );
      expect(gone.code).toBe('Gone');
      for (const w of watches.splice(0)) w.stop();
      // Another watch from before the compaction: Gone again, on the same connection.
      const goneAgain = await within(
        new Promise<StorageError>((resolve) => {
          watches.push(storage.watch({ prefix: root, afterRevision: first.revision }, () => {}, resolve));
        }),
        'second Gone',
      );
      expect(goneAgain.code).toBe('Gone');
      // Watches from a kept revision, the cache's own and etcd's (another prefix), all still deliver.
      const fromCache: StorageEvent[] = [];
      const fromEtcd: StorageEvent[] = [];
      const errors: StorageError[] = [];
      watches.push(
        storage.watch(
          { prefix: root },
          (e) => fromCache.push(e),
          (e) => errors.push(e),
        ),
      );
      watches.push(
        storage.source.watch(
          { prefix: root, afterRevision: compactedAt },
          (e) => fromEtcd.push(e),
          (e) => errors.push(e),
        ),
      );
      const b = await other.create(`${root}b`, { metadata: { name: 'b' } });
      await until(() => fromCache.length >= 1 && fromEtcd.length >= 1);
      expect(fromCache.map((e) => e.revision)).toEqual([b.revision]);
      expect(fromEtcd.map((e) => e.revision)).toEqual([b.revision]);
      expect(errors).toEqual([]);
      expect((await storage.get(`${root}b`))?.revision).toBe(b.revision);
      expect(storage.synced).toBe(true);
      // Let any late reply of etcd reach the client before looking for rejections.
      await new Promise((r) => setTimeout(r, 100));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      for (const w of watches) w.stop();
      await other.close();
      await storage.close();
    }
  });

  it('has the etcd3 client drop a cancellation reply for a watch it already forgot, and nothing else', async () => {
    await dropStaleCancellations();
    const { WatchManager } = await import('etcd3/lib/watch.js');
    const handleResponse = (WatchManager.prototype as unknown as { handleResponse: (res: object) => void })
      .handleResponse;
    const manager = { watchers: [], initialBackoff: { next: () => undefined } };
    // Our cancel request crossed etcd's own cancellation (a compacted start revision): the second reply is dropped.
    expect(() => handleResponse.call(manager, { watch_id: '7', canceled: true, events: [] })).not.toThrow();
    expect(() => handleResponse.call(manager, { watch_id: '7', canceled: false, events: [] })).toThrow(
      /Failed to find watcher/,
    );
  });

  it('reads from etcd while its watch is lost, then lists, watches and serves from memory again', async () => {
    const resyncs: StorageError[] = [];
    const storage = await cached({ onResync: (err) => resyncs.push(err) });
    const other = await client();
    try {
      const root = `/registry/cache-resync-${process.pid}/`;
      await other.create(`${root}a`, { metadata: { name: 'a' } });
      expect((await storage.list({ prefix: root })).items).toHaveLength(1);
      const ended: StorageError[] = [];
      storage.watch(
        { prefix: root },
        () => {},
        (err) => ended.push(err),
      );
      // The cache's etcd watch fails (as when etcd cancels it).
      const sourceWatch = (storage as unknown as { sourceWatch: { fail(err: StorageError): void } }).sourceWatch;
      sourceWatch.fail(new StorageError('Unavailable', 'etcd watch failed: injected'));
      await new Promise((r) => setImmediate(r)); // the failure is reported on a microtask
      expect(storage.synced).toBe(false);
      expect(resyncs.map((e) => e.message)).toEqual(['etcd watch failed: injected']);
      expect(ended.map((e) => e.code)).toEqual(['Unavailable']);
      // Meanwhile reads go to etcd, and see writes at once.
      const list = vi.spyOn(storage.source, 'list');
      const get = vi.spyOn(storage.source, 'get');
      const b = await other.create(`${root}b`, { metadata: { name: 'b' } });
      expect((await storage.get(`${root}b`))?.revision).toBe(b.revision);
      expect(get).toHaveBeenCalledTimes(1);
      expect((await storage.list({ prefix: root })).items).toHaveLength(2);
      // The re-sync lists everything again (a second later).
      await until(() => storage.synced);
      expect(storage.synced).toBe(true);
      const c = await other.create(`${root}c`, { metadata: { name: 'c' } });
      list.mockClear();
      get.mockClear();
      expect((await storage.list({ prefix: root })).items.map((i) => i.revision)).toEqual([
        expect.any(Number),
        b.revision,
        c.revision,
      ]);
      expect((await storage.get(`${root}c`))?.revision).toBe(c.revision);
      expect(list).not.toHaveBeenCalled();
      expect(get).not.toHaveBeenCalled();
      // And watches are served by the cache again.
      const events: StorageEvent[] = [];
      const w = storage.watch(
        { prefix: root, afterRevision: b.revision },
        (e) => events.push(e),
        () => {},
      );
      await until(() => events.length >= 1);
      w.stop();
      expect(events.map((e) => e.revision)).toEqual([c.revision]);
      expect(resyncs).toHaveLength(1);
    } finally {
      vi.restoreAllMocks();
      await other.close();
      await storage.close();
    }
  });
});
