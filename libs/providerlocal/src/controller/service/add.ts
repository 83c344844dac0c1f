// Wiring of provider-local's Service controller: Services of the seed labelled as an istio ingress gateway (Gardener's
// selectors: `app=istio-ingressgateway`, `istio=ingressgateway` or `ingressgateway--zone--<0..2>`) or as a shoot's
// kube-apiserver exposed by its own LoadBalancer (`app=kubernetes`, `role=apiserver`, not exposed by Gardener's
// istio — `core.gardener.cloud/apiserver-exposure!=gardener-managed`; Gardener's selector from before SNI, which is
// how gardener-ts exposes a shoot's API server).
import { Kinds, controllerFor, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import type { LoadBalancerAddresses } from './desired.js';
import { ServiceReconciler } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'service';

const IstioGatewayLabels = new Set(['ingressgateway', ...[0, 1, 2].map((z) => `ingressgateway--zone--${z}`)]);
const APIServerExposureLabel = 'core.gardener.cloud/apiserver-exposure';

/** Whether the controller looks at a Service with these labels. */
export function isServedService(labels: Record<string, string> | undefined): boolean {
  if (!labels) return false;
  if (labels.app === 'istio-ingressgateway' && IstioGatewayLabels.has(labels.istio ?? '')) return true;
  return (
    labels.app === 'kubernetes' && labels.role === 'apiserver' && labels[APIServerExposureLabel] !== 'gardener-managed'
  );
}

/** Options of the Service controller. */
export type ServiceControllerOptions = LoadBalancerAddresses;

/** Adds the Service controller to `mgr` (its default cluster is the seed). */
export function addServiceController(mgr: Manager, options: ServiceControllerOptions = {}): Controller {
  return controllerFor(mgr, ControllerName)
    .for(Kinds.Service, { predicates: [(event) => isServedService(event.object.metadata?.labels)] })
    .withOptions({ maxConcurrentReconciles: 5 })
    .complete(new ServiceReconciler(mgr.cluster().client, options));
}
