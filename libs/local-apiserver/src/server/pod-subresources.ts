// pods/binding (how a scheduler places a Pod: spec.nodeName once, never moved) and pods/eviction (a delete that
// respects the Pod's PodDisruptionBudget).
import { ApiError, errors } from '../api/errors.js';
import { readBodyBuffer, sendJson, successStatus } from '../http/io.js';
import { decodeBody, type SubresourceHandler } from '../http/resource-handler.js';
import type { Registry } from '../registry/registry.js';
import { budgetApplies, budgetViolation, checkDisruptionBudget } from './disruption-budget.js';
import type { ObjectService } from './objects.js';

export function podBindingHandler(objects: ObjectService): SubresourceHandler {
  return async ({ req, res, definition, route, ctx }) => {
    if (req.method !== 'POST')
      throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
    const binding = decodeBody(req, definition, await readBodyBuffer(req));
    const node = binding.target?.name;
    if (!node) {
      throw errors.invalid('Binding', '', route.name, [
        { field: 'target.name', reason: 'FieldValueRequired', message: 'Required value' },
      ]);
    }
    const pod = await objects.get(definition, route.namespace, route.name);
    if (pod.metadata.deletionTimestamp)
      throw errors.conflict('pods', '', route.name, 'pod is being deleted, cannot be assigned to a host');
    if (pod.spec?.nodeName)
      throw errors.conflict(
        'pods',
        '',
        route.name,
        `pod ${route.name} is already assigned to node "${pod.spec.nodeName}"`,
      );
    const conditions = [
      ...(pod.status?.conditions ?? []).filter((c: { type: string }) => c.type !== 'PodScheduled'),
      {
        type: 'PodScheduled',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      },
    ];
    await objects.update(
      definition,
      route.namespace,
      route.name,
      { ...pod, spec: { ...pod.spec, nodeName: node } },
      ctx,
      'binding',
    );
    await objects.update(
      definition,
      route.namespace,
      route.name,
      { ...(await objects.get(definition, route.namespace, route.name)), status: { ...pod.status, conditions } },
      ctx,
      'status',
    );
    sendJson(res, 201, successStatus({}), ctx.warnings);
  };
}

export function podEvictionHandler(objects: ObjectService, registry: Registry): SubresourceHandler {
  return async ({ req, res, definition, route, ctx }) => {
    if (req.method !== 'POST')
      throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
    const eviction = decodeBody(req, definition, await readBodyBuffer(req));
    if (eviction.metadata?.name && eviction.metadata.name !== route.name) {
      throw new ApiError(400, 'BadRequest', `name in URL does not match name in Eviction object`);
    }
    const pod = await objects.get(definition, route.namespace, route.name);
    if (budgetApplies(pod)) {
      const check = await checkDisruptionBudget(registry, objects, pod);
      if (check.budget && check.healthy - check.desiredHealthy <= 0) throw budgetViolation(check);
    }
    await objects.delete(definition, route.namespace, route.name, eviction.deleteOptions ?? {}, ctx);
    sendJson(res, 201, successStatus({ name: route.name, kind: 'pods' }), ctx.warnings);
  };
}
