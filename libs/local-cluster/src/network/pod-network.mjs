// Preloaded (`node --import`) into Node.js programs that run as local pods: what a pod network namespace and the
// cluster DNS would give them. Self-contained on purpose: the gardener-local build ships this one file.
//
// 1. Listening. Pods share the machine's network, so two replicas listening on "all interfaces" at the same port
//    would collide; each pod has its own loopback address (GARDENER_LOCAL_POD_IP, in 127.0.0.0/8) and a wildcard
//    listen binds that address instead. Explicit addresses and Unix sockets are left alone. The same goes for a
//    dgram socket bound to a wildcard address on a fixed port (a UDP server); port 0 and implicit binds are clients
//    and keep the wildcard, or they could not send beyond the machine.
// 2. Services. Nothing listens on ClusterIPs and there is no cluster DNS; the service proxy listens for every Service
//    port on a local port and writes them to GARDENER_LOCAL_SERVICES_FILE (services.json). From that file, without
//    any API credentials, `dns.lookup` answers Service names (`<svc>`, `<svc>.<ns>`, `<svc>.<ns>.svc`,
//    `<svc>.<ns>.svc.cluster.local`; a bare name in the pod's namespace) with the ClusterIP, and every TCP connect
//    (net, tls, http(s), fetch) to a Service name or a ClusterIP:port goes to one of the port's ready endpoints (the
//    file lists them; one at random per connection, as kube-proxy's iptables rules choose), or to the proxy's
//    127.0.0.1:<local port> when the file lists none (no ready endpoint, or ClientIP affinity). So does
//    every dgram send or connect to a Service name or ClusterIP with a UDP port (the Service table is keyed by
//    protocol: 53/TCP and 53/UDP have different local ports); answers come from 127.0.0.1:<local port>. Redirected
//    TCP connections and connected dgram sockets send from the pod's address, so that the proxy's ClientIP session
//    affinity tells pods apart.
//    `kubernetes.default` goes to the API server itself (KUBERNETES_SERVICE_HOST/PORT).
// 3. Cluster DNS. Beyond ClusterIP Services the file has what CoreDNS would answer from: `dns.lookup` answers a
//    headless Service's name with its ready endpoints' addresses (pod addresses: connections go straight to the pod),
//    `<hostname>.<svc>.<ns>.svc` with one endpoint's (StatefulSet pods: hostname and subdomain), `<a-b-c-d>.<ns>.pod`
//    with a.b.c.d, and an ExternalName Service's name like its externalName (a CNAME). `dns.resolve`, `resolve4`,
//    `resolveSrv` and `resolveCname` (module, `dns.promises` and both Resolver classes) answer cluster names too: A,
//    SRV (`_<port>._<proto>.<svc>.<ns>.svc`) and CNAME records. Names go through the pod's search path; unknown names
//    under cluster.local are NXDOMAIN (ENOTFOUND), other names go to the real resolver.
//    The file's `records` (from the cluster's ConfigMaps labelled local.gardener.cloud/dns-records=true, e.g. a shoot
//    API server's name written by provider-local) answer their names the same way: A and AAAA records with their
//    addresses, a CNAME like an ExternalName (followed to Services and other records), `*.` names as DNS wildcards.
//    A connection by a name whose CNAME leads to a Service goes to the Service's local port, as to the Service's name.
// 4. Mounts. Pods share the machine's filesystem, so a volume mounted at /etc/config lives in the pod's directory and
//    the kubelet rewrites mount paths in command, args and env. Paths a program has built in are not there: the
//    service account token every in-cluster client reads at /var/run/secrets/kubernetes.io/serviceaccount, a config
//    file's own paths, a webhook's certificate dir. From the kubelet's mount table (GARDENER_LOCAL_MOUNTS) the fs
//    functions (callback, sync and promises) see a path under a mount path where the volume is, as a mount namespace
//    would; every other path is left alone.
import dgram from 'node:dgram';
import dns from 'node:dns';
import fs, { readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const podIP = process.env.GARDENER_LOCAL_POD_IP;
const servicesFile = process.env.GARDENER_LOCAL_SERVICES_FILE;
const podNamespace = process.env.GARDENER_LOCAL_POD_NAMESPACE || 'default';
const apiServerHost = process.env.KUBERNETES_SERVICE_HOST;
const apiServer = apiServerHost && { host: apiServerHost, port: Number(process.env.KUBERNETES_SERVICE_PORT || 443) };
const CLUSTER_DOMAIN = 'cluster.local';
const WILDCARDS = new Set([undefined, null, '', '0.0.0.0', '::', '[::]']);

if (podIP) {
  const listen = net.Server.prototype.listen;
  net.Server.prototype.listen = function (...args) {
    const [first, second] = args;
    if (
      first !== null &&
      typeof first === 'object' &&
      !('path' in first && first.path) &&
      !('fd' in first) &&
      !('_handle' in first)
    ) {
      if (WILDCARDS.has(first.host)) args[0] = { ...first, host: podIP };
    } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first)) || first === undefined) {
      if (typeof second === 'string') {
        if (WILDCARDS.has(second)) args[1] = podIP;
      } else {
        args.splice(1, 0, podIP);
      }
    }
    return listen.apply(this, args);
  };

  const bind = dgram.Socket.prototype.bind;
  dgram.Socket.prototype.bind = function (...args) {
    const [first, second] = args;
    const address = this.type === 'udp6' ? `::ffff:${podIP}` : podIP;
    if (first !== null && typeof first === 'object') {
      if (Number(first.port) > 0 && WILDCARDS.has(first.address) && !('fd' in first)) args[0] = { ...first, address };
    } else if (Number(first) > 0 && (typeof second !== 'string' || WILDCARDS.has(second))) {
      // bind(port, address?, callback?): replace a given (wildcard) address, or insert one.
      args.splice(1, typeof second === 'string' || (second == null && args.length > 1) ? 1 : 0, address);
    }
    return bind.apply(this, args);
  };
}

