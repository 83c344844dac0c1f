// What the Endpoints and EndpointSlice controllers share: which pods back a Service, and the port each Service
// port reaches on a pod (a named targetPort resolves through the pod's container ports).
import type { InformerCache, Request } from '@gardener-ts/controller-runtime';
import { type Pod, PodKind, type Service, ServiceKind } from './kinds.js';

export type ServicePort = NonNullable<NonNullable<Service['spec']>['ports']>[number];

/** The pods selected by the Service that have an IP and are not finished. */
export async function podsOfService(cache: InformerCache, service: Service): Promise<Pod[]> {
  const selector = service.spec?.selector ?? {};
  const pods = (await cache.list(PodKind, { namespace: service.metadata?.namespace })).items;
  return pods.filter(
    (p) =>
      Object.entries(selector).every(([k, v]) => p.metadata?.labels?.[k] === v) &&
      !!p.status?.podIP &&
      p.status.phase !== 'Succeeded' &&
      p.status.phase !== 'Failed',
  );
}

/** The port number `port` reaches on `pod`, or undefined if a named targetPort names no container port of it. */
export function resolveTargetPort(port: ServicePort, pod: Pod): number | undefined {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  for (const c of pod.spec?.containers ?? []) {
    const found = c.ports?.find((p) => p.name === target && (p.protocol ?? 'TCP') === (port.protocol ?? 'TCP'));
    if (found) return found.containerPort;
  }
  return undefined;
}

/** Services with a selector are the ones whose endpoints the controllers manage. */
export const managesEndpoints = (service: Service) =>
  !!service.spec?.selector && Object.keys(service.spec.selector).length > 0 && service.spec.type !== 'ExternalName';

/** Requests for the Services in the pod's namespace whose selector matches it. */
export function servicesSelecting(cache: InformerCache, pod: Pod): Request[] {
  const namespace = pod.metadata?.namespace ?? '';
  return cache
    .informerFor(ServiceKind)
    .store.byIndex('namespace', namespace)
    .filter(
      (s) =>
        managesEndpoints(s) && Object.entries(s.spec!.selector!).every(([k, v]) => pod.metadata?.labels?.[k] === v),
    )
    .map((s) => ({ namespace, name: s.metadata!.name! }));
}

export function podReference(pod: Pod) {
  return { kind: 'Pod', name: pod.metadata?.name, namespace: pod.metadata?.namespace, uid: pod.metadata?.uid };
}
