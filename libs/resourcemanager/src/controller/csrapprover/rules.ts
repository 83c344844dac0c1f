// Gardener's rules for kubelet serving certificate requests and gardener-node-agent client certificate requests:
// approve when every one holds, deny with the first that fails. The lookups (the Node in the target cluster, the
// Machines in the source cluster) are injected.
import { canonicalIP, type CertificateRequestInfo } from './certificate-request.js';

export const KubeletServingSigner = 'kubernetes.io/kubelet-serving';
export const KubeAPIServerClientSigner = 'kubernetes.io/kube-apiserver-client';
/** The user name prefix of gardener-node-agents (their certificates' common name). */
export const NodeAgentUserNamePrefix = 'gardener.cloud:node-agent:machine:';
export const NodeUserPrefix = 'system:node:';
export const NodesGroup = 'system:nodes';

export interface NodeAddresses {
  status?: { addresses?: Array<{ type?: string; address?: string }> };
}

export interface ApprovalLookups {
  node(name: string): Promise<NodeAddresses | undefined>;
  /** How many Machines in the machine namespace carry the label `node=<name>`. */
  machinesForNode(name: string): Promise<number>;
  machineNamespace: string;
}

export interface Decision {
  approve: boolean;
  reason: string;
}

const sameSet = (a: string[], b: string[]) => {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
};

export async function decideKubeletServing(
  username: string,
  req: CertificateRequestInfo,
  lookups: ApprovalLookups,
): Promise<Decision> {
  const deny = (reason: string): Decision => ({ approve: false, reason });
  if (!username.startsWith(NodeUserPrefix))
    return deny(`username "${username}" is not prefixed with "${NodeUserPrefix}"`);
  if (req.dnsNames.length + req.ipAddresses.length === 0) return deny('no DNS names or IP addresses in the SANs found');
  if (req.commonName !== username) return deny('common name in CSR does not match username');
  if (req.organizations.length !== 1 || req.organizations[0] !== NodesGroup)
    return deny('organization in CSR does not match nodes group');

  const nodeName = req.commonName.slice(NodeUserPrefix.length);
  const node = await lookups.node(nodeName);
  if (!node) return deny(`could not find node object with name "${nodeName}"`);
  const machines = await lookups.machinesForNode(nodeName);
  if (machines !== 1)
    return deny(
      `Expected exactly one machine in namespace "${lookups.machineNamespace}" for node "${nodeName}" but found ${machines}`,
    );

  const addresses = node.status?.addresses ?? [];
  const of = (type: string) => addresses.filter((a) => a.type === type).map((a) => a.address ?? '');
  if (!sameSet(of('Hostname'), req.dnsNames))
    return deny('DNS names in CSR do not match Hostname addresses in node object');
  if (!sameSet(of('InternalIP').map(canonicalIP), req.ipAddresses))
    return deny('IP addresses in CSR do not match InternalIP addresses in node object');
  return { approve: true, reason: 'all checks passed' };
}

/** What the node-agent rule needs: the Machine (by name, in the machine namespace) and whether a Node exists. */
export interface NodeAgentLookups {
  machine(name: string): Promise<{ metadata?: { labels?: Record<string, string> } } | undefined>;
  nodeExists(name: string): Promise<boolean>;
  machineNamespace: string;
}

/**
 * Gardener's rule for `kube-apiserver-client` requests of gardener-node-agents: no opinion on other requests (common
 * name without the node-agent prefix); the machine must exist; a bootstrap token may ask only while the machine has
 * no Node yet, a node-agent only for itself.
 */
export async function decideNodeAgentClient(
  username: string,
  req: CertificateRequestInfo,
  lookups: NodeAgentLookups,
): Promise<Decision | undefined> {
  if (!req.commonName.startsWith(NodeAgentUserNamePrefix)) return undefined;
  const deny = (reason: string): Decision => ({ approve: false, reason });
  const machineName = req.commonName.slice(NodeAgentUserNamePrefix.length);
  const machine = await lookups.machine(machineName);
  if (!machine) return deny(`machine "${machineName}" does not exist`);
  if (username.startsWith('system:bootstrap:')) {
    const nodeName = machine.metadata?.labels?.node;
    if (nodeName && (await lookups.nodeExists(nodeName))) {
      return deny(
        `Cannot use bootstrap token since gardener-node-agent for machine "${machineName}" is already bootstrapped`,
      );
    }
  } else if (username.startsWith(NodeAgentUserNamePrefix)) {
    if (username !== req.commonName)
      return deny(`username "${username}" and commonName "${req.commonName}" do not match`);
  } else {
    return deny(`username "${username}" is not allowed to create CSRs for a gardener-node-agent`);
  }
  return { approve: true, reason: 'all checks passed' };
}

/** The condition the approver appends: Approved/RequestApproved or Denied/RequestDenied. */
export function approvalCondition(decision: Decision, now: Date, what = 'kubelet server') {
  return decision.approve
    ? {
        type: 'Approved',
        status: 'True',
        reason: 'RequestApproved',
        message: `Approving ${what} certificate CSR (${decision.reason})`,
        lastUpdateTime: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      }
    : {
        type: 'Denied',
        status: 'True',
        reason: 'RequestDenied',
        message: `Denying ${what} certificate CSR (${decision.reason})`,
        lastUpdateTime: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      };
}

/** Approved or denied already, or issued: nothing left to decide. */
export function isFinal(csr: { status?: { certificate?: string; conditions?: Array<{ type?: string }> } }): boolean {
  return (
    !!csr.status?.certificate ||
    (csr.status?.conditions ?? []).some((c) => c.type === 'Approved' || c.type === 'Denied')
  );
}
