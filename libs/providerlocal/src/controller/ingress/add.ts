// Wiring of provider-local's Ingress controller: Ingresses of the seed (the reconciler looks at those of shoot
// namespaces only), and the DNSRecords they own, so a record that is removed or changed is applied again.
import { Kinds, controllerFor, kind, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { IngressReconciler } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'ingress';

/** Adds the Ingress controller to `mgr` (its default cluster is the seed). */
export function addIngressController(mgr: Manager): Controller {
  return controllerFor(mgr, ControllerName)
    .for(Kinds.Ingress)
    .owns(kind('extensions.gardener.cloud/v1alpha1', 'DNSRecord'))
    .complete(new IngressReconciler(mgr.cluster().client));
}
