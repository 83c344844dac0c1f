// The client-side token bucket on a fake clock: burst at once, then one request per 1/qps; client-go's defaults.
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../queue/clock.js';
import { DEFAULT_BURST, DEFAULT_QPS, TokenBucket, clientRateLimiter } from './rate-limit.js';

describe('TokenBucket', () => {
  it('lets a burst through at once, then one request every 1/qps seconds', () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket(10, 5, clock);
    const delays = Array.from({ length: 8 }, () => bucket.reserve());
    expect(delays.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(delays.slice(5).map((d) => Math.round(d))).toEqual([100, 200, 300]);
  });

  it('refills at qps up to burst, never more', () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket(2, 3, clock);
    for (let i = 0; i < 3; i++) expect(bucket.reserve()).toBe(0);
    expect(bucket.reserve()).toBe(500);
    clock.advance(10_000); // long idle: the bucket holds burst tokens again, not 20
    for (let i = 0; i < 3; i++) expect(bucket.reserve()).toBe(0);
    expect(bucket.reserve()).toBe(500);
    clock.advance(250); // half a token back
    expect(bucket.reserve()).toBe(750);
  });

  it('makes waiters wait in order until their token is due', async () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket(10, 1, clock);
    const done: number[] = [];
    const waits = [0, 1, 2].map((i) => bucket.wait().then(() => void done.push(i)));
    await Promise.resolve();
    await Promise.resolve();
    expect(done).toEqual([0]);
    clock.advance(99);
    await Promise.resolve();
    expect(done).toEqual([0]);
    clock.advance(1);
    await new Promise((r) => setImmediate(r));
    expect(done).toEqual([0, 1]);
    clock.advance(100);
    await Promise.all(waits);
    expect(done).toEqual([0, 1, 2]);
  });

  it('gives the token back when a waiter is aborted', async () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket(10, 1, clock);
    await bucket.wait();
    const abort = new AbortController();
    const waiting = bucket.wait(abort.signal);
    abort.abort();
    await expect(waiting).rejects.toThrow();
    expect(Math.round(bucket.reserve())).toBe(100);
  });

  it('rejects settings no bucket can serve', () => {
    expect(() => new TokenBucket(0, 1)).toThrow(/positive qps/);
    expect(() => new TokenBucket(1, 0)).toThrow(/burst of at least 1/);
  });
});

describe('clientRateLimiter', () => {
  it('is off without settings (controller-runtime) and for a negative qps (client-go)', () => {
    expect(clientRateLimiter(undefined)).toBeUndefined();
    expect(clientRateLimiter({ qps: -1, burst: 100 })).toBeUndefined();
  });

  it('uses client-go defaults for zero qps or burst', () => {
    const bucket = clientRateLimiter({ qps: 0, burst: 0 })!;
    expect([bucket.qps, bucket.burst]).toEqual([DEFAULT_QPS, DEFAULT_BURST]);
    expect([DEFAULT_QPS, DEFAULT_BURST]).toEqual([5, 10]);
    const custom = clientRateLimiter({ qps: 50, burst: 100 })!;
    expect([custom.qps, custom.burst]).toEqual([50, 100]);
  });
});
