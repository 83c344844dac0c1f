import { describe, expect, it } from 'vitest';
import { DefaultCertificateSyncPeriodMs } from '../certificate/reconciler.js';
import { WebhookCertificateReloader } from './reconciler.js';

describe('WebhookCertificateReloader', () => {
  it('reloads the certificate every sync period, whether or not it changed', async () => {
    const results = [true, false];
    let reloads = 0;
    const reloader = new WebhookCertificateReloader({
      webhooks: { reloadCertificate: async () => results[reloads++]! },
    });
    expect(await reloader.reconcile()).toEqual({ requeueAfter: DefaultCertificateSyncPeriodMs });
    expect(await reloader.reconcile()).toEqual({ requeueAfter: DefaultCertificateSyncPeriodMs });
    expect(reloads).toBe(2);
  });

  it('throws a failed read for back-off', async () => {
    const reloader = new WebhookCertificateReloader({
      webhooks: { reloadCertificate: () => Promise.reject(new Error('secrets "x" is forbidden')) },
      syncPeriodMs: 1000,
    });
    await expect(reloader.reconcile()).rejects.toThrow(/forbidden/);
  });
});
