// The subsets of a Service's Endpoints: pod addresses (ready ones, and not-ready ones apart) grouped by the ports
// they serve.
import type { Endpoints, Pod, Service } from '../shared/kinds.js';
import { isPodReady } from '../shared/pods.js';
import { podReference, resolveTargetPort } from '../shared/service-pods.js';

type Subset = NonNullable<Endpoints['subsets']>[number];
type Address = NonNullable<Subset['addresses']>[number];
type Port = NonNullable<Subset['ports']>[number];

export function endpointSubsets(service: Service, pods: Pod[]): Subset[] {
  const publishNotReady = !!service.spec?.publishNotReadyAddresses;
  const groups = new Map<string, { ports: Port[]; ready: Address[]; notReady: Address[] }>();
  for (const pod of pods) {
    // Endpoints never list terminating pods, unless they are published regardless of readiness.
    if (pod.metadata?.deletionTimestamp && !publishNotReady) continue;
    const ports = resolvePorts(service, pod);
    if (!ports) continue;
    const key = JSON.stringify(ports);
    const group = groups.get(key) ?? groups.set(key, { ports, ready: [], notReady: [] }).get(key)!;
    const address: Address = { ip: pod.status!.podIP!, targetRef: podReference(pod) };
    if (pod.spec?.nodeName) address.nodeName = pod.spec.nodeName;
    if (pod.spec?.hostname && pod.spec.subdomain === service.metadata?.name) address.hostname = pod.spec.hostname;
    (publishNotReady || isPodReady(pod) ? group.ready : group.notReady).push(address);
  }
  return [...groups.values()]
    .map((g) => {
      const byIp = (a: Address, b: Address) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0);
      const subset: Subset = {};
      if (g.ready.length) subset.addresses = g.ready.sort(byIp);
      if (g.notReady.length) subset.notReadyAddresses = g.notReady.sort(byIp);
      if (g.ports.length) subset.ports = g.ports;
      return subset;
    })
    .sort((a, b) => JSON.stringify(a.ports ?? []).localeCompare(JSON.stringify(b.ports ?? [])));
}

/** The Endpoints ports of a pod, or undefined if the pod serves none of the Service's ports. */
function resolvePorts(service: Service, pod: Pod): Port[] | undefined {
  const servicePorts = service.spec?.ports ?? [];
  if (servicePorts.length === 0) return [];
  const ports: Port[] = [];
  for (const sp of servicePorts) {
    const port = resolveTargetPort(sp, pod);
    if (port === undefined) continue;
    ports.push({
      ...(sp.name ? { name: sp.name } : {}),
      port,
      protocol: sp.protocol ?? 'TCP',
      ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}),
    });
  }
  return ports.length ? ports : undefined;
}
