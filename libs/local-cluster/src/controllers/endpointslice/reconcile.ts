// The EndpointSlice controller: keeps a selector Service's slices (labelled for the Service and managed by
// endpointslice-controller.k8s.io, owned by the Service) in line with the pods it selects.
import { ignoreNotFound, type ReconcileResult, type Request } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { canonicalJson } from '../shared/hash.js';
import { type EndpointSlice, EndpointSliceKind, type Service, ServiceKind } from '../shared/kinds.js';
import { controllerRef } from '../shared/owner.js';
import { managesEndpoints, podsOfService } from '../shared/service-pods.js';
import { type DesiredSlice, desiredSlices } from './slices.js';
import { SliceTracker } from './tracker.js';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const MANAGED_BY = 'endpointslice-controller.k8s.io';

export class EndpointSliceReconciler {
  private readonly tracker = new SliceTracker();

  constructor(private readonly ctx: ControllerContext) {}

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const key = `${req.namespace}/${req.name}`;
    const service = await this.ctx.client.get(ServiceKind, req).catch(ignoreNotFound);
    // Slices of a deleted Service go with it (ownerReference); those of one that lost its selector are left alone, as in kube.
    if (!service || !managesEndpoints(service) || service.metadata?.deletionTimestamp) {
      this.tracker.forget(key);
      return;
    }
    const existing = (
      await this.ctx.client.list(EndpointSliceKind, {
        namespace: req.namespace,
        labelSelector: { [SERVICE_NAME_LABEL]: req.name, [MANAGED_BY_LABEL]: MANAGED_BY },
      })
    ).items;
    // The slice events still on their way enqueue this Service again.
    if (this.tracker.stale(key, existing)) return { requeueAfter: 1000 };
    const desired = desiredSlices(service, await podsOfService(this.ctx.cache, service));
    // A Service without endpoints still gets one empty slice.
    if (desired.length === 0) desired.push({ ports: [], endpoints: [] });

    const unused = [...existing];
    for (const want of desired) {
      // Reuse a slice with the same ports (the same content needs no write at all), else any slice left over.
      const samePorts = unused.findIndex((s) => canonicalJson(s.ports ?? []) === canonicalJson(want.ports));
      const reuse = unused.length ? unused.splice(samePorts >= 0 ? samePorts : 0, 1)[0] : undefined;
      const slice = this.sliceFor(service, want, reuse);
      if (!reuse) this.tracker.wrote(key, await this.ctx.client.create(slice));
      else if (canonicalJson(reuse) !== canonicalJson(slice))
        this.tracker.wrote(key, await this.ctx.client.update(slice));
    }
    for (const s of unused) {
      await this.ctx.client
        .delete(EndpointSliceKind, { namespace: req.namespace, name: s.metadata!.name! })
        .catch(ignoreNotFound);
      this.tracker.deleted(key, s.metadata!.name!);
    }
  }

  private sliceFor(service: Service, want: DesiredSlice, reuse: EndpointSlice | undefined): EndpointSlice {
    const labels: Record<string, string> = {
      ...service.metadata?.labels,
      [SERVICE_NAME_LABEL]: service.metadata!.name!,
      [MANAGED_BY_LABEL]: MANAGED_BY,
    };
    if (service.spec?.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
    const metadata = reuse
      ? { ...structuredClone(reuse.metadata), labels }
      : {
          generateName: `${service.metadata!.name}-`,
          namespace: service.metadata?.namespace,
          labels,
          ownerReferences: [controllerRef(service, ServiceKind)],
        };
    return {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata,
      addressType: 'IPv4',
      endpoints: want.endpoints,
      ports: want.ports,
    };
  }
}
