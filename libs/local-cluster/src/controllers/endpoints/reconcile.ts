// The Endpoints controller: one Endpoints object per Service with a selector, named like the Service.
import { ignoreNotFound, type Request } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { canonicalJson } from '../shared/hash.js';
import { type Endpoints, EndpointsKind, ServiceKind } from '../shared/kinds.js';
import { managesEndpoints, podsOfService } from '../shared/service-pods.js';
import { rfc3339 } from '../shared/time.js';
import { endpointSubsets } from './subsets.js';

/** When the change that caused the last write happened; it also marks Endpoints as this controller's. */
const TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';

export class EndpointsReconciler {
  constructor(private readonly ctx: ControllerContext) {}

  async reconcile(req: Request): Promise<void> {
    const service = await this.ctx.client.get(ServiceKind, req).catch(ignoreNotFound);
    const current = await this.ctx.client.get(EndpointsKind, req).catch(ignoreNotFound);
    if (!service) {
      // Only Endpoints this controller wrote go with their Service; hand-made ones stay.
      if (current?.metadata?.annotations?.[TRIGGER_TIME])
        await this.ctx.client.delete(EndpointsKind, req).catch(ignoreNotFound);
      return;
    }
    if (!managesEndpoints(service)) return;
    const subsets = endpointSubsets(service, await podsOfService(this.ctx.cache, service));
    const labels: Record<string, string> = { ...service.metadata?.labels };
    if (service.spec?.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
    if (
      current &&
      canonicalJson(current.subsets ?? []) === canonicalJson(subsets) &&
      canonicalJson(current.metadata?.labels ?? {}) === canonicalJson(labels)
    )
      return;
    const desired: Endpoints = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: {
        ...(current ? structuredClone(current.metadata) : { name: req.name, namespace: req.namespace }),
        labels,
        annotations: { ...current?.metadata?.annotations, [TRIGGER_TIME]: rfc3339(this.ctx.now()) },
      },
      subsets,
    };
    if (current) await this.ctx.client.update(desired);
    else await this.ctx.client.create(desired);
  }
}
