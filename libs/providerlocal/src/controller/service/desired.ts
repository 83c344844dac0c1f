// What provider-local's Service controller wants of a LoadBalancer Service in the seed (Gardener's
// pkg/controller/service reconciler, which provider-local runs): the istio ingress gateways get well-known node ports
// (where the local setup reaches them) — `tcp` 30443 and `tls-tunnel` 32132 for `istio-ingress`, 30444–30446 and
// 32133–32135 for the zone gateways `istio-ingress--<zone>`, `tcp` 31443 for `virtual-garden-istio-ingress` —,
// `externalTrafficPolicy: Local` on a multi-zone seed, and, where a load balancer address is configured, the
// addresses of `status.loadBalancer.ingress`. A pure decision over the Service and facts about the seed.

/** The seed Services with well-known node ports, by `<namespace>/<name>`. */
export const IstioIngressGateway = 'istio-ingress/istio-ingressgateway';
export const VirtualGardenIstioIngressGateway = 'virtual-garden-istio-ingress/istio-ingressgateway';
/** The zone gateway `istio-ingress--<zone>/istio-ingressgateway` of zone 0, 1 or 2. */
export const zoneIstioIngressGateway = (zone: 0 | 1 | 2) => `istio-ingress--${zone}/istio-ingressgateway`;

interface WellKnownPorts {
  /** The node port of the port named `tcp`. */
  tcp: number;
  /** The node port of the port named `tls-tunnel`, if any. */
  tlsTunnel?: number;
}

/** The node ports of the well-known gateways (Gardener's local setup maps them to host ports). */
export const WellKnownNodePorts: Readonly<Record<string, WellKnownPorts>> = {
  [IstioIngressGateway]: { tcp: 30443, tlsTunnel: 32132 },
  [zoneIstioIngressGateway(0)]: { tcp: 30444, tlsTunnel: 32133 },
  [zoneIstioIngressGateway(1)]: { tcp: 30445, tlsTunnel: 32134 },
  [zoneIstioIngressGateway(2)]: { tcp: 30446, tlsTunnel: 32135 },
  [VirtualGardenIstioIngressGateway]: { tcp: 31443 },
};

/** Every well-known node port. */
export const AllWellKnownNodePorts: ReadonlySet<number> = new Set(
  Object.values(WellKnownNodePorts).flatMap((p) => (p.tlsTunnel ? [p.tcp, p.tlsTunnel] : [p.tcp])),
);

/** A Service port, as far as the controller looks at it. */
export interface ServicePort {
  name?: string;
  port: number;
  nodePort?: number;
  [field: string]: unknown;
}

/** The facts about the seed the decision needs. */
export interface SeedFacts {
  /** Whether the seed's Nodes are in more than one zone (`topology.kubernetes.io/zone`). */
  multiZone: boolean;
  /** Whether the virtual garden's gateway exists (then the node addresses go to it, not to `istio-ingress`). */
  virtualGardenGatewayExists: boolean;
  /** The InternalIP addresses of all seed Nodes. */
  nodeIPs: readonly string[];
  /** The InternalIP addresses of the control plane Nodes (`node-role.kubernetes.io/control-plane`). */
  controlPlaneNodeIPs: readonly string[];
}

/** The load balancer addresses to report (Gardener's `--host-ip` and `--zone-<n>-ip`); unset: none are written. */
export interface LoadBalancerAddresses {
  hostIP?: string;
  zoneIPs?: readonly [string?, string?, string?];
}

/** What the Service should look like. */
export interface DesiredService {
  /** The ports with their node ports, when they change. */
  ports?: ServicePort[];
  /** `externalTrafficPolicy`, when it changes. */
  externalTrafficPolicy?: 'Local';
  /** The addresses of `status.loadBalancer.ingress`, in order; undefined: leave the status alone. */
  ingressIPs?: string[];
}

/**
 * The changes to a LoadBalancer Service `key` (`<namespace>/<name>`): node ports and traffic policy of the
 * well-known gateways; the ingress addresses — for the `istio-ingress` gateway the seed's node addresses (unless the
 * virtual garden's gateway takes them) and then the host address, which must come last (gardenlet puts the last one
 * into DNS records); for a zone gateway its zone's address; for the virtual garden's gateway the control plane nodes'
 * addresses; for any other (a shoot's kube-apiserver) the host address — when addresses are configured.
 */
export function desiredService(
  key: string,
  spec: { ports?: ServicePort[]; externalTrafficPolicy?: string },
  facts: SeedFacts,
  addresses: LoadBalancerAddresses,
): DesiredService {
  const out: DesiredService = {};
  const wellKnown = WellKnownNodePorts[key];
  if (wellKnown) {
    const ports = (spec.ports ?? []).map((p) => {
      const nodePort = p.name === 'tcp' ? wellKnown.tcp : p.name === 'tls-tunnel' ? wellKnown.tlsTunnel : undefined;
      return nodePort === undefined ? p : { ...p, nodePort };
    });
    if (ports.some((p, i) => p.nodePort !== spec.ports?.[i]?.nodePort)) out.ports = ports;
    if (
      facts.multiZone &&
      (key === IstioIngressGateway || key === VirtualGardenIstioIngressGateway) &&
      spec.externalTrafficPolicy !== 'Local'
    )
      out.externalTrafficPolicy = 'Local';
  }
  const ips = ingressIPs(key, facts, addresses);
  if (ips) out.ingressIPs = ips;
  return out;
}

function ingressIPs(key: string, facts: SeedFacts, addresses: LoadBalancerAddresses): string[] | undefined {
  const zone = [0, 1, 2].find((z) => key === zoneIstioIngressGateway(z as 0 | 1 | 2));
  if (zone !== undefined) {
    const ip = addresses.zoneIPs?.[zone];
    return ip ? [ip] : undefined;
  }
  if (key === VirtualGardenIstioIngressGateway)
    return addresses.hostIP !== undefined ? [...facts.controlPlaneNodeIPs] : undefined;
  if (addresses.hostIP === undefined) return undefined;
  if (key === IstioIngressGateway)
    return [...(facts.virtualGardenGatewayExists ? [] : facts.nodeIPs), addresses.hostIP];
  return [addresses.hostIP];
}
