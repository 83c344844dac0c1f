// A small keyed work queue for the server's built-in controllers: deduplicated, one worker per key, retries
// with exponential back-off on failure.
export class KeyedQueue {
  private readonly pending = new Set<string>();
  private readonly active = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly process: (key: string) => Promise<void>,
    private readonly onError: (key: string, err: unknown) => void = () => {},
  ) {}

  add(key: string): void {
    if (this.stopped) return;
    if (this.active.has(key)) {
      this.pending.add(key);
      return;
    }
    if (this.pending.has(key)) return;
    this.pending.add(key);
    queueMicrotask(() => this.run(key));
  }

  addAfter(key: string, ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.add(key);
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private async run(key: string): Promise<void> {
    if (this.stopped || this.active.has(key) || !this.pending.has(key)) return;
    this.pending.delete(key);
    this.active.add(key);
    try {
      await this.process(key);
      this.failures.delete(key);
    } catch (err) {
      const n = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, n);
      this.onError(key, err);
      this.addAfter(key, Math.min(5 * 2 ** n, 10_000));
    } finally {
      this.active.delete(key);
      if (this.pending.has(key)) queueMicrotask(() => this.run(key));
      if (this.active.size === 0 && this.pending.size === 0) this.idleWaiters.splice(0).forEach((w) => w());
    }
  }

  /** Resolves when nothing is queued or running (for tests and orderly shutdown). */
  idle(): Promise<void> {
    if (this.active.size === 0 && this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.pending.clear();
  }
}
