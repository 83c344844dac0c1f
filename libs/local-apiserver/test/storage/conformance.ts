// The storage contract (src/storage/types.ts) as one suite that every backend must pass alike.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  StorageError,
  type KubeObject,
  type Storage,
  type StorageEvent,
  type StoredObject,
  type WatchOptions,
} from '../../src/storage/index.js';

/** A store the suite can also compact: MemoryStorage and FileStorage drop history, EtcdStorage compacts etcd. */
export type ConformanceStorage = Storage & { compact(revision: number): void | Promise<void> };

let suiteRun = 0;

/** Runs the conformance suite; `factory` returns a new, opened, empty (or, for etcd, shared) store per test. */
export function describeStorageConformance(name: string, factory: () => Promise<ConformanceStorage>): void {
  describe(`${name} storage conformance`, () => {
    let storage: ConformanceStorage;
    /** A key root of this test's own, so tests never see each other's keys in a shared etcd. */
    let root: string;
    const key = (path: string) => `${root}${path}`;
    const pod = (name: string, extra: KubeObject = {}): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'ns' },
      ...extra,
    });

    beforeEach(async () => {
      storage = await factory();
      root = `/registry/conformance-${process.pid}-${++suiteRun}/`;
    });
    afterEach(async () => {
      await storage.close();
    });

    it('creates and gets an object with its revision as resourceVersion', async () => {
      const created = await storage.create(key('pods/ns/a'), pod('a', { spec: { x: 1 } }));
      expect(created.key).toBe(key('pods/ns/a'));
      expect(created.revision).toBeGreaterThan(0);
      expect(created.object).toEqual({
        ...pod('a', { spec: { x: 1 } }),
        metadata: { name: 'a', namespace: 'ns', resourceVersion: String(created.revision) },
      });
      const got = await storage.get(key('pods/ns/a'));
      expect(got).toEqual(created);
      expect(await storage.get(key('pods/ns/missing'))).toBeUndefined();
    });

    it('fails to create an existing key with AlreadyExists', async () => {
      await storage.create(key('pods/ns/a'), pod('a'));
      await expectCode(storage.create(key('pods/ns/a'), pod('a')), 'AlreadyExists');
    });

    it('updates with and without an expected revision; NotFound and Conflict', async () => {
      await expectCode(storage.update(key('pods/ns/a'), pod('a')), 'NotFound');
      await expectCode(storage.update(key('pods/ns/a'), pod('a'), 1), 'NotFound');
      const created = await storage.create(key('pods/ns/a'), pod('a', { spec: { v: 1 } }));
      const updated = await storage.update(key('pods/ns/a'), pod('a', { spec: { v: 2 } }), created.revision);
      expect(updated.revision).toBeGreaterThan(created.revision);
      expect(updated.object.spec).toEqual({ v: 2 });
      expect(updated.object.metadata.resourceVersion).toBe(String(updated.revision));
      await expectCode(storage.update(key('pods/ns/a'), pod('a', { spec: { v: 3 } }), created.revision), 'Conflict');
      const unconditional = await storage.update(key('pods/ns/a'), pod('a', { spec: { v: 4 } }));
      expect(unconditional.revision).toBeGreaterThan(updated.revision);
      expect((await storage.get(key('pods/ns/a')))!.object.spec).toEqual({ v: 4 });
    });

    it('deletes, returning the last object at the deletion revision; NotFound and Conflict', async () => {
      await expectCode(storage.delete(key('pods/ns/a')), 'NotFound');
      const created = await storage.create(key('pods/ns/a'), pod('a', { spec: { v: 1 } }));
      await expectCode(storage.delete(key('pods/ns/a'), created.revision + 100), 'Conflict');
      const deleted = await storage.delete(key('pods/ns/a'), created.revision);
      expect(deleted.revision).toBeGreaterThan(created.revision);
      expect(deleted.object).toEqual({
        ...created.object,
        metadata: { ...created.object.metadata, resourceVersion: String(deleted.revision) },
      });
      expect(await storage.get(key('pods/ns/a'))).toBeUndefined();
      await expectCode(storage.delete(key('pods/ns/a')), 'NotFound');
      const again = await storage.create(key('pods/ns/a'), pod('a'));
      expect(again.revision).toBeGreaterThan(deleted.revision);
    });

    it('gives every write the next revision of one counter shared by all keys', async () => {
      const start = await storage.currentRevision();
      const a = await storage.create(key('pods/ns/a'), pod('a'));
      const b = await storage.create(key('configmaps/ns/b'), pod('b'));
      const c = await storage.update(key('pods/ns/a'), pod('a'));
      const d = await storage.delete(key('configmaps/ns/b'));
      const revisions = [start, a.revision, b.revision, c.revision, d.revision];
      expect(revisions).toEqual([...revisions].sort((x, y) => x - y));
      expect(new Set(revisions).size).toBe(5);
      expect(await storage.currentRevision()).toBe(d.revision);
      expect((await storage.list({ prefix: root })).revision).toBe(d.revision);
    });

    it('hands out deep-frozen copies and never keeps or changes the input', async () => {
      const input = pod('a', {
        metadata: { name: 'a', resourceVersion: '999', labels: { x: '1' } },
        spec: { list: [1, 2], gone: undefined },
      });
      const created = await storage.create(key('pods/ns/a'), input);
      input.spec.list.push(3);
      input.metadata.labels.x = '2';
      expect(input.metadata.resourceVersion).toBe('999');
      const got = (await storage.get(key('pods/ns/a')))!;
      expect(got.object.spec).toEqual({ list: [1, 2] });
      expect('gone' in got.object.spec).toBe(false);
      expect(got.object.metadata.labels).toEqual({ x: '1' });
      expect(got.object.metadata.resourceVersion).toBe(String(created.revision));
      const listed = (await storage.list({ prefix: root })).items[0];
      for (const object of [created.object, got.object, listed.object]) {
        expect(Object.isFrozen(object)).toBe(true);
        expect(Object.isFrozen(object.metadata)).toBe(true);
        expect(Object.isFrozen(object.spec.list)).toBe(true);
        expect(() => {
          object.spec.list.push(4);
        }).toThrow(TypeError);
      }
      const updateInput = structuredClone(got.object);
      const updated = await storage.update(key('pods/ns/a'), updateInput);
      expect(updateInput.metadata.resourceVersion).toBe(String(created.revision));
      expect(updated.object).not.toBe(updateInput);
      const deleted = await storage.delete(key('pods/ns/a'));
      expect(Object.isFrozen(deleted.object.metadata)).toBe(true);
    });

    it('lists in key order, isolated by prefix', async () => {
      for (const path of ['pods/ab/x', 'pods/a/c', 'pods/a/a', 'podsx/a/a', 'pods/b/a', 'pods/a/b', 'pods/a']) {
        await storage.create(key(path), pod(path));
      }
      const keys = async (prefix: string) =>
        (await storage.list({ prefix: key(prefix) })).items.map((i) => i.key.slice(root.length));
      expect(await keys('pods/a/')).toEqual(['pods/a/a', 'pods/a/b', 'pods/a/c']);
      expect(await keys('pods/')).toEqual(['pods/a', 'pods/a/a', 'pods/a/b', 'pods/a/c', 'pods/ab/x', 'pods/b/a']);
      expect(await keys('pods/c/')).toEqual([]);
      const all = await storage.list({ prefix: root });
      expect(all.items).toHaveLength(7);
      expect(all.more).toBe(false);
      expect(all.revision).toBe(await storage.currentRevision());
      for (const item of all.items) expect(item.object.metadata.resourceVersion).toBe(String(item.revision));
    });

    it('lists more than 4 MiB at once', async () => {
      const big = 'x'.repeat(100_000);
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          storage.create(key(`configmaps/ns/c${String(i).padStart(2, '0')}`), pod(`c${i}`, { data: { big } })),
        ),
      );
      const list = await storage.list({ prefix: key('configmaps/') });
      expect(list.items).toHaveLength(50);
      expect(list.items[49].object.data.big).toHaveLength(100_000);
    });

    it('pages with limit and after, telling more and remaining', async () => {
      const names = ['g', 'c', 'a', 'e', 'b', 'f', 'd'];
      for (const n of names) await storage.create(key(`pods/ns/${n}`), pod(n));
      await storage.create(key('pods/other/z'), pod('z'));
      const prefix = key('pods/ns/');
      const seen: string[] = [];
      const pages: { count: number; more: boolean; remaining?: number }[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await storage.list({ prefix, limit: 3, after });
        seen.push(...page.items.map((i) => i.key.slice(prefix.length)));
        pages.push({ count: page.items.length, more: page.more, remaining: page.remaining });
        if (!page.more) break;
        after = page.items.at(-1)!.key;
      }
      expect(seen).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
      expect(pages).toEqual([
        { count: 3, more: true, remaining: 4 },
        { count: 3, more: true, remaining: 1 },
        { count: 1, more: false, remaining: 0 },
      ]);
      // `after` need not be an existing key; a limit of 0 means all.
      expect(
        (await storage.list({ prefix, after: key('pods/ns/cc') })).items.map((i) => i.key.slice(prefix.length)),
      ).toEqual(['d', 'e', 'f', 'g']);
      expect((await storage.list({ prefix, limit: 0 })).items).toHaveLength(7);
      expect((await storage.list({ prefix, after: key('pods/ns/g') })).items).toEqual([]);
    });

    it('watches from now: ADDED, MODIFIED with previous, DELETED with the last object and previous', async () => {
      await storage.create(key('pods/ns/before'), pod('before'));
      const w = collect(storage, { prefix: root });
      const a = await storage.create(key('pods/ns/a'), pod('a', { spec: { v: 1 } }));
      const b = await storage.update(key('pods/ns/a'), pod('a', { spec: { v: 2 } }));
      const c = await storage.delete(key('pods/ns/a'));
      await w.until(3);
      w.watch.stop();
      expect(w.errors).toEqual([]);
      expect(w.events.map((e) => [e.type, e.key, e.revision])).toEqual([
        ['ADDED', key('pods/ns/a'), a.revision],
        ['MODIFIED', key('pods/ns/a'), b.revision],
        ['DELETED', key('pods/ns/a'), c.revision],
      ]);
      const [added, modified, deleted] = w.events;
      expect(added.object).toEqual(a.object);
      expect(added.previous).toBeUndefined();
      expect(modified.object).toEqual(b.object);
      expect(modified.previous).toEqual(a.object);
      expect(deleted.object).toEqual(c.object);
      expect(deleted.object.metadata.resourceVersion).toBe(String(c.revision));
      expect(deleted.object.spec).toEqual({ v: 2 });
      expect(deleted.previous).toEqual(b.object);
      for (const event of w.events) expect(Object.isFrozen(event.object)).toBe(true);
    });

    it('watches from a past revision, replaying in order before live events', async () => {
      const start = await storage.currentRevision();
      await storage.create(key('pods/ns/a'), pod('a'));
      await storage.create(key('pods/ns/b'), pod('b'));
      await storage.update(key('pods/ns/a'), pod('a', { spec: { v: 2 } }));
      await storage.delete(key('pods/ns/b'));
      const w = collect(storage, { prefix: root, afterRevision: start });
      const live = await storage.create(key('pods/ns/c'), pod('c'));
      await w.until(5);
      expect(w.events.map((e) => `${e.type} ${e.key.slice(root.length)}`)).toEqual([
        'ADDED pods/ns/a',
        'ADDED pods/ns/b',
        'MODIFIED pods/ns/a',
        'DELETED pods/ns/b',
        'ADDED pods/ns/c',
      ]);
      expectIncreasing(w.events.map((e) => e.revision));
      expect(w.events.at(-1)!.revision).toBe(live.revision);
      const fromMiddle = collect(storage, { prefix: root, afterRevision: w.events[2].revision });
      await fromMiddle.until(2);
      expect(fromMiddle.events.map((e) => e.revision)).toEqual([w.events[3].revision, live.revision]);
    });

    it('gives watchers of one prefix started at different revisions exactly their own events', async () => {
      const first = collect(storage, { prefix: root });
      const a = await storage.create(key('pods/ns/a'), pod('a'));
      await first.until(1);
      const second = collect(storage, { prefix: root });
      const b = await storage.create(key('pods/ns/b'), pod('b'));
      const fromPast = collect(storage, { prefix: root, afterRevision: a.revision - 1 });
      const c = await storage.create(key('pods/ns/c'), pod('c'));
      await Promise.all([first.until(3), second.until(2), fromPast.until(3)]);
      await settle(storage, c.revision);
      expect(first.events.map((e) => e.revision)).toEqual([a.revision, b.revision, c.revision]);
      expect(second.events.map((e) => e.revision)).toEqual([b.revision, c.revision]);
      expect(fromPast.events.map((e) => e.revision)).toEqual([a.revision, b.revision, c.revision]);
    });

    it('watches only keys under its prefix', async () => {
      const w = collect(storage, { prefix: key('pods/a/') });
      await storage.create(key('pods/ab/x'), pod('x'));
      await storage.create(key('pods/b/x'), pod('x'));
      await storage.create(key('pods/a/x'), pod('x'));
      await storage.create(key('configmaps/a/x'), pod('x'));
      const last = await storage.create(key('pods/a/y'), pod('y'));
      await w.until(2);
      await settle(storage, last.revision);
      expect(w.events.map((e) => e.key.slice(root.length))).toEqual(['pods/a/x', 'pods/a/y']);
    });

    it('fails a watch from a compacted revision with Gone', async () => {
      const first = await storage.create(key('pods/ns/a'), pod('a'));
      for (let i = 0; i < 3; i++) await storage.update(key('pods/ns/a'), pod('a', { spec: { i } }));
      const last = await storage.update(key('pods/ns/a'), pod('a', { spec: { i: 'last' } }));
      await storage.compact(last.revision - 1);
      const gone = collect(storage, { prefix: root, afterRevision: first.revision });
      await waitFor(() => gone.errors.length > 0, 'the Gone error');
      expect(gone.errors[0]).toBeInstanceOf(StorageError);
      expect(gone.errors[0].code).toBe('Gone');
      expect(gone.events).toEqual([]);
      // Just inside what is kept: the watch starts at the compaction revision.
      const kept = collect(storage, { prefix: root, afterRevision: last.revision - 2 });
      await kept.until(2);
      expect(kept.events.map((e) => e.revision)).toEqual([last.revision - 1, last.revision]);
      expect(kept.errors).toEqual([]);
    });

    it('keeps delivering to a watcher when another one throws, and ends the thrower with an error', async () => {
      let thrown = 0;
      const thrower = collect(storage, { prefix: root }, () => {
        thrown++;
        throw new Error('consumer bug');
      });
      const healthy = collect(storage, { prefix: root });
      for (const n of ['a', 'b', 'c']) await storage.create(key(`pods/ns/${n}`), pod(n));
      await healthy.until(3);
      await waitFor(() => thrower.errors.length > 0, 'the thrower error');
      expect(healthy.errors).toEqual([]);
      expect(healthy.events.map((e) => e.key.slice(root.length))).toEqual(['pods/ns/a', 'pods/ns/b', 'pods/ns/c']);
      expect(thrown).toBe(1);
      expect(thrower.errors).toHaveLength(1);
      expect(thrower.errors[0].code).toBe('Unavailable');
    });

    it('stops delivering after stop()', async () => {
      const w = collect(storage, { prefix: root });
      await storage.create(key('pods/ns/a'), pod('a'));
      await w.until(1);
      w.watch.stop();
      w.watch.stop();
      const last = await storage.create(key('pods/ns/b'), pod('b'));
      await settle(storage, last.revision);
      expect(w.events).toHaveLength(1);
      expect(w.errors).toEqual([]);
    });

    it('holds a watch from a future revision until the store gets there', async () => {
      const now = await storage.currentRevision();
      const w = collect(storage, { prefix: root, afterRevision: now + 2 });
      await storage.create(key('pods/ns/a'), pod('a'));
      await storage.create(key('pods/ns/b'), pod('b'));
      const third = await storage.create(key('pods/ns/c'), pod('c'));
      await w.until(1);
      await settle(storage, third.revision);
      expect(w.events.map((e) => e.revision)).toEqual([third.revision]);
    });

    it('lets exactly one of concurrent creates of a key win', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          storage.create(key('pods/ns/contended'), pod('contended', { spec: { i } })),
        ),
      );
      const won = results.filter((r): r is PromiseFulfilledResult<StoredObject> => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected') expect((r.reason as StorageError).code).toBe('AlreadyExists');
      expect((await storage.get(key('pods/ns/contended')))!.object.spec).toEqual(won[0].value.object.spec);
    });

    it('lets exactly one of concurrent updates expecting the same revision win', async () => {
      const created = await storage.create(key('pods/ns/a'), pod('a'));
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          storage.update(key('pods/ns/a'), pod('a', { spec: { i } }), created.revision),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect((r.reason as StorageError).code).toBe('Conflict');
    });

    it('gives many concurrent writes distinct revisions, all listed and watched in order', async () => {
      const w = collect(storage, { prefix: root });
      const written = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          storage.create(key(`pods/ns/p${String(i).padStart(3, '0')}`), pod(`p${i}`)),
        ),
      );
      const revisions = written.map((r) => r.revision);
      expect(new Set(revisions).size).toBe(200);
      const list = await storage.list({ prefix: root });
      expect(list.items.map((i) => i.revision)).toEqual(revisions);
      expect(list.revision).toBe(Math.max(...revisions));
      await w.until(200);
      expectIncreasing(w.events.map((e) => e.revision));
      expect(w.events.map((e) => e.revision)).toEqual([...revisions].sort((a, b) => a - b));
    });

    it('fails operations after close with Unavailable and ends its watches', async () => {
      await storage.create(key('pods/ns/a'), pod('a'));
      const w = collect(storage, { prefix: root });
      await storage.close();
      await expectCode(storage.get(key('pods/ns/a')), 'Unavailable');
      await expectCode(storage.create(key('pods/ns/b'), pod('b')), 'Unavailable');
      await waitFor(() => w.errors.length > 0, 'the watch to end');
      expect(w.errors[0].code).toBe('Unavailable');
    });
  });
}

