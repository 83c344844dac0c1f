// The local service proxy (kube-proxy's job without iptables): every TCP and UDP port of every Service gets a listener
// on 127.0.0.1 that forwards to the Service's ready endpoints (EndpointSlices), round robin or with ClientIP affinity
// (BackendPicker). SCTP ports are skipped (logged once).
//   ClusterIP    → a local port, allocated once and kept across restarts (the state file);
//   NodePort     → its nodePort on 127.0.0.1 (the node's address), as on a real node;
//   LoadBalancer → as NodePort, and status.loadBalancer.ingress = 127.0.0.1 with the listening port.
// The allocations are written to the state file (JSON) where clients and people can read them, with the ready
// endpoints of each TCP port: the pod network preload connects to one directly, as kube-proxy's iptables rules would,
// unless the Service has ClientIP affinity (a Pod's connection then never passes through this process). The file also
// has what the preload needs to answer DNS questions that no proxy port serves: the ready endpoints (addresses,
// hostnames, ports) of headless Services, the externalName of ExternalName Services, and the records of the ConfigMaps
// labelled `local.gardener.cloud/dns-records=true` (dns-records.ts).
import {
  CoreV1Api,
  DiscoveryV1Api,
  KubeConfig,
  makeInformer,
  type KubernetesObject,
  type V1ConfigMap,
  type V1EndpointSlice,
  type V1Service,
} from '@kubernetes/client-node';
import { createLogger, type Logger } from '@gardener-ts/logging';
import { DNSRecordsLabel, parseDNSRecords } from './dns-records.js';
import { PortAllocations, type EndpointEntry, type ServiceEntry, type ServicePortEntry } from './port-allocations.js';
import { affinityTimeoutMs, type Backend } from './backend-picker.js';
import { TcpForwarder } from './tcp-forwarder.js';
import { UdpForwarder } from './udp-forwarder.js';

export interface ServiceProxyOptions {
  kubeConfig: KubeConfig;
  /** JSON file with the local ports of every Service port. */
  stateFile: string;
  /** The address listeners bind and LoadBalancer ingress reports. */
  host?: string;
  /**
   * Whether the proxy reports LoadBalancer Services' ingress (the substrate's cluster: yes). kube-proxy in a shoot
   * does not: a cloud controller would, and kube's `system:node-proxier` may not write Service status.
   */
  publishLoadBalancers?: boolean;
  /**
   * Whether the records of `local.gardener.cloud/dns-records=true` ConfigMaps go into the state file (the substrate's
   * cluster: yes). kube-proxy in a shoot may not read ConfigMaps.
   */
  dnsRecords?: boolean;
  logger?: Logger;
}

const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/** What the proxy needs of a TCP or UDP forwarder. */
interface Forwarder {
  readonly port: number;
  setBackends(backends: Backend[], affinityMs?: number): void;
  close(): Promise<void>;
}

const LISTENERS: Record<string, (host: string, port: number) => Promise<Forwarder>> = {
  TCP: (host, port) => TcpForwarder.listen(host, port),
  UDP: (host, port) => UdpForwarder.listen(host, port),
};

export class ServiceProxy {
  private readonly services = new Map<string, V1Service>();
  private readonly slices = new Map<string, V1EndpointSlice>();
  private readonly recordMaps = new Map<string, V1ConfigMap>();
  /** Record lines already reported as invalid. */
  private readonly badRecords = new Set<string>();
  private recordsSync: Promise<void> = Promise.resolve();
  /** Service key → "protocol/port name" → its forwarder. */
  private readonly forwarders = new Map<string, Map<string, Forwarder>>();
  /** Service ports with a protocol the proxy does not serve, already logged. */
  private readonly unsupported = new Set<string>();
  private readonly syncing = new Map<string, Promise<void>>();
  private readonly allocations: PortAllocations;
  private readonly core: CoreV1Api;
  private readonly host: string;
  private readonly log: Logger;
  private readonly stopInformers: (() => void)[] = [];
  /** Services with a node port another program holds: synced again until the port is free. */
  private readonly retries = new Map<string, NodeJS.Timeout>();
  private stopped = false;
  /** The watched paths whose list succeeded at least once, and how many paths are watched. */
  private readonly listed = new Set<string>();
  private watches = 0;

  constructor(private readonly options: ServiceProxyOptions) {
    this.allocations = new PortAllocations(options.stateFile);
    this.core = options.kubeConfig.makeApiClient(CoreV1Api);
    this.host = options.host ?? '127.0.0.1';
    this.log = options.logger ?? createLogger({ name: 'service-proxy' });
  }

