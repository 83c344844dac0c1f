// The gardenlet's own health (Gardener's healthz.Manager behind the lease reconciler): healthy only while the last
// lease renewal succeeded and it is recent — a renewal loop that stalls turns unhealthy by itself after the
// configured time, so /healthz answers 500 and the liveness probe restarts the process.

/** Health set by the lease reconciler, expiring when not refreshed; healthy until started (a replica that does not lead). */
export class HealthManager {
  private started = false;
  private healthy = false;
  private lastSet = 0;

  /**
   * @param staleAfterMs how long a healthy state holds without a new report (leaseResyncSeconds × leaseResyncMissThreshold)
   * @param now the clock (ms)
   */
  constructor(
    private readonly staleAfterMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts judging (when this gardenlet leads and its lease reconciler runs): healthy now, expiring from here. */
  start(): void {
    this.started = true;
    this.set(true);
  }

  /** Records the outcome of a renewal. */
  set(healthy: boolean): void {
    this.healthy = healthy;
    this.lastSet = this.now();
  }

  /** True before `start`, and afterwards when the last renewal succeeded within `staleAfterMs`. */
  get(): boolean {
    if (!this.started) return true;
    return this.healthy && this.now() - this.lastSet <= this.staleAfterMs;
  }
}
