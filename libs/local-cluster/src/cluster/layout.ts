// Where one local cluster keeps its files under the data dir: everything of cluster NAME lives in DIR/NAME.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface ClusterLayout {
  name: string;
  root: string;
  /** The API server's data dir: pki/, store/ and the admin kubeconfig. */
  apiserver: string;
  kubeconfig: string;
  /** Pod directories, logs and pid records of the kubelet. */
  kubelet: string;
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
  if (!NAME.test(name)) throw new Error(`cluster name ${JSON.stringify(name)} must be a DNS label (lower case letters, digits and '-')`);
  const root = join(dataDir, name);
  return {
    name,
    root,
    apiserver: root,
    kubeconfig: join(root, 'kubeconfig'),
    kubelet: join(root, 'kubelet'),
    services: join(root, 'services.json'),
    settings: join(root, 'cluster.json'),
    pid: join(root, 'supervisor.pid'),
    ready: join(root, 'ready'),
    log: join(root, 'cluster.log'),
  };
}

export interface ClusterSettings {
  apiServerPort: number;
  nodeName: string;
  /** The node's pod CIDR, 127.X.0.0/16: every Pod of the cluster gets its own loopback address from it. */
  podCIDR: string;
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
