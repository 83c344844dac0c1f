// Per-object token buckets: a hot loop emitting events for one object gets a burst, then one event per refill interval.
// Buckets of objects that have been quiet long enough to be full again are dropped, so memory stays bounded.
import type { Clock } from '../queue/clock.js';

export interface SpamFilterOptions {
  /** Events one object may emit at once (client-go: 25). */
  burst: number;
  /** One more event per this many milliseconds (client-go: 5 minutes). */
  refillMs: number;
}

export class SpamFilter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly options: SpamFilterOptions,
    private readonly clock: Clock,
  ) {
    if (!(options.burst >= 1) || !(options.refillMs > 0))
      throw new Error(`event spam filter needs burst >= 1 and refillMs > 0, got ${JSON.stringify(options)}`);
  }

  /** Takes a token for `key`; false means the event must be dropped. */
  allow(key: string): boolean {
    const now = this.clock.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.options.burst, at: now };
    bucket.tokens = Math.min(this.options.burst, bucket.tokens + (now - bucket.at) / this.options.refillMs);
    bucket.at = now;
    if (bucket.tokens < 1) {
      this.buckets.set(key, bucket);
      return false;
    }
    bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 4096) this.prune(now);
    return true;
  }

  private prune(now: number): void {
    const fullAfter = this.options.burst * this.options.refillMs;
    for (const [key, b] of this.buckets) if (now - b.at >= fullAfter) this.buckets.delete(key);
  }
}
