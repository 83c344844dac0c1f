// What only the memory index has: its ordered key structure, its bounded history, and its speed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/storage/index.js';
import { SortedKeys } from '../../src/storage/sorted-keys.js';

describe('SortedKeys', () => {
  it('agrees with a sorted array under any inserts and deletes', () => {
    const op = fc.tuple(fc.boolean(), fc.string({ unit: fc.constantFrom('a', 'b', 'c', '/', 'z'), maxLength: 4 }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000 }), fc.string({ maxLength: 3 }), (ops, probe) => {
        const keys = new SortedKeys();
        const reference = new Set<string>();
        for (const [add, key] of ops) {
          expect(add ? keys.insert(key) : keys.delete(key)).toBe(add ? !reference.has(key) : reference.has(key));
          if (add) reference.add(key);
          else reference.delete(key);
        }
        const sorted = [...reference].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(keys.size).toBe(sorted.length);
        expect(keys.slice(0, keys.size)).toEqual(sorted);
        expect(keys.position(probe)).toBe(sorted.filter((k) => k < probe).length);
        expect(keys.position(probe, true)).toBe(sorted.filter((k) => k <= probe).length);
        expect(keys.slice(1, 5)).toEqual(sorted.slice(1, 5));
      }),
      { numRuns: 60 },
    );
  });

  it('splits into chunks and stays ordered past a few thousand keys', () => {
    const keys = new SortedKeys();
    const all = Array.from({ length: 5000 }, (_, i) => `k${String((i * 7919) % 5000).padStart(5, '0')}`);
    for (const k of all) keys.insert(k);
    expect(keys.slice(0, keys.size)).toEqual([...all].sort());
    expect(keys.slice(2500, 2503)).toEqual(['k02500', 'k02501', 'k02502']);
  });
});

describe('MemoryStorage', () => {
  it('keeps only historySize events for watches; older revisions are Gone', async () => {
    const storage = new MemoryStorage({ historySize: 5 });
    for (let i = 0; i < 10; i++) await storage.create(`/registry/core/pods/ns/p${i}`, { metadata: { name: `p${i}` } });
    expect(() =>
      storage.watch(
        { prefix: '/registry/', afterRevision: 4 },
        () => {},
        () => {},
      ),
    ).toThrow(/older than the oldest kept/);
    const replayed: number[] = [];
    storage.watch(
      { prefix: '/registry/', afterRevision: 5 },
      (e) => replayed.push(e.revision),
      () => {},
    );
    await Promise.resolve();
    expect(replayed).toEqual([6, 7, 8, 9, 10]);
  });

  it('with no history, watches only from now', async () => {
    const storage = new MemoryStorage({ historySize: 0 });
    await storage.create('/registry/a', {});
    expect(() =>
      storage.watch(
        { prefix: '/', afterRevision: 0 },
        () => {},
        () => {},
      ),
    ).toThrow(/older than the oldest kept/);
    const seen: number[] = [];
    storage.watch(
      { prefix: '/', afterRevision: 1 },
      (e) => seen.push(e.revision),
      () => {},
    );
    await storage.create('/registry/b', {});
    expect(seen).toEqual([2]);
  });

  it('lists and pages 10,000 objects without quadratic cost', async () => {
    const storage = new MemoryStorage();
    for (let i = 0; i < 10_000; i++) {
      const ns = `ns${i % 10}`;
      await storage.create(`/registry/core/pods/${ns}/p${i}`, {
        metadata: { name: `p${i}`, namespace: ns },
        spec: { i },
      });
    }
    const started = performance.now();
    const all = await storage.list({ prefix: '/registry/core/pods/' });
    const elapsed = performance.now() - started;
    expect(all.items).toHaveLength(10_000);
    // Speed is measured in bench/; these loose bounds (20× the target) only catch a quadratic regression.
    expect(elapsed).toBeLessThan(2000);
    let pages = 0;
    let after: string | undefined;
    const pageStart = performance.now();
    for (let more = true; more; pages++) {
      const page = await storage.list({ prefix: '/registry/core/pods/ns3/', limit: 100, after });
      more = page.more;
      after = page.items.at(-1)?.key;
    }
    expect(pages).toBe(10);
    expect(performance.now() - pageStart).toBeLessThan(1000);
  });
});
