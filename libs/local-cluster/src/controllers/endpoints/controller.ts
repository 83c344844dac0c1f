// Wiring of the Endpoints controller: Services, their Endpoints, and the pods they select.
import { controllerFor } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { EndpointsKind, PodKind, ServiceKind } from '../shared/kinds.js';
import { servicesSelecting } from '../shared/service-pods.js';
import { EndpointsReconciler } from './reconcile.js';

export function addEndpointsController(ctx: ControllerContext): void {
  controllerFor(ctx.mgr, 'endpoints')
    .for(ServiceKind)
    .watches(EndpointsKind, (ep) => [{ namespace: ep.metadata!.namespace!, name: ep.metadata!.name! }])
    .watches(PodKind, (pod) => servicesSelecting(ctx.cache, pod))
    .withOptions({ maxConcurrentReconciles: 5, needLeaderElection: false })
    .complete(new EndpointsReconciler(ctx));
}
