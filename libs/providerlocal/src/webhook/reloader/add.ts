// Wiring of the webhook certificate reloader: no watched kind, one request when the manager starts, then every sync
// period by its own requeue — on every replica, leader or not (the webhooks are served by all of them).
import { controllerFor, onceSource, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { WebhookCertificateReloader, type CertificateReload } from './reconciler.js';

/** The controller's name, in logs and metrics. */
export const ControllerName = 'webhook-certificate-reloader';

/** Adds the webhook certificate reloader for `webhooks` (the started webhook server) to `mgr`. */
export function addWebhookCertificateReloader(
  mgr: Manager,
  deps: { webhooks: CertificateReload; syncPeriodMs?: number },
): Controller {
  return controllerFor(mgr, ControllerName)
    .withOptions({ needLeaderElection: false })
    .watchesRawSource(onceSource({ namespace: '', name: ControllerName }))
    .complete(new WebhookCertificateReloader(deps));
}