// ---- The Service table, re-read whenever services.json changed (the proxy replaces it atomically). ----

/**
 * byName: "ns/name" → a Service: { clusterIP (an address, or undefined: headless and ExternalName), ports:
 * Map<"TCP/80", {host, port}> (the proxy's local ports), named: its named ports [{name, protocol, port}] (SRV records),
 * headless, endpoints: a headless Service's ready endpoints [{addresses, hostname, ports}], externalName };
 * byAddress: "TCP/clusterIP:port" → {host, port}.
 * Keys carry the protocol: a Service may have 53/TCP and 53/UDP, each with its own local port.
 */
let table = { stamp: '', byName: new Map(), byAddress: new Map(), records: new Map() };

function serviceTable() {
  let stamp = 'none';
  try {
    if (servicesFile) {
      const st = statSync(servicesFile);
      stamp = `${st.mtimeMs}/${st.size}/${st.ino}`;
    }
  } catch {
    // No file (yet): no Services but the API server.
  }
  if (stamp === table.stamp) return table;
  let entries = [];
  let records = [];
  try {
    if (stamp !== 'none') {
      const state = JSON.parse(readFileSync(servicesFile, 'utf8'));
      entries = state.services ?? [];
      records = state.records ?? [];
    }
  } catch {
    return table;
  }
  const next = { stamp, byName: new Map(), byAddress: new Map(), records: new Map() };
  // name → { addresses } (A and AAAA together) or { externalName } (a CNAME).
  for (const record of records) {
    const name = String(record.name ?? '').toLowerCase();
    const values = (record.values ?? []).map(String);
    if (!name || values.length === 0) continue;
    if (record.type === 'CNAME') next.records.set(name, { externalName: values[0].toLowerCase() });
    else if (record.type === 'A' || record.type === 'AAAA') {
      const known = next.records.get(name);
      if (known?.externalName) continue;
      next.records.set(name, { addresses: [...(known?.addresses ?? []), ...values.filter((v) => net.isIP(v))] });
    }
  }
  for (const entry of entries) {
    const ports = new Map(
      (entry.ports ?? []).map((p) => [
        `${p.protocol || 'TCP'}/${p.port}`,
        {
          host: entry.host || '127.0.0.1',
          port: p.localPort,
          backends: (p.backends ?? []).filter((b) => net.isIP(b?.host ?? '') && Number.isInteger(b?.port)),
        },
      ]),
    );
    next.byName.set(`${entry.namespace}/${entry.name}`.toLowerCase(), {
      clusterIP: net.isIP(entry.clusterIP ?? '') ? entry.clusterIP : undefined,
      ports,
      // A port without a name is listed under its number; port names have a letter, so those have no SRV record.
      named: (entry.ports ?? [])
        .filter((p) => !/^\d*$/.test(p.name ?? ''))
        .map((p) => ({ name: p.name, protocol: p.protocol || 'TCP', port: p.port })),
      headless: entry.clusterIP === 'None',
      endpoints: entry.endpoints ?? [],
      externalName: entry.type === 'ExternalName' ? entry.externalName : undefined,
    });
  }
  // The API server's Service has no EndpointSlice to proxy: its port 443 is the API server itself.
  if (apiServer) {
    const kubernetes = next.byName.get('default/kubernetes') ?? {
      clusterIP: undefined,
      ports: new Map(),
      named: [{ name: 'https', protocol: 'TCP', port: 443 }],
      endpoints: [],
    };
    kubernetes.ports.set('TCP/443', apiServer);
    next.byName.set('default/kubernetes', kubernetes);
  }
  for (const service of next.byName.values()) {
    if (!service.clusterIP) continue;
    for (const [key, target] of service.ports) {
      const [protocol, port] = key.split('/');
      next.byAddress.set(`${protocol}/${service.clusterIP}:${port}`, target);
    }
  }
  table = next;
  return table;
}

