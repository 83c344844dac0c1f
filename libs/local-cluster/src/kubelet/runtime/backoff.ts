// Restart back-off per container, as the kubelet does it: the first restart is immediate, later ones wait `base`,
// doubling up to `max`; a container that ran for `resetAfter` without crashing starts over.

export interface BackOffSettings {
  baseMs: number;
  maxMs: number;
  resetAfterMs: number;
}

export const DEFAULT_BACKOFF: BackOffSettings = { baseMs: 10_000, maxMs: 300_000, resetAfterMs: 600_000 };

export class BackOff {
  private delayMs = 0;

  constructor(private readonly settings: BackOffSettings) {}

  /** The wait before the next start of a container that ran for `ranMs`, and records the failure. */
  next(ranMs: number): number {
    if (ranMs >= this.settings.resetAfterMs) this.delayMs = 0;
    const wait = this.delayMs;
    this.delayMs = this.delayMs === 0 ? this.settings.baseMs : Math.min(this.delayMs * 2, this.settings.maxMs);
    return wait;
  }
}
