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
//    (net, tls, http(s), fetch) to a Service name or a ClusterIP:port goes to 127.0.0.1:<local port> instead. So does
//    every dgram send or connect to a Service name or ClusterIP with a UDP port (the Service table is keyed by
//    protocol: 53/TCP and 53/UDP have different local ports); answers come from 127.0.0.1:<local port>. Redirected
//    TCP connections and connected dgram sockets send from the pod's address, so that the proxy's ClientIP session
//    affinity tells pods apart.
//    `kubernetes.default` goes to the API server itself (KUBERNETES_SERVICE_HOST/PORT).
import dgram from 'node:dgram';
import dns from 'node:dns';
import { readFileSync, statSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const podIP = process.env.GARDENER_LOCAL_POD_IP;
const servicesFile = process.env.GARDENER_LOCAL_SERVICES_FILE;
const podNamespace = process.env.GARDENER_LOCAL_POD_NAMESPACE || 'default';
const apiServerHost = process.env.KUBERNETES_SERVICE_HOST;
const apiServer = apiServerHost && { host: apiServerHost, port: Number(process.env.KUBERNETES_SERVICE_PORT || 443) };
const CLUSTER_SUFFIX = '.svc.cluster.local';
const WILDCARDS = new Set([undefined, null, '', '0.0.0.0', '::', '[::]']);

if (podIP) {
  const listen = net.Server.prototype.listen;
  net.Server.prototype.listen = function (...args) {
    const [first, second] = args;
    if (first !== null && typeof first === 'object' && !('path' in first && first.path) && !('fd' in first) && !('_handle' in first)) {
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
 * byName: "ns/name" → { clusterIP, ports: Map<"TCP/80", {host, port}> }; byAddress: "TCP/clusterIP:port" → {host, port}.
 * Keys carry the protocol: a Service may have 53/TCP and 53/UDP, each with its own local port.
 */
let table = { stamp: '', byName: new Map(), byAddress: new Map() };

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
  try {
    if (stamp !== 'none') entries = JSON.parse(readFileSync(servicesFile, 'utf8')).services ?? [];
  } catch {
    return table;
  }
  const next = { stamp, byName: new Map(), byAddress: new Map() };
  for (const entry of entries) {
    const ports = new Map(entry.ports.map((p) => [`${p.protocol || 'TCP'}/${p.port}`, { host: entry.host || '127.0.0.1', port: p.localPort }]));
    next.byName.set(`${entry.namespace}/${entry.name}`, { clusterIP: entry.clusterIP, ports });
  }
  // The API server's Service has no EndpointSlice to proxy: its port 443 is the API server itself.
  if (apiServer) {
    const kubernetes = next.byName.get('default/kubernetes') ?? { clusterIP: undefined, ports: new Map() };
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

/** The Service a host name means inside this pod, as the pod's DNS search path would resolve it. */
function serviceNamed(hostname) {
  if (typeof hostname !== 'string' || hostname === '' || net.isIP(hostname)) return undefined;
  let name = hostname.toLowerCase().replace(/\.$/, '');
  if (name.endsWith(CLUSTER_SUFFIX)) name = name.slice(0, -CLUSTER_SUFFIX.length);
  else if (name.endsWith('.svc')) name = name.slice(0, -'.svc'.length);
  const labels = name.split('.');
  if (labels.length === 1 && name !== 'localhost') return serviceTable().byName.get(`${podNamespace}/${name}`);
  if (labels.length === 2) return serviceTable().byName.get(`${labels[1]}/${labels[0]}`);
  return undefined;
}

/** Where a connection (or datagram) to host:port really goes: the proxy's local port of a Service port, or undefined. */
function serviceTarget(host, port, protocol = 'TCP') {
  if (!Number.isInteger(port)) return undefined;
  if (net.isIP(host ?? '')) return serviceTable().byAddress.get(`${protocol}/${host}:${port}`);
  const service = serviceNamed(host);
  if (!service) return undefined;
  // A port the Service does not have: as in a cluster, its ClusterIP does not answer there.
  return service.ports.get(`${protocol}/${port}`) ?? (service.clusterIP ? { host: service.clusterIP, port } : undefined);
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
    if (serviceTarget(host, Number(first))) args.splice(0, typeof second === 'string' ? 2 : 1, redirected({ port: Number(first), host }));
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
  if (typeof args[portAt] === 'number' || (typeof args[portAt] === 'string' && /^\d+$/.test(args[portAt]))) redirectDatagram(this, args, portAt);
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

// ---- Name lookups: Service names resolve to their ClusterIP (the API server's own address without one). ----

function clusterIPOf(hostname) {
  const service = serviceNamed(hostname);
  if (!service) return undefined;
  return service.clusterIP ?? service.ports.get('TCP/443')?.host;
}

/** The answer dns.lookup gives for an IPv4 address, honouring `all` and an IPv6-only `family`. */
function answer(address, options) {
  const family = typeof options === 'number' ? options : options?.family;
  if (family === 6 || family === 'IPv6') return undefined;
  return options?.all ? [[{ address, family: 4 }]] : [address, 4];
}

const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
  const cb = typeof options === 'function' ? options : callback;
  const ip = clusterIPOf(hostname);
  const result = ip && answer(ip, typeof options === 'function' ? undefined : options);
  if (!result || typeof cb !== 'function') return lookup.apply(this, arguments);
  process.nextTick(cb, null, ...result);
  return {};
};

const promisesLookup = dns.promises.lookup;
dns.promises.lookup = async function (hostname, options) {
  const ip = clusterIPOf(hostname);
  const result = ip && answer(ip, options);
  if (!result) return promisesLookup.apply(this, arguments);
  return options?.all ? result[0] : { address: result[0], family: 4 };
};

// `import { lookup } from 'node:dns'` in the program sees the patched functions too.
syncBuiltinESMExports();
