// gardener-node-agent's health check controller for the kubelet: every check asks the kubelet's `/healthz`
// (http://127.0.0.1:10248 by default); a kubelet unit that is not running (killed without Restart=, failed) is started,
// and one that answered unhealthy (or not at all) for `failureThreshold` checks in a row is restarted.
import type { ReconcileResult } from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import type { UnitManager } from '../../units/runner.js';

/** The kubelet's unit. */
export const KubeletUnit = 'kubelet.service';
/** The kubelet's default health endpoint. */
export const DefaultKubeletHealthURL = 'http://127.0.0.1:10248/healthz';

/** Options of the kubelet health check. */
export interface KubeletHealthCheckOptions {
  units: UnitManager;
  /** Whether the kubelet answers healthy; by default a GET of `DefaultKubeletHealthURL` with a 5 s timeout. */
  probe?: () => Promise<boolean>;
  /** Consecutive failed checks before a restart; 3 by default. */
  failureThreshold?: number;
  log?: Logger;
}

/** A probe that GETs `url` (5 s timeout) and is healthy on a 2xx answer. */
export function httpHealthProbe(url: string): () => Promise<boolean> {
  return async () => {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      return res.ok;
    } catch {
      return false;
    }
  };
}

const defaultProbe = httpHealthProbe(DefaultKubeletHealthURL);

/** The kubelet health check; one `reconcile` is one check. */
export class KubeletHealthCheckReconciler {
  private failures = 0;

  constructor(private readonly options: KubeletHealthCheckOptions) {}

  async reconcile(): Promise<ReconcileResult | void> {
    const { units, log } = this.options;
    const status = units.status(KubeletUnit);
    if (!status.enabled) {
      this.failures = 0;
      return; // no kubelet on this machine (yet)
    }
    if (status.activeState === 'inactive' || status.activeState === 'failed') {
      log?.info({ unit: KubeletUnit, state: status.activeState }, 'Kubelet is not running; starting it');
      this.failures = 0;
      await units.start(KubeletUnit);
      return;
    }
    if (status.activeState !== 'active') return; // restarting by its own policy
    if (await (this.options.probe ?? defaultProbe)()) {
      this.failures = 0;
      return;
    }
    this.failures++;
    if (this.failures < (this.options.failureThreshold ?? 3)) return;
    log?.info({ unit: KubeletUnit, failures: this.failures }, 'Kubelet is unhealthy; restarting it');
    this.failures = 0;
    await units.restart(KubeletUnit);
  }
}
