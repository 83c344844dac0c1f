// Wiring of the Lease controller: a timer every renew interval, and the creation of this machine's Node (the Lease is
// written as soon as the kubelet has registered the Node, not up to a renew interval later, so the shoot's care sees
// node-agent running at once). The Lease itself is not watched: that would wake the controller on its own renewals.
import { Kinds, controllerFor, timerSource, type Controller, type Manager } from '@gardener-ts/controller-runtime';
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
    .watches(Kinds.Node, (node) => (node.metadata?.name === deps.nodeName ? [request] : []), {
      predicates: [(event) => event.type === 'create'],
    })
    .withOptions({ needLeaderElection: false })
    .complete(new LeaseReconciler({ client: mgr.cluster().api, nodeName: deps.nodeName }));
}
