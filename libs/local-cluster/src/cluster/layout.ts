// Where one local cluster keeps its files under the data dir: everything of cluster NAME lives in DIR/NAME.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { MAX_NODES, nodePodCIDRs } from '../network/pod-network.js';

export interface ClusterLayout {
  name: string;
  root: string;
  /** The API server's data dir: pki/, store/ and the admin kubeconfig. */
  apiserver: string;
  kubeconfig: string;
  /** Pod directories, logs and pid records of the kubelet of the first node. */
  kubelet: string;
  /** The kubelet data dirs of further nodes: `nodes/<node name>`. */
  nodes: string;
  /** Local ports of every Service port (the service proxy's state). */
  services: string;
  /** Settings chosen at the first `cluster up` and kept (the API server port). */
  settings: string;
  /** Pid of the supervisor while the cluster runs. */
  pid: string;
  /** Written when every component is up; removed on shutdown. */
  ready: string;
  log: string;
}

const NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export function clusterLayout(dataDir: string, name: string): ClusterLayout {
  if (!NAME.test(name))
    throw new Error(`cluster name ${JSON.stringify(name)} must be a DNS label (lower case letters, digits and '-')`);
  const root = join(dataDir, name);
  return {
    name,
    root,
    apiserver: root,
    kubeconfig: join(root, 'kubeconfig'),
    kubelet: join(root, 'kubelet'),
    nodes: join(root, 'nodes'),
    services: join(root, 'services.json'),
    settings: join(root, 'cluster.json'),
    pid: join(root, 'supervisor.pid'),
    ready: join(root, 'ready'),
    log: join(root, 'cluster.log'),
  };
}

export interface ClusterSettings {
  apiServerPort: number;
  /** The first node's name, `<cluster>-node`; further nodes are `<cluster>-node-2`, `<cluster>-node-3`, ... */
  nodeName: string;
  /**
   * The cluster's pod CIDR, 127.X.0.0/16: every Pod of the cluster gets its own loopback address from it. One node
   * has all of it; with more, each node has a /20 slice (`nodePodCIDRs`).
   */
  podCIDR: string;
  /** How many nodes (kubelets) the cluster runs; absent in clusters from before multi-node clusters: 1. */
  nodes?: number;
  /** Zones the nodes are spread over round robin (label `topology.kubernetes.io/zone`); absent or empty: no zone label. */
  zones?: string[];
}

/** What `cluster up` asks for; what it leaves out is kept from the first `up` (default 1 node, no zones). */
export interface NodeRequest {
  nodes?: number;
  zones?: string[];
}

const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)$/;

/**
 * The node count and zones of a cluster: those of its first `up`, kept in cluster.json. Asking for other ones later is
 * refused (remove DIR/NAME to start over): a node's Pods, pid records and addresses belong to it, so nodes are not
 * added to or removed from an existing cluster.
 */
export function resolveNodeSettings(
  name: string,
  previous: ClusterSettings | undefined,
  request: NodeRequest = {},
): { nodes: number; zones: string[] } {
  if (
    request.nodes !== undefined &&
    (!Number.isInteger(request.nodes) || request.nodes < 1 || request.nodes > MAX_NODES)
  ) {
    throw new Error(`--nodes must be a whole number from 1 to ${MAX_NODES}; got ${request.nodes}`);
  }
  for (const zone of request.zones ?? []) {
    if (!LABEL_VALUE.test(zone)) throw new Error(`zone ${JSON.stringify(zone)} is not a valid label value`);
  }
  if (!previous) return { nodes: request.nodes ?? 1, zones: request.zones ?? [] };
  const kept = { nodes: previous.nodes ?? 1, zones: previous.zones ?? [] };
  if (request.nodes !== undefined && request.nodes !== kept.nodes) {
    throw new Error(
      `cluster ${name} has ${kept.nodes} node(s); it cannot be changed to ${request.nodes} (nodes are fixed at the first up: ` +
        `run \`cluster down ${name}\` and remove its directory to recreate it with --nodes ${request.nodes})`,
    );
  }
  if (request.zones !== undefined && request.zones.join(',') !== kept.zones.join(',')) {
    throw new Error(
      `cluster ${name} has zones ${JSON.stringify(kept.zones.join(','))}; they cannot be changed to ${JSON.stringify(request.zones.join(','))} (fixed at the first up)`,
    );
  }
  return kept;
}

export interface NodeSpec {
  name: string;
  /** The kubelet's data dir: `kubelet/` for the first node, `nodes/<name>/` for the others. */
  dataDir: string;
  podCIDR: string;
  labels: Record<string, string>;
}

/** The nodes of a cluster: names, data dirs, pod CIDR slices and zone labels (round robin over the zones). */
export function clusterNodes(layout: ClusterLayout, settings: ClusterSettings): NodeSpec[] {
  const count = settings.nodes ?? 1;
  const zones = settings.zones ?? [];
  return nodePodCIDRs(settings.podCIDR, count).map((podCIDR, k) => {
    const name = k === 0 ? settings.nodeName : `${settings.nodeName}-${k + 1}`;
    return {
      name,
      dataDir: k === 0 ? layout.kubelet : join(layout.nodes, name),
      podCIDR,
      labels: (zones.length ? { 'topology.kubernetes.io/zone': zones[k % zones.length] } : {}) as Record<
        string,
        string
      >,
    };
  });
}

/**
 * A pod CIDR no other cluster under the same data dir uses. The second octet starts from a hash of the cluster's
 * path, so clusters of different data dirs rarely meet; 127.0/16 and 127.1/16 stay free for the host.
 */
export function choosePodCIDR(layout: ClusterLayout): string {
  const dataDir = dirname(layout.root);
  const used = new Set<string>();
  for (const entry of existsSync(dataDir) ? readdirSync(dataDir) : []) {
    if (entry === layout.name || !NAME.test(entry)) continue;
    const settings = readSettings(clusterLayout(dataDir, entry));
    if (settings?.podCIDR) used.add(settings.podCIDR);
  }
  let hash = 0;
  for (const ch of layout.root) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  for (let i = 0; i < 254; i++) {
    const cidr = `127.${2 + ((hash + i) % 254)}.0.0/16`;
    if (!used.has(cidr)) return cidr;
  }
  throw new Error(`no free pod CIDR left under ${dataDir}`);
}

export function readSettings(layout: ClusterLayout): ClusterSettings | undefined {
  if (!existsSync(layout.settings)) return undefined;
  try {
    return JSON.parse(readFileSync(layout.settings, 'utf8')) as ClusterSettings;
  } catch {
    return undefined;
  }
}

export async function writeSettings(layout: ClusterLayout, settings: ClusterSettings): Promise<void> {
  await writeFile(`${layout.settings}.tmp`, JSON.stringify(settings, null, 2) + '\n');
  await rename(`${layout.settings}.tmp`, layout.settings);
}

/** The supervisor's pid, if one is recorded and that process is alive. */
export function runningPid(layout: ClusterLayout): number | undefined {
  if (!existsSync(layout.pid)) return undefined;
  const pid = Number(readFileSync(layout.pid, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  return isAlive(pid) ? pid : undefined;
}

// A killed supervisor can linger as a zombie until its parent (often init) reaps it; that is not running.
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no procfs: trust the signal check
  }
}
