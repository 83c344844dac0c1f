// Wiring of the Lease controller: a timer every renew interval is its only trigger (watching the Lease would wake it
// on its own renewals).
import { controllerFor, timerSource, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { LeaseNamespace, LeaseReconciler, leaseName } from './reconciler.js';

/** The controller's name (Gardener's). */
export const ControllerName = 'lease';
/** How often the Lease is renewed by default. */
export const DefaultRenewIntervalMs = 10_000;

/** Adds the controller to `mgr` (its default cluster is the shoot). */
export function addLeaseController(mgr: Manager, deps: { nodeName: string; renewIntervalMs?: number }): Controller {
  const request = { namespace: LeaseNamespace, name: leaseName(deps.nodeName) };
  return controllerFor(mgr, ControllerName)
    .watchesRawSource(timerSource(deps.renewIntervalMs ?? DefaultRenewIntervalMs, () => [request], { immediate: true }))
    .withOptions({ needLeaderElection: false })
    .complete(new LeaseReconciler({ client: mgr.cluster().api, nodeName: deps.nodeName }));
}
