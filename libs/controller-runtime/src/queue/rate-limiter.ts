// How long an item waits before it is retried: per-item exponential back-off, an overall token bucket, or the max.
import { realClock, type Clock } from './clock.js';

export interface RateLimiter {
  /** Delay in milliseconds before `key` may be processed again; counts as one more failure of `key`. */
  when(key: string): number;
  /** Clears the failure history of `key` (call after a success). */
  forget(key: string): void;
  numRequeues(key: string): number;
}

/** base·2^failures, capped; the client-go defaults are 5 ms and 1000 s. */
export class ItemExponentialRateLimiter implements RateLimiter {
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly baseMs = 5,
    private readonly maxMs = 1_000_000,
  ) {
    if (!(baseMs > 0) || !(maxMs >= baseMs)) throw new Error(`back-off needs 0 < base (${baseMs}) <= max (${maxMs})`);
  }

  when(key: string): number {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    return Math.min(this.baseMs * 2 ** n, this.maxMs);
  }

  forget(key: string): void {
    this.failures.delete(key);
  }

  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }
}

/** A token bucket over all items: `qps` tokens a second, at most `burst` saved up. Each call reserves one token. */
export class BucketRateLimiter implements RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps = 10,
    private readonly burst = 100,
    private readonly clock: Clock = realClock,
  ) {
    if (!(qps > 0) || !(burst >= 1)) throw new Error(`token bucket needs qps > 0 (${qps}) and burst >= 1 (${burst})`);
    this.tokens = burst;
    this.last = clock.now();
  }

  when(): number {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.qps;
  }

  forget(): void {}

  numRequeues(): number {
    return 0;
  }
}

/** The longest delay of several limiters. */
export class MaxOfRateLimiter implements RateLimiter {
  private readonly limiters: RateLimiter[];

  constructor(...limiters: RateLimiter[]) {
    this.limiters = limiters;
  }

  when(key: string): number {
    return Math.max(...this.limiters.map((l) => l.when(key)));
  }

  forget(key: string): void {
    for (const l of this.limiters) l.forget(key);
  }

  numRequeues(key: string): number {
    return Math.max(...this.limiters.map((l) => l.numRequeues(key)));
  }
}

/** client-go's default controller rate limiter: max(5 ms·2^n capped at 1000 s, 10 qps with burst 100). */
export function defaultControllerRateLimiter(clock: Clock = realClock): RateLimiter {
  return new MaxOfRateLimiter(new ItemExponentialRateLimiter(5, 1_000_000), new BucketRateLimiter(10, 100, clock));
}