  async start(): Promise<void> {
    const discovery = this.options.kubeConfig.makeApiClient(DiscoveryV1Api);
    await Promise.all([
      this.watch(
        '/api/v1/services',
        () => this.core.listServiceForAllNamespaces(),
        (type, svc: V1Service) => {
          const key = objectKey(svc);
          if (type === 'delete') this.services.delete(key);
          else this.services.set(key, svc);
          this.enqueue(key);
        },
      ),
      this.watch(
        '/apis/discovery.k8s.io/v1/endpointslices',
        () => discovery.listEndpointSliceForAllNamespaces(),
        (type, slice: V1EndpointSlice) => {
          const key = objectKey(slice);
          if (type === 'delete') this.slices.delete(key);
          else this.slices.set(key, slice);
          const service = slice.metadata?.labels?.[SERVICE_NAME_LABEL];
          if (service) this.enqueue(`${slice.metadata?.namespace}/${service}`);
        },
      ),
      this.options.dnsRecords === false
        ? Promise.resolve()
        : this.watch(
            '/api/v1/configmaps',
            () => this.core.listConfigMapForAllNamespaces({ labelSelector: `${DNSRecordsLabel}=true` }),
            (type, configMap: V1ConfigMap) => {
              const key = objectKey(configMap);
              if (type === 'delete') this.recordMaps.delete(key);
              else this.recordMaps.set(key, configMap);
              this.syncRecords();
            },
            `${DNSRecordsLabel}=true`,
          ),
    ]);
    // Services deleted while the proxy was down: their allocations go; so do records of deleted ConfigMaps.
    for (const entry of this.allocations.all()) this.enqueue(`${entry.namespace}/${entry.name}`);
    this.syncRecords();
  }

  /**
   * Whether the proxy has read every Service and EndpointSlice once (kube-proxy's health: a proxy that cannot read
   * its API server serves nothing, and says so on /healthz instead of looking ready).
   */
  synced(): boolean {
    return this.watches > 0 && this.listed.size === this.watches;
  }