interface Collected {
  events: StorageEvent[];
  errors: StorageError[];
  watch: { stop(): void };
  until(count: number): Promise<void>;
}

/** Watches into arrays; a Gone thrown by watch() lands in `errors` like one reported later. */
function collect(storage: Storage, options: WatchOptions, onEvent?: (event: StorageEvent) => void): Collected {
  const events: StorageEvent[] = [];
  const errors: StorageError[] = [];
  let watch = { stop() {} };
  try {
    watch = storage.watch(
      options,
      (event) => {
        events.push(event);
        onEvent?.(event);
      },
      (err) => errors.push(err),
    );
  } catch (err) {
    errors.push(err as StorageError);
  }
  return {
    events,
    errors,
    watch,
    until: (count) => waitFor(() => events.length >= count, `${count} events (have ${events.length})`),
  };
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Gives a remote store's watch stream time to deliver anything up to `revision` that it (wrongly) would. */
async function settle(storage: Storage, revision: number): Promise<void> {
  // A marker watch from just before `revision` sees it once the store has streamed it; one more turn after that.
  const marker = collect(storage, { prefix: '/', afterRevision: revision - 1 });
  await marker.until(1);
  marker.watch.stop();
  await new Promise((resolve) => setTimeout(resolve, 20));
}

async function expectCode(promise: Promise<unknown>, code: StorageError['code']): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `expected ${code}`).toBeInstanceOf(StorageError);
  expect((err as StorageError).code).toBe(code);
}

function expectIncreasing(values: number[]): void {
  for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]);
}
