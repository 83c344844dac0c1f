// The webhook certificate reloader (Gardener's extension webhook certificate reloader): every sync period the serving
// certificate the leader's secrets manager keeps is read from its Secret and served when it changed. The leader renews
// the certificates (certificate/); the other replicas serve the same webhooks and need the renewed certificate too,
// or a shoot's API server stops trusting them once the old CA leaves the bundle.
import type { ReconcileResult } from '@gardener-ts/controller-runtime';
import { DefaultCertificateSyncPeriodMs } from '../certificate/reconciler.js';

/** What the reloader needs of the webhook server. */
export interface CertificateReload {
  /** Serves the certificate of the Secret when it differs from the served one; whether it did. */
  reloadCertificate(): Promise<boolean>;
}

/** Options of {@link WebhookCertificateReloader}. */
export interface WebhookCertificateReloaderOptions {
  webhooks: CertificateReload;
  /** How often to look (default Gardener's 5 minutes, the certificate reconciler's period). */
  syncPeriodMs?: number;
}

/** Serves the webhook server certificate the secrets manager keeps. */
export class WebhookCertificateReloader {
  constructor(private readonly options: WebhookCertificateReloaderOptions) {}

  /** Reloads once (a failure is thrown for back-off) and comes again after the sync period. */
  async reconcile(): Promise<ReconcileResult> {
    await this.options.webhooks.reloadCertificate();
    return { requeueAfter: this.options.syncPeriodMs ?? DefaultCertificateSyncPeriodMs };
  }
}