  /**
   * The listening port of a Service port (by name, or number as text), once the proxy serves it; `protocol` tells
   * 53/TCP from 53/UDP when the number is not enough.
   */
  localPort(namespace: string, name: string, port: string, protocol?: string): number | undefined {
    return this.allocations
      .get(namespace, name)
      ?.ports.find((p) => (p.name === port || String(p.port) === port) && (!protocol || p.protocol === protocol))
      ?.localPort;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const stop of this.stopInformers) stop();
    for (const timer of this.retries.values()) clearTimeout(timer);
    await Promise.allSettled([...this.syncing.values(), this.recordsSync]);
    await Promise.all([...this.forwarders.values()].flatMap((ports) => [...ports.values()].map((f) => f.close())));
    this.forwarders.clear();
  }

  /** Writes the records of the record ConfigMaps into the state file, one write after the other. */
  private syncRecords(): void {
    if (this.stopped) return;
    const { records, problems } = parseDNSRecords(
      [...this.recordMaps.values()].map((cm) => ({
        namespace: cm.metadata?.namespace,
        name: cm.metadata?.name,
        data: cm.data,
      })),
    );
    // Each bad line once (the set is bounded: a flood of bad lines is logged again after a while).
    if (this.badRecords.size > 1000) this.badRecords.clear();
    for (const problem of problems) {
      if (this.badRecords.has(problem)) continue;
      this.badRecords.add(problem);
      this.log.warn({ problem }, 'ignoring a DNS record line');
    }
    this.recordsSync = this.recordsSync
      .then(() => this.allocations.setRecords(records))
      .catch((err) => this.log.error({ err }, 'writing DNS records failed'));
  }

  /** Syncs of one Service run one after the other; events during a sync are folded into one more sync. */
  private enqueue(key: string): void {
    if (this.stopped) return;
    const previous = this.syncing.get(key) ?? Promise.resolve();
    const next = previous
      .then(() => this.sync(key))
      .catch((err) => this.log.error({ err, service: key }, 'service sync failed'));
    this.syncing.set(key, next);
    void next.finally(() => {
      if (this.syncing.get(key) === next) this.syncing.delete(key);
    });
  }

  private async sync(key: string): Promise<void> {
    if (this.stopped) return;
    const [namespace, name] = key.split('/');
    const service = this.services.get(key);
    const ports =
      service && servesPorts(service)
        ? (service.spec?.ports ?? []).filter((p) => this.supported(key, p.name || String(p.port), p.protocol ?? 'TCP'))
        : [];
    const affinityMs = affinityTimeoutMs(service?.spec);
    const current = this.forwarders.get(key) ?? new Map<string, Forwarder>();
    const entries: ServicePortEntry[] = [];
    for (const port of ports) {
      const portName = port.name || String(port.port);
      const protocol = port.protocol ?? 'TCP';
      const slot = `${protocol}/${portName}`;
      const wanted = port.nodePort ?? this.allocations.previous(namespace, name, portName, protocol) ?? 0;
      let forwarder = current.get(slot);
      if (forwarder && wanted !== 0 && forwarder.port !== wanted) {
        await forwarder.close();
        forwarder = undefined;
      }
      forwarder ??= await this.listen(key, protocol, portName, wanted, port.nodePort !== undefined);
      if (!forwarder) {
        this.retryLater(key);
        continue;
      }
      current.set(slot, forwarder);
      const backends = this.backends(namespace, name, port.name ?? '', protocol);
      forwarder.setBackends(backends, affinityMs);
      // Pods connect to these directly (the state file's backends); with ClientIP affinity the proxy keeps choosing.
      const direct = protocol === 'TCP' && affinityMs === undefined && backends.length > 0;
      entries.push({
        name: portName,
        protocol,
        port: port.port,
        localPort: forwarder.port,
        ...(port.nodePort ? { nodePort: port.nodePort } : {}),
        ...(direct
          ? { backends: [...backends].sort((a, b) => `${a.host}:${a.port}`.localeCompare(`${b.host}:${b.port}`)) }
          : {}),
      });
    }
    for (const [slot, forwarder] of current) {
      if (!entries.some((e) => `${e.protocol}/${e.name}` === slot)) {
        await forwarder.close();
        current.delete(slot);
      }
    }
    if (current.size > 0) this.forwarders.set(key, current);
    else this.forwarders.delete(key);

    const dns = service && this.dnsOnly(namespace, name, service);
    if (!service || (entries.length === 0 && !dns)) return this.allocations.remove(namespace, name);
    const entry: ServiceEntry = {
      namespace,
      name,
      type: service.spec?.type ?? 'ClusterIP',
      clusterIP: service.spec?.clusterIP,
      host: this.host,
      ports: entries,
      ...dns,
    };
    if (JSON.stringify(this.allocations.get(namespace, name)) !== JSON.stringify(entry))
      await this.allocations.set(entry);
    if (entry.type === 'LoadBalancer' && this.options.publishLoadBalancers !== false)
      await this.publishLoadBalancer(service, entries);
  }

  /** A node port taken by another program (another local cluster, say) is tried again every few seconds. */
  private retryLater(key: string): void {
    if (this.stopped || this.retries.has(key)) return;
    const timer = setTimeout(() => {
      this.retries.delete(key);
      this.enqueue(key);
    }, 5_000);
    timer.unref();
    this.retries.set(key, timer);
  }

  /** TCP and UDP are served; SCTP (and anything else) is logged once per Service port and skipped. */
  private supported(key: string, portName: string, protocol: string): boolean {
    if (protocol in LISTENERS) return true;
    const id = `${key}/${protocol}/${portName}`;
    if (!this.unsupported.has(id)) {
      this.unsupported.add(id);
      this.log.warn({ service: key, port: portName, protocol }, `${protocol} Service ports are not proxied; skipping`);
    }
    return false;
  }

  private async listen(
    key: string,
    protocol: string,
    portName: string,
    port: number,
    fixed: boolean,
  ): Promise<Forwarder | undefined> {
    const listen = LISTENERS[protocol];
    try {
      return await listen(this.host, port);
    } catch (err) {
      if (fixed || port === 0) {
        this.log.error(
          { err, service: key, port: portName, protocol },
          `cannot listen on ${this.host}:${port}/${protocol}; trying again in 5s`,
        );
        return undefined;
      }
      // The port a Service had before a restart is taken now: it gets a new one (and the state file says so).
      this.log.warn(
        { service: key, port: portName, protocol, previous: port },
        'previous local port is taken; allocating a new one',
      );
      return listen(this.host, 0);
    }
  }

  /**
   * What DNS needs of a Service no proxy port serves: an ExternalName Service's CNAME, a headless Service's endpoints;
   * undefined for other Services.
   */
  private dnsOnly(
    namespace: string,
    name: string,
    service: V1Service,
  ): Pick<ServiceEntry, 'externalName' | 'endpoints'> | undefined {
    if (service.spec?.type === 'ExternalName')
      return service.spec.externalName
        ? { externalName: service.spec.externalName.toLowerCase().replace(/\.$/, '') }
        : undefined;
    if (service.spec?.clusterIP !== 'None') return undefined;
    // A headless Service's name answers with its ready endpoints (all of them with publishNotReadyAddresses, as the
    // EndpointSlice controller marks them ready then anyway). An endpoint in two slices (other ports) is listed once.
    const publishNotReady = !!service.spec.publishNotReadyAddresses;
    const endpoints = new Map<string, EndpointEntry>();
    for (const slice of this.slicesOf(namespace, name)) {
      if (slice.addressType === 'FQDN') continue;
      const ports = (slice.ports ?? []).flatMap((p) =>
        p.port === undefined ? [] : [{ name: p.name ?? '', protocol: p.protocol ?? 'TCP', port: p.port }],
      );
      for (const endpoint of slice.endpoints ?? []) {
        if (!publishNotReady && endpoint.conditions?.ready === false) continue;
        const id = [...endpoint.addresses].sort().join(',');
        const known = endpoints.get(id);
        if (known) {
          known.ports.push(
            ...ports.filter((p) => !known.ports.some((k) => k.name === p.name && k.protocol === p.protocol)),
          );
          continue;
        }
        const pod = endpoint.targetRef?.kind === 'Pod' ? endpoint.targetRef.name : undefined;
        endpoints.set(id, {
          addresses: [...endpoint.addresses],
          ...(endpoint.hostname ? { hostname: endpoint.hostname } : {}),
          ...(pod ? { pod } : {}),
          ports: [...ports],
        });
      }
    }
    // Sorted, so that the state file changes only when the endpoints do.
    const order = (e: EndpointEntry) => `${e.hostname ?? ''}/${e.addresses.join(',')}`;
    for (const e of endpoints.values())
      e.ports.sort((x, y) => `${x.protocol}/${x.name}`.localeCompare(`${y.protocol}/${y.name}`));
    return { endpoints: [...endpoints.values()].sort((a, b) => order(a).localeCompare(order(b))) };
  }

  /** The EndpointSlices of one Service. */
  private *slicesOf(namespace: string, service: string): Iterable<V1EndpointSlice> {
    for (const slice of this.slices.values()) {
      if (slice.metadata?.namespace === namespace && slice.metadata?.labels?.[SERVICE_NAME_LABEL] === service)
        yield slice;
    }
  }

  /** Ready, not terminating endpoints of the Service's slices for one port name and protocol. */
  private backends(namespace: string, service: string, portName: string, protocol: string): Backend[] {
    const backends: Backend[] = [];
    for (const slice of this.slicesOf(namespace, service)) {
      const port = (slice.ports ?? []).find(
        (p) => (p.name ?? '') === portName && (p.protocol ?? 'TCP') === protocol,
      )?.port;
      if (!port) continue;
      for (const endpoint of slice.endpoints ?? []) {
        if (endpoint.conditions?.ready === false || endpoint.conditions?.terminating === true) continue;
        const host = endpoint.addresses?.[0];
        if (host) backends.push({ host, port });
      }
    }
    return backends;
  }

  private async publishLoadBalancer(service: V1Service, ports: ServicePortEntry[]): Promise<void> {
    const ingress = [
      { ip: this.host, ipMode: 'VIP', ports: ports.map((p) => ({ port: p.localPort, protocol: p.protocol })) },
    ];
    if (JSON.stringify(service.status?.loadBalancer?.ingress ?? []) === JSON.stringify(ingress)) return;
    const { name, namespace } = service.metadata as { name: string; namespace: string };
    const current = await this.core.readNamespacedServiceStatus({ name, namespace });
    current.status = { ...current.status, loadBalancer: { ingress } };
    await this.core.replaceNamespacedServiceStatus({ name, namespace, body: current });
  }

  private async watch<T extends KubernetesObject>(
    path: string,
    list: () => Promise<{ items: T[]; metadata?: { resourceVersion?: string } }>,
    handle: (type: 'add' | 'update' | 'delete', object: T) => void,
    labelSelector?: string,
  ): Promise<void> {
    this.watches++;
    const listed = async () => {
      const result = await list();
      this.listed.add(path);
      return result;
    };
    const informer = makeInformer<T>(this.options.kubeConfig, path, listed as never, labelSelector);
    informer.on('add', (o) => handle('add', o));
    informer.on('update', (o) => handle('update', o));
    informer.on('delete', (o) => handle('delete', o));
    informer.on('error', (err) => {
      if (this.stopped) return;
      this.log.warn({ err, path }, 'watch failed; restarting');
      setTimeout(() => !this.stopped && void informer.start().catch(() => undefined), 1000);
    });
    this.stopInformers.push(() => void informer.stop());
    await informer.start();
  }
}

function servesPorts(service: V1Service): boolean {
  return service.spec?.type !== 'ExternalName' && service.spec?.clusterIP !== 'None';
}

function objectKey(object: KubernetesObject): string {
  return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}
