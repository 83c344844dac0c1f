// Client-side rate limiting as client-go's rest.Config QPS/Burst: a token bucket holding up to `burst` tokens, refilled
// at `qps` a second, starting full; every request (not watches) takes one token, waiting for it when none is left.
// Waiters are served in order: each reserves a token (the balance may go negative) and sleeps until it is due.
import { realClock, type Clock } from '../queue/clock.js';

/** componentbaseconfig.ClientConnectionConfiguration's qps and burst. */
export interface ClientRateLimit {
  /** Requests a second; 0 means client-go's default (5); negative disables rate limiting. */
  qps: number;
  /** Requests allowed at once above the rate; 0 means client-go's default (10). */
  burst: number;
}

/** client-go's rest.DefaultQPS and rest.DefaultBurst, used when qps or burst is 0. */
export const DEFAULT_QPS = 5;
export const DEFAULT_BURST = 10;

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    readonly burst: number,
    private readonly clock: Clock = realClock,
  ) {
    if (!(qps > 0) || !Number.isFinite(qps)) throw new Error(`a token bucket needs a positive qps, got ${qps}`);
    if (!Number.isInteger(burst) || burst < 1)
      throw new Error(`a token bucket needs a burst of at least 1, got ${burst}`);
    this.tokens = burst;
    this.last = clock.now();
  }

  /** Takes one token; returns how many milliseconds the caller must wait before it may go ahead (0: at once). */
  reserve(): number {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.qps;
  }

  /** Waits for a token. If `signal` aborts first, the token is given back and the promise rejects. */
  wait(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const delay = this.reserve();
    if (delay <= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.clock.clearTimeout(handle);
        this.tokens = Math.min(this.burst, this.tokens + 1);
        reject(abortError(signal!));
      };
      const handle = this.clock.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, delay);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/**
 * The bucket a rest.Config with these settings would get: none when `limit` is absent (controller-runtime turns
 * client-side rate limiting off unless asked, relying on API Priority and Fairness) or its qps is negative; client-go's
 * defaults for a qps or burst of 0.
 */
export function clientRateLimiter(limit: ClientRateLimit | undefined, clock?: Clock): TokenBucket | undefined {
  if (!limit || limit.qps < 0) return undefined;
  return new TokenBucket(
    limit.qps === 0 ? DEFAULT_QPS : limit.qps,
    limit.burst === 0 ? DEFAULT_BURST : limit.burst,
    clock,
  );
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error
    ? signal.reason
    : new Error('request aborted while waiting for the client-side rate limiter');
}
