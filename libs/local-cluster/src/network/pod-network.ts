// Pod addresses in local mode: every pod gets its own loopback address (127.0.0.0/8 is all loopback on Linux) from its
// node's pod CIDR, and Node.js programs get the preload that binds wildcard listens to it and reaches Services by
// name and ClusterIP.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formatIPAddress, IPNet, parseIPAddress } from '@gardener-ts/api';

/**
 * The preload module, next to this file in sources and next to the bundle once built (`pod-network.mjs|js`), or one
 * folder up from a bundle in a subfolder (gardener-local's `images/kubelet.js` uses the CLI's). The preload takes the
 * folder three levels above it for the workspace, whose files it never maps into a volume.
 */
export function podNetworkPreload(): string | undefined {
  for (const name of ['./pod-network.mjs', './pod-network.js', './network/pod-network.mjs', '../pod-network.mjs']) {
    const path = fileURLToPath(new URL(name, import.meta.url));
    if (existsSync(path) && !path.endsWith('pod-network.ts')) return path;
  }
  return undefined;
}

/**
 * Environment for a pod's process: its address and namespace (the preload resolves bare Service names there), and
 * the preload for Node.js programs (NODE_OPTIONS is extended). The preload finds Services in the file
 * GARDENER_LOCAL_SERVICES_FILE names, when `env` has it (the kubelet's `servicesFile`). A Pod that runs a node and was
 * given a range of addresses for its own Pods gets it as GARDENER_LOCAL_POD_CIDR.
 */
export function podNetworkEnv(
  podIP: string,
  env: Record<string, string>,
  namespace?: string,
  podRange?: string,
): Record<string, string> {
  const preload = podNetworkPreload();
  const result: Record<string, string> = {
    ...env,
    GARDENER_LOCAL_POD_IP: podIP,
    ...(namespace ? { GARDENER_LOCAL_POD_NAMESPACE: namespace } : {}),
    ...(podRange ? { GARDENER_LOCAL_POD_CIDR: podRange } : {}),
  };
  if (preload) result.NODE_OPTIONS = [env.NODE_OPTIONS, `--import=${preload}`].filter(Boolean).join(' ');
  return result;
}

const LOOPBACK = IPNet.parse('127.0.0.0/8');

/** A pod CIDR and how many /24 blocks it spans. */
interface PodCIDR {
  net: IPNet;
  blocks: number;
}

/**
 * A loopback pod CIDR 127.A.B.0/P with 16 <= P <= 24, read as Go's net.ParseCIDR reads it and written as its network
 * address: the cluster's 127.X.0.0/16, or one node's slice of it in a multi-node cluster (see `nodePodCIDRs`).
 */
function parsePodCIDR(podCIDR: string): PodCIDR {
  const net = IPNet.tryParse(podCIDR);
  if (!net || !net.canonical || !LOOPBACK.containsNet(net) || net.prefix < 16 || net.prefix > 24) {
    throw new Error(`pod CIDR ${podCIDR} must be a 127.X.Y.0/16..24 loopback range such as 127.42.0.0/16`);
  }
  return { net, blocks: 2 ** (24 - net.prefix) };
}

const USABLE = 254;

/** How many pod addresses the CIDR has (.0 and .255 of every /24 are skipped). */
export function podAddressCount(podCIDR: string): number {
  return parsePodCIDR(podCIDR).blocks * USABLE;
}

/** The n-th address of a pod CIDR such as 127.42.0.0/16 or 127.42.16.0/20 (n from 1; .0 and .255 are skipped). */
export function podAddress(podCIDR: string, n: number): string {
  const { net, blocks } = parsePodCIDR(podCIDR);
  const index = n - 1;
  if (!Number.isInteger(index) || index < 0 || index >= blocks * USABLE) {
    throw new Error(`pod CIDR ${podCIDR} has no address number ${n}`);
  }
  return formatIPAddress(net.address(Math.floor(index / USABLE) * 256 + (index % USABLE) + 1));
}

/** The /24 blocks of a pod CIDR, in order (127.42.0.0/16 has 256: 127.42.0.0/24, 127.42.1.0/24, ...). */
export function podBlocks(podCIDR: string): string[] {
  const { net, blocks } = parsePodCIDR(podCIDR);
  return Array.from({ length: blocks }, (_, k) => IPNet.of(net.address(256 * k), 24).toString());
}

/** The pod addresses of a pod CIDR (n = 1 .. podAddressCount). */
export function podAddresses(podCIDR: string): string[] {
  return Array.from({ length: podAddressCount(podCIDR) }, (_, k) => podAddress(podCIDR, k + 1));
}

/** Whether the address (as Go's net.ParseIP reads it) is one of the pod CIDR's pod addresses. */
export function inPodCIDR(podCIDR: string, ip: string): boolean {
  const { net } = parsePodCIDR(podCIDR);
  const address = parseIPAddress(ip);
  if (!address || !net.contains(address)) return false;
  const last = Number(address.value & 255n);
  return last >= 1 && last <= USABLE;
}

/** Most nodes a cluster may have: each gets a /20 slice (4064 addresses) of the cluster's /16. */
export const MAX_NODES = 16;

/**
 * The pod CIDR of each of `nodes` nodes of a cluster with pod CIDR 127.X.0.0/16: one node keeps the whole /16 (as
 * before multi-node clusters); with more, node k (from 0) gets 127.X.(16k).0/20.
 */
export function nodePodCIDRs(clusterCIDR: string, nodes: number): string[] {
  const { net } = parsePodCIDR(clusterCIDR);
  if (net.prefix !== 16) throw new Error(`cluster pod CIDR ${clusterCIDR} must be a 127.X.0.0/16 range`);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > MAX_NODES)
    throw new Error(`a cluster has 1 to ${MAX_NODES} nodes; got ${nodes}`);
  if (nodes === 1) return [clusterCIDR];
  return Array.from({ length: nodes }, (_, k) => IPNet.of(net.address(16 * 256 * k), 20).toString());
}
