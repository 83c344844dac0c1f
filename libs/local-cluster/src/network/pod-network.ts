// Pod addresses in local mode: every pod gets its own loopback address (127.0.0.0/8 is all loopback on Linux) from its
// node's pod CIDR, and Node.js programs get the preload that binds wildcard listens to it and reaches Services by
// name and ClusterIP.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The preload module, next to this file in sources and next to the bundle once built (`pod-network.mjs|js`). */
export function podNetworkPreload(): string | undefined {
  for (const name of ['./pod-network.mjs', './pod-network.js', './network/pod-network.mjs']) {
    const path = fileURLToPath(new URL(name, import.meta.url));
    if (existsSync(path) && !path.endsWith('pod-network.ts')) return path;
  }
  return undefined;
}

/**
 * Environment for a pod's process: its address and namespace (the preload resolves bare Service names there), and
 * the preload for Node.js programs (NODE_OPTIONS is extended). The preload finds Services in the file
 * GARDENER_LOCAL_SERVICES_FILE names, when `env` has it (the kubelet's `servicesFile`).
 */
export function podNetworkEnv(podIP: string, env: Record<string, string>, namespace?: string): Record<string, string> {
  const preload = podNetworkPreload();
  const result: Record<string, string> = {
    ...env,
    GARDENER_LOCAL_POD_IP: podIP,
    ...(namespace ? { GARDENER_LOCAL_POD_NAMESPACE: namespace } : {}),
  };
  if (preload) result.NODE_OPTIONS = [env.NODE_OPTIONS, `--import=${preload}`].filter(Boolean).join(' ');
  return result;
}

/**
 * A loopback pod CIDR 127.A.B.0/P with 16 <= P <= 24 (B aligned to the prefix): the cluster's 127.X.0.0/16, or one
 * node's slice of it in a multi-node cluster (see `nodePodCIDRs`).
 */
function parsePodCIDR(podCIDR: string): { a: number; b: number; blocks: number } {
  const match = /^127\.(\d{1,3})\.(\d{1,3})\.0\/(\d{1,2})$/.exec(podCIDR);
  const [a, b, prefix] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [256, 256, 0];
  const blocks = 2 ** (24 - prefix);
  if (a > 255 || b > 255 || prefix < 16 || prefix > 24 || b % blocks !== 0) {
    throw new Error(`pod CIDR ${podCIDR} must be a 127.X.Y.0/16..24 loopback range such as 127.42.0.0/16`);
  }
  return { a, b, blocks };
}

const USABLE = 254;

/** How many pod addresses the CIDR has (.0 and .255 of every /24 are skipped). */
export function podAddressCount(podCIDR: string): number {
  return parsePodCIDR(podCIDR).blocks * USABLE;
}

/** The n-th address of a pod CIDR such as 127.42.0.0/16 or 127.42.16.0/20 (n from 1; .0 and .255 are skipped). */
export function podAddress(podCIDR: string, n: number): string {
  const { a, b, blocks } = parsePodCIDR(podCIDR);
  const index = n - 1;
  if (index < 0 || index >= blocks * USABLE) throw new Error(`pod CIDR ${podCIDR} has no address number ${n}`);
  return `127.${a}.${b + Math.floor(index / USABLE)}.${(index % USABLE) + 1}`;
}

/** Whether the address lies in the pod CIDR. */
export function inPodCIDR(podCIDR: string, ip: string): boolean {
  const { a, b, blocks } = parsePodCIDR(podCIDR);
  const m = /^127\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (!m) return false;
  const [x, y, z] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return x === a && y >= b && y < b + blocks && z >= 1 && z <= USABLE;
}

/** Most nodes a cluster may have: each gets a /20 slice (4064 addresses) of the cluster's /16. */
export const MAX_NODES = 16;

/**
 * The pod CIDR of each of `nodes` nodes of a cluster with pod CIDR 127.X.0.0/16: one node keeps the whole /16 (as
 * before multi-node clusters); with more, node k (from 0) gets 127.X.(16k).0/20.
 */
export function nodePodCIDRs(clusterCIDR: string, nodes: number): string[] {
  const { a, b, blocks } = parsePodCIDR(clusterCIDR);
  if (b !== 0 || blocks !== 256) throw new Error(`cluster pod CIDR ${clusterCIDR} must be a 127.X.0.0/16 range`);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > MAX_NODES)
    throw new Error(`a cluster has 1 to ${MAX_NODES} nodes; got ${nodes}`);
  if (nodes === 1) return [clusterCIDR];
  return Array.from({ length: nodes }, (_, k) => `127.${a}.${16 * k}.0/20`);
}
