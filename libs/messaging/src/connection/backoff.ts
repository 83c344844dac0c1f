// Exponential reconnect back-off with jitter, so a fleet of components that lost NATS at the same moment does not
// reconnect in lock-step.
export interface BackoffOptions {
  /** First delay; default 250 ms. */
  initialDelayMs?: number;
  /** Cap of the delay; default 30 s. */
  maxDelayMs?: number;
}

export class JitteredBackoff {
  private attempt = 0;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;

  constructor(
    options: BackoffOptions = {},
    private readonly random: () => number = Math.random,
  ) {
    this.initialDelayMs = options.initialDelayMs ?? 250;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    if (!(this.initialDelayMs > 0) || !(this.maxDelayMs >= this.initialDelayMs)) {
      throw new RangeError(`invalid back-off: initialDelayMs ${this.initialDelayMs}, maxDelayMs ${this.maxDelayMs}`);
    }
  }

  /** The next delay: half of the capped exponential delay, plus up to the other half at random. */
  next(): number {
    const ceiling = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** Math.min(this.attempt, 30));
    this.attempt++;
    return Math.round(ceiling / 2 + (this.random() * ceiling) / 2);
  }

  reset(): void {
    this.attempt = 0;
  }
}