// ---- Cluster DNS: what the cluster's DNS server (CoreDNS) would answer, from the Service table. ----

/** A name under the cluster domain that has no records: NXDOMAIN. */
const NXDOMAIN = { missing: true };

/**
 * What a host name means inside this pod: undefined for names outside the cluster (the real resolver answers them),
 * NXDOMAIN for unknown names under cluster.local, else one record set:
 *   { addresses, service? }  a ClusterIP Service (service: it, for the proxy ports), a headless Service (its ready
 *                            endpoints), a headless Service's endpoint by hostname, or a pod (<a-b-c-d>.<ns>.pod);
 *   { externalName }         an ExternalName Service (a CNAME);
 *   { srv }                  _<port>._<proto>.<svc>.<ns>.svc: [{ name, port, priority, weight }].
 * Relative names go through the pod's search path, as resolv.conf would: <name>.<ns>.svc, <name>.svc, <name> (each
 * under cluster.local) — so `etcd-0.etcd-peer` is endpoint etcd-0 of the pod namespace's etcd-peer before it is
 * Service etcd-0 of namespace etcd-peer.
 */
function clusterName(hostname) {
  if (typeof hostname !== 'string' || hostname === '' || net.isIP(hostname)) return undefined;
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost') return undefined;
  const { byName: services, records } = serviceTable();
  if (name === CLUSTER_DOMAIN || name.endsWith(`.${CLUSTER_DOMAIN}`))
    return zoneRecords(name.slice(0, -CLUSTER_DOMAIN.length - 1), services) ?? NXDOMAIN;
  const record = recordNamed(name, records);
  if (record) return record;
  for (const candidate of [`${name}.${podNamespace}.svc`, `${name}.svc`, name]) {
    const records = zoneRecords(candidate, services);
    if (records) return records;
  }
  return undefined;
}

/** A record of the file for a name: its own, else the closest wildcard's (`*.b.c` answers a.b.c and x.a.b.c). */
function recordNamed(name, records) {
  if (records.size === 0) return undefined;
  const own = records.get(name);
  if (own) return own;
  const labels = name.split('.');
  for (let i = 1; i < labels.length; i++) {
    const wildcard = records.get(`*.${labels.slice(i).join('.')}`);
    if (wildcard) return wildcard;
  }
  return undefined;
}

