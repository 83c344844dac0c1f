// How soon a Pod's volumes are set up again after they could not be (a Secret, ConfigMap or key not there yet). kube's
// volume operations back off from 500 ms, doubling up to two minutes (nestedpendingoperations); here from 250 ms up to
// half a second (MOUNT_RETRY_MAX_MS), so a Secret that appears a moment later is mounted a moment later. Gardener
// creates a shoot's kube-controller-manager and kube-scheduler Deployments together with their access Secrets, whose
// `token` the shoot's gardener-resource-manager fills in a second later: with kube's doubling those Pods started two
// seconds after their token was there, and the shoot's nodes waited for that kube-controller-manager to sign their
// certificates. A read of a Secret or ConfigMap costs the local API server little; a Pod waits this way only until
// its volumes are there.

/** The first wait after a failed volume setup. */
export const FIRST_MOUNT_RETRY_MS = 250;
/** The longest wait between two attempts to set up a Pod's volumes. */
export const MOUNT_RETRY_MAX_MS = 500;

/** The waits between attempts to set up one Pod's volumes: 250 ms doubling up to `maxMs`; `reset` after a success. */
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
