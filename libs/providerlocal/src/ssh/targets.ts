// Where a bastion may forward to: the shoot's machines, on the SSH port — what Gardener's provider-local bastion
// NetworkPolicy allows (egress to the Pods labelled `app: machine` of the shoot namespace, TCP 22). A destination
// is named by a machine's address, by its Pod/Node name or by its hostname, and resolved to the machine's address.
// A machine run without root cannot bind port 22: its sshd serves on the unprivileged port instead (22 + 2200 = 2222,
// on the machine's own address, so every machine can use the same one), and the bastion tries that port when the
// privileged one refuses the connection (`Target.fallbackPort`).
// The pure decision (`resolveTarget`) and the source of machines read through the seed's API with the bastion Pod's
// service account (`machinesFromAPI`).
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { normalizeAddress } from './ingress.js';

/** A machine the bastion may reach: its names and addresses. */
export interface MachineAddresses {
  /** Pod (= Node) name and hostname. */
  names: string[];
  /** Its addresses (the Pod's, which is the Node's InternalIP). */
  addresses: string[];
}

/** A destination the bastion connects to. */
export interface Target {
  host: string;
  port: number;
  /** Where the machine serves `port` when it could not bind it (no root): tried when `port` refuses the connection. */
  fallbackPort?: number;
}

/** The SSH port, the only one the bastion forwards to by default (Gardener's NetworkPolicy). */
export const SSHPort = 22;

/** How far a machine without root moves a privileged port (below 1024): 22 → 2222. */
export const UnprivilegedPortOffset = 2200;

/** The port a machine serves a privileged `port` on when it cannot bind it; undefined for unprivileged ports. */
export function unprivilegedPort(port: number): number | undefined {
  return port > 0 && port < 1024 ? port + UnprivilegedPortOffset : undefined;
}

/**
 * The address to connect to for a `direct-tcpip` request to `host:port`, or undefined when that is not one of the
 * machines or the port is not allowed. Names compare case-insensitively, a trailing dot and the first label of a
 * longer name (`machine-a.shoot--foo--bar`) included.
 */
export function resolveTarget(
  machines: readonly MachineAddresses[],
  host: string,
  port: number,
  allowedPorts: readonly number[] = [SSHPort],
): Target | undefined {
  if (!allowedPorts.includes(port)) return undefined;
  const fallbackPort = unprivilegedPort(port);
  const target = (address: string): Target => ({ host: address, port, ...(fallbackPort ? { fallbackPort } : {}) });
  const address = normalizeAddress(host.replace(/^\[|\]$/g, ''));
  const name = host.toLowerCase().replace(/\.$/, '');
  for (const machine of machines) {
    if (machine.addresses.includes(address)) return target(address);
    const names = machine.names.map((n) => n.toLowerCase());
    if (names.includes(name) || names.includes(name.split('.')[0]!)) {
      const first = machine.addresses[0];
      if (first) return target(first);
    }
  }
  return undefined;
}

/** The label of machine Pods (provider-local's machine controller sets it). */
export const MachinePodSelector = 'app=machine';

/** The machines of `namespace`: its Pods labelled `app=machine` that have an address. */
export async function machinesFromAPI(kubeConfig: KubeConfig, namespace: string): Promise<MachineAddresses[]> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const pods = await core.listNamespacedPod({ namespace, labelSelector: MachinePodSelector });
  return pods.items.flatMap((pod) => {
    const addresses = [
      ...new Set([pod.status?.podIP, ...(pod.status?.podIPs ?? []).map((p) => p.ip)].filter((a): a is string => !!a)),
    ];
    if (addresses.length === 0 || pod.metadata?.deletionTimestamp) return [];
    const names = [...new Set([pod.metadata?.name, pod.spec?.hostname].filter((n): n is string => !!n))];
    return [{ names, addresses }];
  });
}
