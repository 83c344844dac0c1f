import { describe, expect, it } from 'vitest';
import { RateLimitedTimedQueue, TokenBucket } from './rate-limited-queue.js';

/** A clock the test moves by hand. */
function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

/** Runs one pass, returning the values handled. */
async function pass(
  q: RateLimitedTimedQueue,
  result: (v: string) => boolean | { done: false; retryAfterMs: number } = () => true,
): Promise<string[]> {
  const seen: string[] = [];
  await q.try(async (v) => {
    seen.push(v.value);
    return result(v.value);
  });
  return seen;
}

describe('TokenBucket', () => {
  it('starts full with one token and refills at qps', () => {
    const c = clock();
    const b = new TokenBucket(0.1, c.now);
    expect(b.tryAccept()).toBe(true);
    expect(b.tryAccept()).toBe(false);
    c.advance(9_999);
    expect(b.tryAccept()).toBe(false);
    c.advance(1);
    expect(b.tryAccept()).toBe(true);
    // Burst 1: a long wait still gives only one token.
    c.advance(60_000);
    expect(b.tryAccept()).toBe(true);
    expect(b.tryAccept()).toBe(false);
  });

  it('never gives a token at qps 0', () => {
    const b = new TokenBucket(0, clock().now);
    expect(b.tryAccept()).toBe(false);
  });
});

describe('RateLimitedTimedQueue', () => {
  it('hands out one value per 10 s at 0.1/s, in order, each value once', async () => {
    const c = clock();
    const q = new RateLimitedTimedQueue(0.1, c.now);
    expect(q.add('a')).toBe(true);
    c.advance(1);
    expect(q.add('b')).toBe(true);
    expect(q.add('a')).toBe(false);
    expect(await pass(q)).toEqual(['a']);
    c.advance(5_000);
    expect(await pass(q)).toEqual([]);
    c.advance(5_000);
    expect(await pass(q)).toEqual(['b']);
    expect(q.size).toBe(0);
  });

  it('requeues a value not done after its wait, behind the others', async () => {
    const c = clock();
    const q = new RateLimitedTimedQueue(1000, c.now);
    q.add('a');
    q.add('b');
    // Each call takes a millisecond, enough for the next token at 1000/s.
    const slow = (v: string) => (c.advance(1), v === 'a' ? { done: false as const, retryAfterMs: 500 } : true);
    expect(await pass(q, slow)).toEqual(['a', 'b']);
    expect(q.has('a')).toBe(true);
    c.advance(100);
    expect(await pass(q)).toEqual([]);
    c.advance(400);
    expect(await pass(q)).toEqual(['a']);
  });

  it('stops at rate 0 and resumes when the rate comes back, without an extra token after a drained bucket', async () => {
    const c = clock();
    const q = new RateLimitedTimedQueue(0.1, c.now);
    q.add('a');
    q.add('b');
    q.add('c');
    expect(await pass(q)).toEqual(['a']);
    q.swapLimiter(0);
    c.advance(60_000);
    expect(await pass(q)).toEqual([]);
    q.swapLimiter(0.1);
    // The stopped limiter had nothing to give, so the new one starts drained.
    expect(await pass(q)).toEqual([]);
    c.advance(10_000);
    expect(await pass(q)).toEqual(['b']);
    // Same rate: the limiter is kept as it is.
    q.swapLimiter(0.1);
    expect(await pass(q)).toEqual([]);
  });

  it('forgets removed values', async () => {
    const q = new RateLimitedTimedQueue(1000, clock().now);
    q.add('a');
    expect(q.remove('a')).toBe(true);
    expect(q.remove('a')).toBe(false);
    expect(await pass(q)).toEqual([]);
  });
});