/** The records of a name relative to cluster.local (`hello.demo.svc`, `10-0-0-1.demo.pod`), or undefined. */
function zoneRecords(relative, services) {
  const labels = relative.split('.');
  const kind = labels.pop();
  if (kind === 'pod' && labels.length === 2) {
    const address = labels[0].replaceAll('-', '.');
    return net.isIPv4(address) ? { addresses: [address] } : undefined;
  }
  if (kind !== 'svc') return undefined;
  const service = (ns, name) => services.get(`${ns}/${name}`);
  if (labels.length === 2) return serviceRecords(service(labels[1], labels[0]));
  if (labels.length === 3) {
    // <hostname>.<svc>.<ns>: an endpoint of a headless Service, by hostname or (without one) its address with dashes.
    const [host, name, ns] = labels;
    const addresses = (service(ns, name)?.endpoints ?? [])
      .filter((e) => endpointNames(e).includes(host))
      .flatMap((e) => e.addresses);
    return addresses.length > 0 ? { addresses } : undefined;
  }
  if (labels.length === 4 && labels[0].startsWith('_') && labels[1].startsWith('_')) {
    const [port, proto, name, ns] = [labels[0].slice(1), labels[1].slice(1).toUpperCase(), labels[2], labels[3]];
    const srv = srvRecords(service(ns, name), name, ns, port, proto);
    return srv.length > 0 ? { srv } : undefined;
  }
  return undefined;
}

function serviceRecords(service) {
  if (!service) return undefined;
  if (service.externalName) return { externalName: service.externalName };
  // A headless Service without ready endpoints has no records (NXDOMAIN), as in a cluster.
  if (service.headless)
    return service.endpoints.length > 0 ? { addresses: service.endpoints.flatMap((e) => e.addresses) } : undefined;
  // The API server's Service may have no ClusterIP in the table: its own address then.
  const address = service.clusterIP ?? service.ports.get('TCP/443')?.host;
  return address ? { addresses: [address], service } : undefined;
}

/** The names of a headless Service's endpoint: its hostname, or else each address with dashes. */
function endpointNames(endpoint) {
  return endpoint.hostname ? [endpoint.hostname.toLowerCase()] : endpoint.addresses.map((a) => a.replaceAll('.', '-'));
}

/** SRV records of a named Service port: the Service (its port) or, headless, each endpoint (the endpoint's port). */
function srvRecords(service, name, ns, port, proto) {
  if (!service || service.externalName) return [];
  const matches = (p) => p.name?.toLowerCase() === port && (p.protocol || 'TCP') === proto;
  const targets = service.headless
    ? service.endpoints.flatMap((e) => {
        const p = e.ports.find(matches);
        return p ? endpointNames(e).map((host) => [`${host}.${name}.${ns}.svc`, p.port]) : [];
      })
    : service.named.filter(matches).map((p) => [`${name}.${ns}.svc`, p.port]);
  // Priority 0 and equal weights summing to (about) 100, as CoreDNS gives them.
  return targets.map(([host, port]) => ({
    name: `${host}.${CLUSTER_DOMAIN}`,
    port,
    priority: 0,
    weight: Math.floor(100 / targets.length),
  }));
}

/** A ClusterIP Service a host name means (directly or through CNAMEs), or undefined. */
function serviceNamed(hostname) {
  return resolved(hostname)?.service;
}

/**
 * Where a connection (or datagram) to host:port really goes, or undefined: for TCP one of the Service port's ready
 * endpoints, picked at random per connection as kube-proxy's iptables rules pick (the proxy lists them unless the
 * Service has ClientIP affinity), so that no byte passes through the proxy's process; otherwise, and for UDP, the
 * proxy's local port.
 */
function serviceTarget(host, port, protocol = 'TCP') {
  if (!Number.isInteger(port)) return undefined;
  if (net.isIP(host ?? '')) return direct(serviceTable().byAddress.get(`${protocol}/${host}:${port}`), protocol);
  const service = serviceNamed(host);
  if (!service) return undefined;
  // A port the Service does not have: as in a cluster, its ClusterIP does not answer there.
  return direct(
    service.ports.get(`${protocol}/${port}`) ?? (service.clusterIP ? { host: service.clusterIP, port } : undefined),
    protocol,
  );
}

function direct(target, protocol) {
  const backends = protocol === 'TCP' ? target?.backends : undefined;
  return backends?.length ? backends[Math.floor(Math.random() * backends.length)] : target;
}

// ---- Connections: every TCP connect (net.connect, tls.connect, http(s) agents, fetch) passes Socket#connect. ----

/**
 * The pod's own address as the source of a redirected connection, when both are loopback: the service proxy tells
 * clients apart by address (ClientIP session affinity), and without it every pod would be 127.0.0.1.
 */
