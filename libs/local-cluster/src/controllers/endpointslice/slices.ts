// The EndpointSlices a Service should have: one per set of resolved ports, at most 100 endpoints each, with
// ready/serving/terminating conditions per pod (terminating pods are listed, unlike in Endpoints).
import type { EndpointSlice, Pod, Service } from '../shared/kinds.js';
import { isPodReady } from '../shared/pods.js';
import { podReference, resolveTargetPort } from '../shared/service-pods.js';

export const MAX_ENDPOINTS_PER_SLICE = 100;

type Endpoint = EndpointSlice['endpoints'][number];
type Port = NonNullable<EndpointSlice['ports']>[number];

export interface DesiredSlice {
  ports: Port[];
  endpoints: Endpoint[];
}

export function desiredSlices(service: Service, pods: Pod[]): DesiredSlice[] {
  const publishNotReady = !!service.spec?.publishNotReadyAddresses;
  const groups = new Map<string, DesiredSlice>();
  for (const pod of pods) {
    const ports = slicePorts(service, pod);
    if (!ports) continue;
    const key = JSON.stringify(ports);
    const group = groups.get(key) ?? groups.set(key, { ports, endpoints: [] }).get(key)!;
    const terminating = !!pod.metadata?.deletionTimestamp;
    const serving = isPodReady(pod);
    const endpoint: Endpoint = {
      addresses: [pod.status!.podIP!],
      // A terminating pod is never ready, unless every address is published regardless.
      conditions: { ready: publishNotReady || (serving && !terminating), serving, terminating },
      targetRef: podReference(pod),
    };
    if (pod.spec?.nodeName) endpoint.nodeName = pod.spec.nodeName;
    if (pod.spec?.hostname && pod.spec.subdomain === service.metadata?.name) endpoint.hostname = pod.spec.hostname;
    group.endpoints.push(endpoint);
  }
  const slices: DesiredSlice[] = [];
  for (const g of groups.values()) {
    g.endpoints.sort((a, b) => (a.addresses[0] < b.addresses[0] ? -1 : 1));
    for (let i = 0; i < g.endpoints.length; i += MAX_ENDPOINTS_PER_SLICE)
      slices.push({ ports: g.ports, endpoints: g.endpoints.slice(i, i + MAX_ENDPOINTS_PER_SLICE) });
  }
  return slices;
}

function slicePorts(service: Service, pod: Pod): Port[] | undefined {
  const servicePorts = service.spec?.ports ?? [];
  const ports: Port[] = [];
  for (const sp of servicePorts) {
    const port = resolveTargetPort(sp, pod);
    if (port === undefined) continue;
    ports.push({
      name: sp.name ?? '',
      port,
      protocol: sp.protocol ?? 'TCP',
      ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}),
    });
  }
  return servicePorts.length === 0 || ports.length ? ports : undefined;
}
