// Reads at a revision on every backend: `list({ atRevision })` (kube's resourceVersionMatch=Exact and continued pages)
// must give the range exactly as a list at that moment gave it, page by page; Gone once the revision is compacted
// or out of the history; TooLarge for a revision the store has not reached. `get({ minRevision })` (kube's GET at a
// resourceVersion) serves a state at least that new or fails with TooLarge.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startEtcd, type EtcdProcess } from '../../test/storage/etcd-process.js';
import { EtcdStorage } from './etcd.js';
import { FileStorage } from './file.js';
import { MemoryStorage } from './memory.js';
import { StorageError, type ListResult, type Storage } from './types.js';
import { WatchCachedStorage } from './watch-cache.js';

type CompactingStorage = Storage & { compact(revision: number): void | Promise<void> };

let run = 0;

/** What a list gives, comparable across reads: key, revision and object of each item, and the list's revision. */
const shape = (list: ListResult) => ({
  revision: list.revision,
  items: list.items.map((i) => [i.key, i.revision, i.object]),
});

async function opened<S extends Storage>(storage: S): Promise<S> {
  await storage.open();
  return storage;
}

async function failure(promise: Promise<unknown>): Promise<StorageError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof StorageError) return err;
    throw err;
  }
  throw new Error('expected a StorageError, got a result');
}

function describeExactReads(name: string, factory: () => Promise<CompactingStorage>): void {
  describe(`${name}: reads at a revision`, () => {
    let storage: CompactingStorage;
    let root: string;
    beforeEach(async () => {
      storage = await factory();
      root = `/registry/exact-${process.pid}-${++run}/`;
    });
    afterEach(async () => {
      await storage.close();
    });

    /** Creates, updates, deletes and re-creates, recording the latest list after each write. */
    const script: [op: 'create' | 'update' | 'delete', name: string][] = [
      ['create', 'a'],
      ['create', 'b'],
      ['create', 'c'],
      ['create', 'd'],
      ['update', 'b'],
      ['delete', 'a'],
      ['create', 'e'],
      ['update', 'c'],
      ['delete', 'b'],
      ['create', 'a'],
      ['update', 'e'],
      ['delete', 'd'],
      ['create', 'f'],
      ['update', 'f'],
      ['update', 'a'],
      ['delete', 'c'],
      ['create', 'b'],
      ['update', 'b'],
      ['update', 'a'],
      ['update', 'e'],
      ['create', 'g'],
      ['update', 'g'],
      ['delete', 'g'],
      ['update', 'f'],
    ];
    async function history(): Promise<ListResult[]> {
      const seen: ListResult[] = [await storage.list({ prefix: root })];
      for (const [step, [op, name]] of script.entries()) {
        const key = `${root}${name}`;
        if (op === 'create') await storage.create(key, { metadata: { name }, data: { step: String(step) } });
        else if (op === 'update') await storage.update(key, { metadata: { name }, data: { step: String(step) } });
        else await storage.delete(key);
        seen.push(await storage.list({ prefix: root }));
      }
      return seen;
    }

    it('lists every earlier revision exactly as the latest list showed it then, whole and page by page', async () => {
      const seen = await history();
      expect(new Set(seen.map((l) => l.revision)).size).toBe(seen.length);
      for (const then of seen) {
        const at = await storage.list({ prefix: root, atRevision: then.revision });
        expect(shape(at)).toEqual(shape(then));
        expect(at.more).toBe(false);
        // Pages of two, each continuing after the last key of the one before, add up to the same list.
        const paged: ListResult['items'] = [];
        let after: string | undefined;
        for (let pages = 0; pages < 10; pages++) {
          const page = await storage.list({ prefix: root, atRevision: then.revision, limit: 2, after });
          expect(page.revision).toBe(then.revision);
          paged.push(...page.items);
          expect(page.remaining).toBe(then.items.length - paged.length);
          if (!page.more) break;
          after = page.items.at(-1)!.key;
        }
        expect(paged.map((i) => [i.key, i.revision])).toEqual(then.items.map((i) => [i.key, i.revision]));
      }
      // After `create d` (step 3): c and d are there though deleted since, f is not though created since.
      const keys = async (revision: number) =>
        (await storage.list({ prefix: root, atRevision: revision })).items.map((i) => i.key);
      expect(await keys(seen[4].revision)).toEqual(['a', 'b', 'c', 'd'].map((n) => `${root}${n}`));
      expect((await storage.list({ prefix: root })).items.map((i) => i.key)).toEqual(
        ['a', 'b', 'e', 'f'].map((n) => `${root}${n}`),
      );
    });

    it('answers Gone for a revision compacted away, and TooLarge for one not reached yet', async () => {
      const seen = await history();
      const cut = seen[16].revision;
      await storage.compact(cut);
      const gone = await failure(storage.list({ prefix: root, atRevision: seen[10].revision }));
      expect(gone.code).toBe('Gone');
      expect(shape(await storage.list({ prefix: root, atRevision: cut }))).toEqual(shape(seen[16]));
      const current = seen.at(-1)!.revision;
      const tooLarge = await failure(storage.list({ prefix: root, atRevision: current + 1000 }));
      expect(tooLarge.code).toBe('TooLarge');
      expect(tooLarge.currentRevision).toBeGreaterThanOrEqual(current);
      expect(tooLarge.currentRevision).toBeLessThan(current + 1000);
    });

    it('gets at a revision not older than the one asked for, or fails with TooLarge', async () => {
      const created = await storage.create(`${root}x`, { metadata: { name: 'x' } });
      await storage.create(`${root}y`, { metadata: { name: 'y' } });
      const current = await storage.currentRevision();
      expect((await storage.get(`${root}x`, { minRevision: created.revision }))?.revision).toBe(created.revision);
      expect((await storage.get(`${root}x`, { minRevision: current }))?.revision).toBe(created.revision);
      expect(await storage.get(`${root}none`, { minRevision: current })).toBeUndefined();
      const tooLarge = await failure(storage.get(`${root}x`, { minRevision: current + 1000 }));
      expect(tooLarge.code).toBe('TooLarge');
      expect(tooLarge.currentRevision).toBeGreaterThanOrEqual(current);
    });
  });
}

