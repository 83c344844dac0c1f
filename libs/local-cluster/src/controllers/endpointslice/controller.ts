// Wiring of the EndpointSlice controller: Services, the slices they own, and the pods they select.
import { controllerFor } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { EndpointSliceKind, PodKind, ServiceKind } from '../shared/kinds.js';
import { servicesSelecting } from '../shared/service-pods.js';
import { EndpointSliceReconciler } from './reconcile.js';

export function addEndpointSliceController(ctx: ControllerContext): void {
  controllerFor(ctx.mgr, 'endpointslice')
    .for(ServiceKind)
    .owns(EndpointSliceKind)
    .watches(PodKind, (pod) => servicesSelecting(ctx.cache, pod))
    .withOptions({ maxConcurrentReconciles: 5, needLeaderElection: false })
    .complete(new EndpointSliceReconciler(ctx));
}
