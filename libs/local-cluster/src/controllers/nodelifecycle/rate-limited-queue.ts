// kube's RateLimitedTimedQueue (pkg/controller/nodelifecycle/scheduler): a queue of node names, each at most once,
// worked off in order through a token bucket, so the node lifecycle controller NoExecute-taints at most so many nodes
// per second in a zone. The clock is injected; nothing here sleeps.

/** kube's EvictionRateLimiterBurst: one token at most, so a zone never taints a burst of nodes at once. */
export const EVICTION_BURST = 1;

/** A token bucket (client-go's flowcontrol token bucket): `qps` tokens a second up to `burst`, full when created. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    private readonly now: () => number,
    private readonly burst = EVICTION_BURST,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Takes a token if one is there; never waits. A bucket of qps 0 or less never gives one (kube's "never" limiter). */
  tryAccept(): boolean {
    if (this.qps <= 0) return false;
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + (Math.max(0, now - this.last) * this.qps) / 1000);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

export interface TimedValue {
  value: string;
  uid?: string;
  addedAt: number;
  processAt: number;
}

/** What `try` does with one value: true when done (it leaves the queue), else false and when to look again. */
export type TryResult = boolean | { done: false; retryAfterMs: number };

export class RateLimitedTimedQueue {
  private readonly items = new Map<string, TimedValue>();
  private limiter: TokenBucket;

  constructor(
    qps: number,
    private readonly now: () => number,
  ) {
    this.limiter = new TokenBucket(qps, now);
  }

  get qps(): number {
    return this.limiter.qps;
  }

  get size(): number {
    return this.items.size;
  }

  has(value: string): boolean {
    return this.items.has(value);
  }

  /** Queues the value to be processed now; false when it is queued already (it keeps its place). */
  add(value: string, uid?: string): boolean {
    if (this.items.has(value)) return false;
    const now = this.now();
    this.items.set(value, { value, uid, addedAt: now, processAt: now });
    return true;
  }

  remove(value: string): boolean {
    return this.items.delete(value);
  }

  /**
   * Replaces the limiter by one of `qps` (0 or less: nothing passes) unless the rate is the same. When the old bucket
   * is empty the new one starts empty too, so switching rates never hands out an extra token (kube's drain for burst 1).
   */
  swapLimiter(qps: number): void {
    const newQps = qps > 0 ? qps : 0;
    if (newQps === this.limiter.qps) return;
    const next = new TokenBucket(newQps, this.now);
    if (newQps > 0 && !this.limiter.tryAccept()) next.tryAccept();
    this.limiter = next;
  }

  /**
   * Works off the queue in order of processAt (then insertion) while tokens last: each value costs a token — taken
   * before looking whether the head is due, as kube does. A value `fn` is not done with goes back with a later processAt.
   */
  async try(fn: (value: TimedValue) => Promise<TryResult>): Promise<void> {
    for (let head = this.head(); head; head = this.head()) {
      if (!this.limiter.tryAccept()) return;
      const now = this.now();
      if (now < head.processAt) return;
      const result = await fn(head);
      if (result === true) {
        if (this.items.get(head.value) === head) this.items.delete(head.value);
      } else if (this.items.get(head.value) === head) {
        const waitMs = result === false ? 0 : result.retryAfterMs;
        // Re-inserted so it sorts after values of the same processAt.
        this.items.delete(head.value);
        this.items.set(head.value, { ...head, processAt: now + waitMs + 1 });
      }
    }
  }

  private head(): TimedValue | undefined {
    let first: TimedValue | undefined;
    for (const v of this.items.values()) if (!first || v.processAt < first.processAt) first = v;
    return first;
  }
}