function sourceFor(target) {
  return podIP?.startsWith('127.') && target.host.startsWith('127.') ? podIP : undefined;
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const redirected = (options) => {
    if (options === null || typeof options !== 'object' || options.path) return options;
    const target = serviceTarget(options.host ?? 'localhost', Number(options.port));
    if (!target) return options;
    const localAddress = options.localAddress ?? sourceFor(target);
    // A copy: the caller's options keep the name, so TLS still checks the certificate against it.
    return { ...options, host: target.host, port: target.port, ...(localAddress ? { localAddress } : {}) };
  };
  const [first, second] = args;
  if (Array.isArray(first)) {
    // net.connect() hands over its already normalized [options, callback].
    first[0] = redirected(first[0]);
  } else if (first !== null && typeof first === 'object') {
    args[0] = redirected(first);
  } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    const host = typeof second === 'string' ? second : 'localhost';
    if (serviceTarget(host, Number(first)))
      args.splice(0, typeof second === 'string' ? 2 : 1, redirected({ port: Number(first), host }));
  }
  return connect.apply(this, args);
};

// ---- Datagrams: dgram send(msg[, offset, length], port[, address][, cb]) and connect(port[, address][, cb]). ----

/** Rewrites args[portAt] and args[portAt + 1] (the address, when given) to the Service's local UDP port; the target. */
function redirectDatagram(socket, args, portAt) {
  const address = typeof args[portAt + 1] === 'string' ? args[portAt + 1] : undefined;
  const target = serviceTarget(address ?? 'localhost', Number(args[portAt]), 'UDP');
  if (!target) return;
  // A udp6 socket reaches the IPv4 proxy through the mapped address.
  const host = socket.type === 'udp6' && net.isIPv4(target.host) ? `::ffff:${target.host}` : target.host;
  args.splice(portAt, address === undefined ? 1 : 2, target.port, host);
  return target;
}

const send = dgram.Socket.prototype.send;
dgram.Socket.prototype.send = function (...args) {
  // With a number as third argument the second and third are offset and length, as dgram itself tells the forms
  // apart; a connected socket's send has no port and was redirected at connect.
  const portAt = typeof args[2] === 'number' ? 3 : 1;
  if (typeof args[portAt] === 'number' || (typeof args[portAt] === 'string' && /^\d+$/.test(args[portAt])))
    redirectDatagram(this, args, portAt);
  return send.apply(this, args);
};

const dgramConnect = dgram.Socket.prototype.connect;
dgram.Socket.prototype.connect = function (...args) {
  const target = redirectDatagram(this, args, 0);
  // A connected socket talks to the proxy only, so it may send from the pod's address (see sourceFor): ClientIP
  // affinity then tells pods apart. Unconnected sockets keep their wildcard, they may send anywhere.
  const source = target && this.type === 'udp4' && sourceFor(target);
  if (source && !isBound(this)) {
    try {
      this.bind({ port: 0, address: source });
    } catch {
      // A bind of the program's own is under way: its address stays.
    }
  }
  return dgramConnect.apply(this, args);
};

function isBound(socket) {
  try {
    socket.address();
    return true;
  } catch {
    return false;
  }
}

// ---- Name lookups: cluster names answer as the cluster DNS would (see clusterName); others go to the real resolver.

/** An error as Node's resolvers give it (`getaddrinfo ENOTFOUND x`, `queryA ENODATA x`). */
function dnsError(code, syscall, hostname) {
  const errno = syscall === 'getaddrinfo' && code === 'ENOTFOUND' ? -3008 : undefined;
  return Object.assign(new Error(`${syscall} ${code} ${hostname}`), { errno, code, syscall, hostname });
}

/** clusterName, with ExternalName CNAMEs to other cluster names followed (a few hops, as a resolver would). */
function resolved(hostname) {
  let records = clusterName(hostname);
  for (let hops = 0; records?.externalName && hops < 8; hops++) {
    const next = clusterName(records.externalName);
    if (!next) break;
    records = next;
  }
  return records;
}

/** Round robin over the answers, as CoreDNS's loadbalance plugin shuffles them: `all` takers try them in turn. */
let turn = 0;
function rotated(addresses) {
  if (addresses.length < 2) return addresses;
  const k = turn++ % addresses.length;
  return [...addresses.slice(k), ...addresses.slice(0, k)];
}

