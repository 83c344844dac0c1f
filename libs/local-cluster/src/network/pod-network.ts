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
  const result: Record<string, string> = { ...env, GARDENER_LOCAL_POD_IP: podIP, ...(namespace ? { GARDENER_LOCAL_POD_NAMESPACE: namespace } : {}) };
  if (preload) result.NODE_OPTIONS = [env.NODE_OPTIONS, `--import=${preload}`].filter(Boolean).join(' ');
  return result;
}

/** The n-th address of a /16 pod CIDR such as 127.42.0.0/16 (n from 1; .0 and .255 are skipped). */
export function podAddress(podCIDR: string, n: number): string {
  const match = /^127\.(\d{1,3})\.0\.0\/16$/.exec(podCIDR);
  if (!match) throw new Error(`pod CIDR ${podCIDR} must be a 127.X.0.0/16 loopback range`);
  const usable = 254;
  const index = n - 1;
  if (index < 0 || index >= 256 * usable) throw new Error(`pod CIDR ${podCIDR} has no address number ${n}`);
  return `127.${match[1]}.${Math.floor(index / usable)}.${(index % usable) + 1}`;
}
