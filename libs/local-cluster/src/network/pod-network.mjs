// Preloaded (`node --import`) into Node.js programs that run as local pods: what a pod network namespace and the
// cluster DNS would give them. Self-contained on purpose: the gardener-local build ships this one file.
//
// 1. Listening. Pods share the machine's network, so two replicas listening on "all interfaces" at the same port
//    would collide; each pod has its own loopback address (GARDENER_LOCAL_POD_IP, in 127.0.0.0/8) and a wildcard
//    listen binds that address instead. Explicit addresses and Unix sockets are left alone.
// 2. Services. Nothing listens on ClusterIPs and there is no cluster DNS; the service proxy listens for every Service
//    port on a local port and writes them to GARDENER_LOCAL_SERVICES_FILE (services.json). From that file, without
//    any API credentials, `dns.lookup` answers Service names (`<svc>`, `<svc>.<ns>`, `<svc>.<ns>.svc`,
//    `<svc>.<ns>.svc.cluster.local`; a bare name in the pod's namespace) with the ClusterIP, and every TCP connect
//    (net, tls, http(s), fetch) to a Service name or a ClusterIP:port goes to 127.0.0.1:<local port> instead.
//    `kubernetes.default` goes to the API server itself (KUBERNETES_SERVICE_HOST/PORT).
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
}

// ---- The Service table, re-read whenever services.json changed (the proxy replaces it atomically). ----

/** byName: "ns/name" → { clusterIP, ports: Map<port, {host, port}> }; byAddress: "clusterIP:port" → {host, port}. */
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
    const ports = new Map(entry.ports.map((p) => [p.port, { host: entry.host || '127.0.0.1', port: p.localPort }]));
    next.byName.set(`${entry.namespace}/${entry.name}`, { clusterIP: entry.clusterIP, ports });
  }
  // The API server's Service has no EndpointSlice to proxy: its port 443 is the API server itself.
  if (apiServer) {
    const kubernetes = next.byName.get('default/kubernetes') ?? { clusterIP: undefined, ports: new Map() };
    kubernetes.ports.set(443, apiServer);
    next.byName.set('default/kubernetes', kubernetes);
  }
  for (const service of next.byName.values()) {
    if (service.clusterIP) for (const [port, target] of service.ports) next.byAddress.set(`${service.clusterIP}:${port}`, target);
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

/** Where a connection to host:port really goes: the proxy's local port of a Service port, or undefined. */
function serviceTarget(host, port) {
  if (!Number.isInteger(port)) return undefined;
  if (net.isIP(host ?? '')) return serviceTable().byAddress.get(`${host}:${port}`);
  const service = serviceNamed(host);
  if (!service) return undefined;
  // A port the Service does not have: as in a cluster, its ClusterIP does not answer there.
  return service.ports.get(port) ?? (service.clusterIP ? { host: service.clusterIP, port } : undefined);
}

// ---- Connections: every TCP connect (net.connect, tls.connect, http(s) agents, fetch) passes Socket#connect. ----

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const redirected = (options) => {
    if (options === null || typeof options !== 'object' || options.path) return options;
    const target = serviceTarget(options.host ?? 'localhost', Number(options.port));
    // A copy: the caller's options keep the name, so TLS still checks the certificate against it.
    return target ? { ...options, host: target.host, port: target.port } : options;
  };
  const [first, second] = args;
  if (Array.isArray(first)) {
    // net.connect() hands over its already normalized [options, callback].
    first[0] = redirected(first[0]);
  } else if (first !== null && typeof first === 'object') {
    args[0] = redirected(first);
  } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    const target = serviceTarget(typeof second === 'string' ? second : 'localhost', Number(first));
    if (target) args.splice(0, typeof second === 'string' ? 2 : 1, target.port, target.host);
  }
  return connect.apply(this, args);
};

// ---- Name lookups: Service names resolve to their ClusterIP (the API server's own address without one). ----

function clusterIPOf(hostname) {
  const service = serviceNamed(hostname);
  if (!service) return undefined;
  return service.clusterIP ?? service.ports.get(443)?.host;
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
