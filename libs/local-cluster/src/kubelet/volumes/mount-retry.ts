// How soon a Pod's volumes are set up again after they could not be (a Secret, ConfigMap or key not there yet), as
// kube's volume operations back off (nestedpendingoperations: 500 ms, doubling): here from 500 ms up to the kubelet's
// retry interval, so a Secret that appears a moment later is mounted a moment later.

/** The first wait after a failed volume setup (kube's initialDurationBeforeRetry). */
export const FIRST_MOUNT_RETRY_MS = 500;

/** The waits between attempts to set up one Pod's volumes: 500 ms doubling up to `maxMs`; `reset` after a success. */
export class MountRetry {
  private nextMs: number;

  constructor(private readonly maxMs: number) {
    this.nextMs = this.first();
  }

  /** The wait before the next attempt, and records the failure. */
  delay(): number {
    const wait = this.nextMs;
    this.nextMs = Math.min(this.nextMs * 2, this.maxMs);
    return wait;
  }

  /** The volumes were set up: the next failure waits the shortest time again. */
  reset(): void {
    this.nextMs = this.first();
  }

  private first(): number {
    return Math.min(FIRST_MOUNT_RETRY_MS, this.maxMs);
  }
}
