// A deduplicating work queue with delayed and rate-limited adds.
//
// A key is in at most one of two places: waiting in the queue, or being processed. Adding a key that is being
// processed marks it dirty; `done` puts it back in the queue. So no key is ever handed to two workers at once,
// and a change that arrives during processing is never lost.
import type { Registry } from 'prom-client';
import { realClock, type Clock } from './clock.js';
import { queueMetricFamilies, type QueueGaugeSource, type QueueMetricFamilies } from './metrics.js';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.js';

export interface WorkQueueOptions {
  /** Names the queue in metrics (the controller name). */
  name?: string;
  /** Where the workqueue_* metrics go; none without it. */
  metrics?: Registry;
  rateLimiter?: RateLimiter;
  clock?: Clock;
}

export class WorkQueue implements QueueGaugeSource {
  readonly name: string;
  private readonly clock: Clock;
  private readonly rateLimiter: RateLimiter;
  private readonly metrics?: QueueMetricFamilies;
  private readonly labels: { controller: string; name: string };

  private readonly queue: string[] = [];
  private head = 0;
  /** Keys that need processing: queued, or added again while being processed. */
  private readonly dirty = new Set<string>();
  /** Keys handed to a worker and not yet done, with when each started. */
  private readonly processing = new Map<string, number>();
  /** When each queued key was first added (queue latency). */
  private readonly addedAt = new Map<string, number>();
  /** Keys waiting for a delayed add, with their due time and timer. */
  private readonly delayed = new Map<string, { at: number; timer: unknown }>();
  private readonly waiters: ((key: string | undefined) => void)[] = [];
  private shuttingDown = false;
  private drained?: () => void;

  constructor(options: WorkQueueOptions = {}) {
    this.name = options.name ?? 'queue';
    this.clock = options.clock ?? realClock;
    this.rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter(this.clock);
    this.labels = { controller: this.name, name: this.name };
    if (options.metrics) {
      this.metrics = queueMetricFamilies(options.metrics);
      this.metrics.sources.add(this);
    }
  }

  /** Keys waiting in the queue (not counting those being processed or delayed). */
  get length(): number {
    return this.queue.length - this.head;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.metrics?.adds.inc(this.labels);
    this.dirty.add(key);
    if (this.processing.has(key)) return;
    this.enqueue(key);
  }

  /** Adds `key` after `delayMs`; an earlier pending add of the same key wins. */
  addAfter(key: string, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) return this.add(key);
    const at = this.clock.now() + delayMs;
    const pending = this.delayed.get(key);
    if (pending && pending.at <= at) return;
    if (pending) this.clock.clearTimeout(pending.timer);
    const timer = this.clock.setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, delayMs);
    this.delayed.set(key, { at, timer });
  }

  /** Adds `key` after the rate limiter's delay: per-key back-off combined with the overall limit. */
  addRateLimited(key: string): void {
    this.metrics?.retries.inc(this.labels);
    this.addAfter(key, this.rateLimiter.when(key));
  }

  /** Resets the back-off of `key` (after it was processed successfully). */
  forget(key: string): void {
    this.rateLimiter.forget(key);
  }

  numRequeues(key: string): number {
    return this.rateLimiter.numRequeues(key);
  }

  /**
   * The next key to process, once there is one; `undefined` after shutdown. The caller owns the key until it
   * calls `done(key)`.
   */
  get(): Promise<string | undefined> {
    if (this.shuttingDown) return Promise.resolve(undefined);
    if (this.length > 0) return Promise.resolve(this.take());
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Marks `key` processed; if it was added again meanwhile, it goes back in the queue. */
  done(key: string): void {
    const started = this.processing.get(key);
    if (started === undefined) return;
    this.processing.delete(key);
    this.metrics?.workDuration.observe(this.labels, (this.clock.now() - started) / 1000);
    if (this.dirty.has(key) && !this.shuttingDown) this.enqueue(key);
    if (this.shuttingDown && this.processing.size === 0) this.drained?.();
  }

  /**
   * Stops the queue: no more adds, `get` answers `undefined` (queued keys are dropped) and pending delayed adds
   * are cancelled. Resolves once every key being processed is done.
   */
  shutdown(): Promise<void> {
    this.shuttingDown = true;
    for (const { timer } of this.delayed.values()) this.clock.clearTimeout(timer);
    this.delayed.clear();
    for (const waiter of this.waiters.splice(0)) waiter(undefined);
    this.metrics?.sources.delete(this);
    this.metrics?.depth.set(this.labels, 0);
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.drained = resolve));
  }

  unfinishedWorkSeconds(): number {
    const now = this.clock.now();
    let total = 0;
    for (const started of this.processing.values()) total += now - started;
    return total / 1000;
  }

  longestRunningProcessorSeconds(): number {
    const now = this.clock.now();
    let longest = 0;
    for (const started of this.processing.values()) longest = Math.max(longest, now - started);
    return longest / 1000;
  }

  private enqueue(key: string): void {
    this.addedAt.set(key, this.clock.now());
    const waiter = this.waiters.shift();
    if (waiter) {
      this.queue.push(key);
      waiter(this.take());
      return;
    }
    this.queue.push(key);
    this.metrics?.depth.set(this.labels, this.length);
  }

  private take(): string {
    const key = this.queue[this.head++];
    // Compact now and then instead of shifting the array on every take.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    this.dirty.delete(key);
    const now = this.clock.now();
    this.processing.set(key, now);
    this.metrics?.queueDuration.observe(this.labels, (now - (this.addedAt.get(key) ?? now)) / 1000);
    this.addedAt.delete(key);
    this.metrics?.depth.set(this.labels, this.length);
    return key;
  }
}