/**
 * dns.lookup's answer for a cluster name: { external: name } (resolve that instead), { error }, or { addresses }
 * ([{address, family}] of the family asked for, rotated); undefined for other names.
 */
function lookupAnswer(hostname, options) {
  const records = resolved(hostname);
  if (!records) return undefined;
  if (records.externalName) return { external: records.externalName };
  const family = { 4: 4, 6: 6, IPv4: 4, IPv6: 6 }[typeof options === 'number' ? options : options?.family] ?? 0;
  const addresses = (records.addresses ?? []).filter((address) => !family || net.isIP(address) === family);
  if (addresses.length === 0) return { error: dnsError('ENOTFOUND', 'getaddrinfo', hostname) };
  return { addresses: rotated(addresses).map((address) => ({ address, family: net.isIP(address) })) };
}

const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  const opts = typeof options === 'function' ? undefined : options;
  const answer = typeof cb === 'function' ? lookupAnswer(hostname, opts) : undefined;
  if (!answer) return lookup.apply(this, arguments);
  // An ExternalName Service is a CNAME: its external name answers, with the program's options.
  if (answer.external) return lookup.call(this, answer.external, ...(opts === undefined ? [cb] : [opts, cb]));
  if (answer.error) process.nextTick(cb, answer.error);
  else if (opts?.all) process.nextTick(cb, null, answer.addresses);
  else process.nextTick(cb, null, answer.addresses[0].address, answer.addresses[0].family);
  return {};
};

const promisesLookup = dns.promises.lookup;
dns.promises.lookup = async function (hostname, options) {
  const answer = lookupAnswer(hostname, options);
  if (!answer) return promisesLookup.apply(this, arguments);
  if (answer.external) return promisesLookup.call(this, answer.external, options);
  if (answer.error) throw answer.error;
  return options?.all ? answer.addresses : answer.addresses[0];
};

// ---- dns.resolve*: c-ares asks DNS servers itself, so cluster names are answered here, for every resolver. ----

const SYSCALLS = { A: 'queryA', SRV: 'querySrv', CNAME: 'queryCname' };
const TTL = 5;

/**
 * The answer of resolve<rrtype> for a cluster name: { records }, { error }, or { external: name } (an ExternalName's
 * A records: resolve the external name); undefined for names outside the cluster and record types not served here.
 */
function resolveAnswer(hostname, rrtype, options) {
  const syscall = SYSCALLS[rrtype];
  const records =
    syscall && typeof hostname === 'string' ? (rrtype === 'A' ? resolved(hostname) : clusterName(hostname)) : undefined;
  if (!records) return undefined;
  if (records.missing) return { error: dnsError('ENOTFOUND', syscall, hostname) };
  if (rrtype === 'A' && records.externalName) return { external: records.externalName };
  let answer;
  const ipv4 = (records.addresses ?? []).filter((address) => net.isIPv4(address));
  if (rrtype === 'A' && ipv4.length > 0)
    answer = rotated(ipv4).map((address) => (options?.ttl ? { address, ttl: TTL } : address));
  if (rrtype === 'SRV') answer = records.srv;
  if (rrtype === 'CNAME' && records.externalName) answer = [records.externalName];
  return answer ? { records: answer } : { error: dnsError('ENODATA', syscall, hostname) };
}

/** resolve(hostname[, rrtype]) and resolveX(hostname[, options]) share one shape; this tells which type is asked. */
const asked = (rrtype, args) => rrtype ?? (typeof args[0] === 'string' ? args[0] : 'A');

/** A callback resolver method answering cluster names (`rrtype` undefined: resolve(), the type is an argument). */
function callbackResolve(original, rrtype) {
  return function (hostname, ...rest) {
    const cb = rest.at(-1);
    const extra = rest.slice(0, -1);
    const answer = typeof cb === 'function' ? resolveAnswer(hostname, asked(rrtype, extra), extra[0]) : undefined;
    if (!answer) return original.call(this, hostname, ...rest);
    if (answer.external) return original.call(this, answer.external, ...rest);
    if (answer.error) process.nextTick(cb, answer.error);
    else process.nextTick(cb, null, answer.records);
    return {};
  };
}

