// provider-local's Service controller (Gardener's pkg/controller/service, run by provider-local): LoadBalancer
// Services of the seed get what desired.ts decides — the gateways' well-known node ports and traffic policy, and the
// load balancer addresses where they are configured. On the local substrate the service proxy publishes every
// LoadBalancer's `status.loadBalancer.ingress` itself (127.0.0.1 and the port it listens on, the node port when one
// is set), so without configured addresses the status is left to it.
import {
  Kinds,
  isInvalid,
  isNotFound,
  wrapError,
  type Client,
  type NodeObject,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import {
  AllWellKnownNodePorts,
  VirtualGardenIstioIngressGateway,
  desiredService,
  type LoadBalancerAddresses,
  type SeedFacts,
  type ServicePort,
} from './desired.js';

/** A Service as the controller reads it. */
export interface ServiceObject {
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  spec?: { type?: string; ports?: ServicePort[]; externalTrafficPolicy?: string };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
}

const ZoneLabel = 'topology.kubernetes.io/zone';
const ControlPlaneRoleLabel = 'node-role.kubernetes.io/control-plane';
const NodePortRange = { min: 30000, max: 32767 };

/** Reconciles LoadBalancer Services of the seed. */
export class ServiceReconciler {
  constructor(
    private readonly client: Pick<Client, 'get' | 'list' | 'patch'>,
    private readonly addresses: LoadBalancerAddresses = {},
    private readonly random: () => number = Math.random,
  ) {}

  async reconcile(req: Request, ctx?: ReconcileContext): Promise<ReconcileResult | void> {
    let service: ServiceObject;
    try {
      service = (await this.client.get(Kinds.Service, req)) as ServiceObject;
    } catch (err) {
      if (isNotFound(err)) return;
      throw wrapError(err, `reading Service ${req.namespace}/${req.name}`);
    }
    if (service.spec?.type !== 'LoadBalancer') return;
    const key = `${req.namespace}/${req.name}`;
    const desired = desiredService(key, service.spec, await this.facts(key), this.addresses);

    if (desired.ports || desired.externalTrafficPolicy) {
      const spec: Record<string, unknown> = {};
      if (desired.ports) spec.ports = desired.ports;
      if (desired.externalTrafficPolicy) spec.externalTrafficPolicy = desired.externalTrafficPolicy;
      try {
        await this.client.patch(Kinds.Service, req, { type: 'merge', patch: { spec } });
      } catch (err) {
        if (!nodePortTaken(err)) throw wrapError(err, `setting the node ports of Service ${key}`);
        ctx?.log.info({ err }, 'a well-known node port is taken by another Service; moving it elsewhere');
        await this.freeWellKnownNodePorts(key);
        return { requeue: true };
      }
    }

    if (desired.ingressIPs) {
      const ingress = desired.ingressIPs.map((ip) => ({ ip }));
      if (JSON.stringify(service.status?.loadBalancer?.ingress ?? []) !== JSON.stringify(ingress)) {
        await this.client.patch(
          Kinds.Service,
          req,
          { type: 'merge', patch: { status: { loadBalancer: { ingress } } } },
          { subresource: 'status' },
        );
      }
    }
  }

  private async facts(key: string): Promise<SeedFacts> {
    const nodes = (await this.client.list(Kinds.Node)).items as NodeObject[];
    const zones = new Set(nodes.map((n) => n.metadata?.labels?.[ZoneLabel] ?? ''));
    const internalIPs = (list: NodeObject[]) =>
      list.flatMap((n) => (n.status?.addresses ?? []).filter((a) => a.type === 'InternalIP').map((a) => a.address));
    let virtualGardenGatewayExists = false;
    if (key !== VirtualGardenIstioIngressGateway && this.addresses.hostIP !== undefined) {
      const [namespace, name] = VirtualGardenIstioIngressGateway.split('/');
      virtualGardenGatewayExists = await this.client.get(Kinds.Service, { namespace, name }).then(
        () => true,
        (err: unknown) => (isNotFound(err) ? false : Promise.reject(err)),
      );
    }
    return {
      multiZone: zones.size > 1,
      virtualGardenGatewayExists,
      nodeIPs: internalIPs(nodes),
      controlPlaneNodeIPs: internalIPs(nodes.filter((n) => n.metadata?.labels?.[ControlPlaneRoleLabel] !== undefined)),
    };
  }

  /** Gives every other Service holding a well-known node port a random one (Gardener's auto-remediation). */
  private async freeWellKnownNodePorts(key: string): Promise<void> {
    const services = (await this.client.list(Kinds.Service)).items as ServiceObject[];
    for (const service of services) {
      const { namespace = '', name = '' } = service.metadata ?? {};
      if (`${namespace}/${name}` === key) continue;
      const ports = service.spec?.ports ?? [];
      if (!ports.some((p) => p.nodePort !== undefined && AllWellKnownNodePorts.has(p.nodePort))) continue;
      const moved = ports.map((p) =>
        p.nodePort !== undefined && AllWellKnownNodePorts.has(p.nodePort)
          ? { ...p, nodePort: this.randomNodePort() }
          : p,
      );
      await this.client.patch(Kinds.Service, { namespace, name }, { type: 'merge', patch: { spec: { ports: moved } } });
    }
  }

  private randomNodePort(): number {
    for (;;) {
      const port = NodePortRange.min + Math.floor(this.random() * (NodePortRange.max - NodePortRange.min));
      if (!AllWellKnownNodePorts.has(port)) return port;
    }
  }
}

/** Whether a Service update was refused because a node port belongs to another Service. */
function nodePortTaken(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return (isInvalid(err) && message.includes('port is already allocated')) || message.includes('duplicate nodePort');
}