describe('exact reads', () => {
  /** A new temporary directory per file store, all removed at the end. */
  const dirs: string[] = [];
  const storeDir = async () => dirs[dirs.push(await mkdtemp(join(tmpdir(), 'exact-reads-'))) - 1];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  describeExactReads('memory', async () => new MemoryStorage());
  describeExactReads('file', async () => opened(new FileStorage(await storeDir())));

  it('memory: answers Gone once the revision is older than the bounded history', async () => {
    const storage = new MemoryStorage({ historySize: 5 });
    const first = await storage.create('/registry/h/a', { metadata: { name: 'a' } });
    for (let i = 0; i < 5; i++)
      await storage.update('/registry/h/a', { metadata: { name: 'a' }, data: { i: String(i) } });
    const revision = await storage.currentRevision();
    // Five events kept (revisions 2..6): the state at 1 is the oldest that can still be rebuilt.
    expect((await storage.list({ prefix: '/registry/h/', atRevision: first.revision })).items[0].revision).toBe(
      first.revision,
    );
    await storage.update('/registry/h/a', { metadata: { name: 'a' } });
    expect((await failure(storage.list({ prefix: '/registry/h/', atRevision: first.revision }))).code).toBe('Gone');
    expect((await storage.list({ prefix: '/registry/h/', atRevision: revision })).items[0].revision).toBe(revision);
  });

  it('file: still lists at revisions of the replayed log after a restart', async () => {
    const dir = await storeDir();
    let storage = await opened(new FileStorage(dir));
    await storage.create('/registry/r/a', { metadata: { name: 'a' } });
    const before = await storage.list({ prefix: '/registry/r/' });
    await storage.delete('/registry/r/a');
    await storage.create('/registry/r/b', { metadata: { name: 'b' } });
    await storage.close();
    storage = await opened(new FileStorage(dir));
    try {
      expect(shape(await storage.list({ prefix: '/registry/r/', atRevision: before.revision }))).toEqual(shape(before));
    } finally {
      await storage.close();
    }
  });

  describe('with a real etcd', () => {
    // Fails (never skips) without an etcd binary.
    let etcd: EtcdProcess | undefined;
    beforeAll(async () => void (etcd = await startEtcd()));
    afterAll(() => etcd?.stop());

    describeExactReads('etcd', () => opened(new EtcdStorage({ endpoints: [etcd!.endpoint] })));
    describeExactReads('etcd + watch cache', () =>
      opened(new WatchCachedStorage(new EtcdStorage({ endpoints: [etcd!.endpoint] }), { blockMs: 200 })),
    );

    it('watch cache: serves revisions in its history from memory, older ones from etcd, and waits for newer ones', async () => {
      const root = `/registry/exact-cache-${process.pid}/`;
      const writer = await opened(new EtcdStorage({ endpoints: [etcd!.endpoint] }));
      await writer.create(`${root}old`, { metadata: { name: 'old' } });
      const beforeCache = await writer.list({ prefix: root });
      // A write after it, so that the cache's first list is at a later revision.
      await writer.create(`${root}older`, { metadata: { name: 'older' } });
      const storage = await opened(
        new WatchCachedStorage(new EtcdStorage({ endpoints: [etcd!.endpoint] }), { blockMs: 10_000 }),
      );
      try {
        await writer.delete(`${root}old`);
        const created = await writer.create(`${root}new`, { metadata: { name: 'new' } });
        const inCache = await storage.list({ prefix: root }); // a consistent read: the cache has `created` now
        const range = vi.spyOn(storage.source, 'list');
        expect(shape(await storage.list({ prefix: root, atRevision: inCache.revision }))).toEqual(shape(inCache));
        expect(range).not.toHaveBeenCalled();
        // Before the cache's first list: only etcd has it.
        expect(shape(await storage.list({ prefix: root, atRevision: beforeCache.revision }))).toEqual(
          shape(beforeCache),
        );
        expect(range).toHaveBeenCalledWith(expect.objectContaining({ atRevision: beforeCache.revision }));
        range.mockRestore();
        // A get and an exact list at the next revision wait until the cache has it.
        const next = created.revision + 1;
        const get = storage.get(`${root}new`, { minRevision: next });
        const list = storage.list({ prefix: root, atRevision: next });
        const updated = await writer.update(`${root}new`, { metadata: { name: 'new' }, data: { v: '2' } });
        expect(updated.revision).toBe(next);
        expect((await get)?.object.data).toEqual({ v: '2' });
        const listed = await list;
        expect(listed.revision).toBe(next);
        expect(listed.items.find((i) => i.key === `${root}new`)?.revision).toBe(next);
      } finally {
        await storage.close();
        await writer.close();
      }
    });
  });
});