function promiseResolve(original, rrtype) {
  return async function (hostname, ...rest) {
    const answer = resolveAnswer(hostname, asked(rrtype, rest), rest[0]);
    if (!answer) return original.call(this, hostname, ...rest);
    if (answer.external) return original.call(this, answer.external, ...rest);
    if (answer.error) throw answer.error;
    return answer.records;
  };
}

const RESOLVE_METHODS = { resolve: undefined, resolve4: 'A', resolveSrv: 'SRV', resolveCname: 'CNAME' };
for (const [method, rrtype] of Object.entries(RESOLVE_METHODS)) {
  // The module functions are bound to the default resolver once, at load: they and the prototypes both need it.
  for (const [target, wrap] of [
    [dns, callbackResolve],
    [dns.Resolver.prototype, callbackResolve],
    [dns.promises, promiseResolve],
    [dns.promises.Resolver.prototype, promiseResolve],
  ]) {
    if (typeof target[method] === 'function') target[method] = wrap(target[method], rrtype);
  }
}

// 4. Mounts: the longest mount path under which a path lies decides where it is on this machine.
const mounts = Object.entries(JSON.parse(process.env.GARDENER_LOCAL_MOUNTS || '{}'))
  .filter(([mountPath]) => mountPath.startsWith('/') && mountPath !== '/')
  .sort(([a], [b]) => b.length - a.length);
// Paths on this machine that the kubelet already gave the program (volume directories in rewritten args, the
// cluster's own files) are not paths inside the pod, even where a mount path (/tmp, say) is a prefix of them.
// The same goes for the program's own files and the Node.js running it (the ES module loader resolves them through
// these fs functions), which may well lie under a mount path such as /tmp: the workspace the preload is shipped in,
// the program's directory and Node's installation.
const hostRoots = [
  ...mounts.map(([, hostPath]) => hostPath),
  ...(servicesFile ? [posix.dirname(servicesFile)] : []),
  posix.resolve(posix.dirname(fileURLToPath(import.meta.url)), '../../..'),
  ...(process.argv[1] ? [posix.dirname(posix.resolve(process.argv[1]))] : []),
  posix.resolve(posix.dirname(process.execPath), '..'),
];
const under = (path, root) => path === root || path.startsWith(`${root}/`);
if (mounts.length) {
  const remap = (path) => {
    const text =
      typeof path === 'string'
        ? path
        : path instanceof URL && path.protocol === 'file:'
          ? fileURLToPath(path)
          : undefined;
    if (text === undefined || !text.startsWith('/')) return path;
    const clean = posix.normalize(text);
    if (hostRoots.some((root) => under(clean, root))) return path;
    for (const [mountPath, hostPath] of mounts) {
      if (clean === mountPath) return hostPath;
      if (clean.startsWith(`${mountPath}/`)) return hostPath + clean.slice(mountPath.length);
    }
    return path;
  };
  const wrap = (original, paths) => {
    const wrapped = function (...args) {
      for (let i = 0; i < paths; i++) args[i] = remap(args[i]);
      return original.apply(this, args);
    };
    return Object.assign(wrapped, original);
  };
  const ONE_PATH = [
    'access',
    'appendFile',
    'chmod',
    'chown',
    'createReadStream',
    'createWriteStream',
    'exists',
    'lstat',
    'mkdir',
    'open',
    'opendir',
    'readFile',
    'readdir',
    'readlink',
    'realpath',
    'rm',
    'rmdir',
    'stat',
    'statfs',
    'truncate',
    'unlink',
    'utimes',
    'watch',
    'watchFile',
    'unwatchFile',
    'writeFile',
  ];
  const TWO_PATHS = ['copyFile', 'cp', 'link', 'rename'];
  for (const [names, paths] of [
    [ONE_PATH, 1],
    [TWO_PATHS, 2],
  ]) {
    for (const name of names) {
      for (const fn of [name, `${name}Sync`]) if (typeof fs[fn] === 'function') fs[fn] = wrap(fs[fn], paths);
      if (typeof fs.promises[name] === 'function') fs.promises[name] = wrap(fs.promises[name], paths);
    }
  }
}

// `import { lookup } from 'node:dns'` (and `node:fs`) in the program sees the patched functions too.
syncBuiltinESMExports();
