import fc from 'fast-check';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FakeClock } from './clock.js';
import { BucketRateLimiter, ItemExponentialRateLimiter, defaultControllerRateLimiter } from './rate-limiter.js';
import { WorkQueue } from './work-queue.js';

describe('WorkQueue', () => {
  it('hands out keys in order and deduplicates keys that are waiting', async () => {
    const q = new WorkQueue();
    q.add('a');
    q.add('b');
    q.add('a');
    expect(q.length).toBe(2);
    expect(await q.get()).toBe('a');
    expect(await q.get()).toBe('b');
    expect(q.length).toBe(0);
  });

  it('holds back a key added during processing until done, then queues it once', async () => {
    const q = new WorkQueue();
    q.add('a');
    const key = await q.get();
    q.add('a');
    q.add('a');
    expect(q.length).toBe(0);
    q.done(key!);
    expect(q.length).toBe(1);
    expect(await q.get()).toBe('a');
    q.done('a');
    expect(q.length).toBe(0);
  });

  it('wakes a waiting worker when a key arrives', async () => {
    const q = new WorkQueue();
    const next = q.get();
    q.add('x');
    expect(await next).toBe('x');
  });

  it('adds after a delay; the earliest of several delayed adds wins', () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock });
    q.addAfter('a', 1000);
    q.addAfter('a', 100);
    q.addAfter('a', 5000);
    clock.advance(99);
    expect(q.length).toBe(0);
    clock.advance(1);
    expect(q.length).toBe(1);
    clock.advance(10_000);
    expect(q.length).toBe(1);
    expect(clock.pending).toBe(0);
  });

  it('requeues rate-limited keys after a per-key back-off that forget resets', async () => {
    const clock = new FakeClock();
    const q = new WorkQueue({ clock, rateLimiter: new ItemExponentialRateLimiter(5, 1_000_000) });
    const dueAfter = () => {
      q.addRateLimited('k');
      let waited = 0;
      while (q.length === 0) {
        clock.advance(1);
        waited++;
      }
      return waited;
    };
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      waits.push(dueAfter());
      q.done((await q.get())!);
    }
    expect(waits).toEqual([5, 10, 20, 40]);
    expect(q.numRequeues('k')).toBe(4);
    q.forget('k');
    expect(q.numRequeues('k')).toBe(0);
    expect(dueAfter()).toBe(5);
  });

  it('shuts down: waiting workers get undefined and shutdown resolves when in-flight work is done', async () => {
    const q = new WorkQueue();
    q.add('a');
    const inFlight = await q.get();
    const idle = q.get();
    let drained = false;
    const done = q.shutdown().then(() => (drained = true));
    expect(await q.get()).toBeUndefined();
    q.add('c');
    await Promise.resolve();
    expect(drained).toBe(false);
    expect(await idle).toBeUndefined();
    q.done(inFlight!);
    await done;
    expect(drained).toBe(true);
    expect(q.length).toBe(0);
  });

  it('reports the workqueue_* metrics labelled with its name', async () => {
    const registry = new Registry();
    const clock = new FakeClock();
    const q = new WorkQueue({ name: 'widgets', metrics: registry, clock });
    q.add('a');
    q.add('b');
    const key = await q.get();
    clock.advance(2000);
    q.addRateLimited('c');
    const text = await registry.metrics();
    expect(text).toContain('workqueue_depth{controller="widgets",name="widgets"} 1');
    expect(text).toContain('workqueue_adds_total{controller="widgets",name="widgets"} 2');
    expect(text).toContain('workqueue_retries_total{controller="widgets",name="widgets"} 1');
    expect(text).toContain('workqueue_unfinished_work_seconds{controller="widgets",name="widgets"} 2');
    expect(text).toContain('workqueue_longest_running_processor_seconds{controller="widgets",name="widgets"} 2');
    q.done(key!);
    expect(await registry.metrics()).toContain(
      'workqueue_work_duration_seconds_count{controller="widgets",name="widgets"} 1',
    );
    expect(await registry.metrics()).toContain(
      'workqueue_queue_duration_seconds_count{controller="widgets",name="widgets"} 1',
    );
    // A second queue on the same registry shares the metric families.
    expect(() => new WorkQueue({ name: 'other', metrics: registry })).not.toThrow();
  });

  it('property: never hands one key to two workers, never loses a key added after its processing started', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), key: fc.constantFrom('a', 'b', 'c', 'd') }),
      fc.record({ kind: fc.constant('get' as const), worker: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ kind: fc.constant('done' as const), worker: fc.integer({ min: 0, max: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 200 }), async (ops) => {
        const q = new WorkQueue();
        const holding: (string | undefined)[] = [undefined, undefined, undefined, undefined];
        // Keys added since they were last handed out: each must be handed out again.
        const owed = new Set<string>();
        const take = async (worker: number) => {
          const key = (await q.get())!;
          expect(holding).not.toContain(key);
          holding[worker] = key;
          owed.delete(key);
        };
        for (const o of ops) {
          if (o.kind === 'add') {
            q.add(o.key);
            owed.add(o.key);
          } else if (o.kind === 'get' && holding[o.worker] === undefined && q.length > 0) {
            await take(o.worker);
          } else if (o.kind === 'done' && holding[o.worker] !== undefined) {
            q.done(holding[o.worker]!);
            holding[o.worker] = undefined;
          }
        }
        // Finish: release everything and drain; every owed key must come out.
        for (const key of holding) if (key !== undefined) q.done(key);
        holding.fill(undefined);
        while (q.length > 0) {
          await take(0);
          q.done(holding[0]!);
          holding[0] = undefined;
        }
        expect([...owed]).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('rate limiters', () => {
  it('item exponential: 5 ms doubling, capped at 1000 s', () => {
    const l = new ItemExponentialRateLimiter();
    expect([l.when('k'), l.when('k'), l.when('k'), l.when('k')]).toEqual([5, 10, 20, 40]);
    for (let i = 0; i < 30; i++) l.when('k');
    expect(l.when('k')).toBe(1_000_000);
    expect(l.when('other')).toBe(5);
    expect(() => new ItemExponentialRateLimiter(0)).toThrow(/back-off/);
  });

  it('token bucket: a burst of 100 without delay, then 10 per second', () => {
    const clock = new FakeClock();
    const l = new BucketRateLimiter(10, 100, clock);
    for (let i = 0; i < 100; i++) expect(l.when()).toBe(0);
    expect(l.when()).toBeCloseTo(100);
    expect(l.when()).toBeCloseTo(200);
    clock.advance(1000);
    // Ten tokens came back, two of which were already promised.
    expect(l.when()).toBeCloseTo(0);
  });

  it('default controller limiter takes the larger of back-off and bucket', () => {
    const clock = new FakeClock();
    const l = defaultControllerRateLimiter(clock);
    expect(l.when('a')).toBe(5);
    for (let i = 0; i < 120; i++) l.when(`burst-${i}`);
    // The bucket is now far in debt: its delay exceeds the 10 ms back-off of a's second failure.
    expect(l.when('a')).toBeGreaterThan(1000);
    expect(l.numRequeues('a')).toBe(2);
    l.forget('a');
    expect(l.numRequeues('a')).toBe(0);
  });
});
