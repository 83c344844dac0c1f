// Wiring of the webhook certificate reconciler: no watched kind, one request when the manager starts (controller-
// runtime's EnqueueOnce), then every sync period by its own requeue.
import { controllerFor, onceSource, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { WebhookCertificateReconciler, type CertificateRenewal } from './reconciler.js';

/** The controller's name, in logs and metrics. */
export const ControllerName = 'webhook-certificate';

/** Adds the webhook certificate reconciler for `webhooks` (the started webhook server) to `mgr`. */
export function addWebhookCertificateController(
  mgr: Manager,
  deps: { webhooks: CertificateRenewal; syncPeriodMs?: number },
): Controller {
  return controllerFor(mgr, ControllerName)
    .watchesRawSource(onceSource({ namespace: '', name: ControllerName }))
    .complete(new WebhookCertificateReconciler({ ...deps, client: mgr.cluster().api }));
}
