// The rules of the kubelet-serving approver: a CertificateSigningRequest for kubernetes.io/kubelet-serving is approved
// only when the node it names asked for it (username system:node:<node>, group system:nodes), the request has the
// signer's subject and usages (kube's "Certificate Signing Requests": O=system:nodes, CN=system:node:<node>; usages
// digital signature, server auth, key encipherment optional), the Node exists and every subject alternative name is
// one of the Node's status.addresses. Anything else is denied with the reason. kube-controller-manager never approves
// these; in Gardener the resource-manager's approver does, in shoots.
import type * as k8s from '@kubernetes/client-node';
import type { Node, Wire } from '../shared/kinds.js';
import { needsApproval } from '../csrapproving/rules.js';
import { canonicalIP, parseCertificateRequest } from './certificate-request.js';

export type CertificateSigningRequest = Wire<k8s.V1CertificateSigningRequest>;

export const KUBELET_SERVING_SIGNER = 'kubernetes.io/kubelet-serving';
const NODE_PREFIX = 'system:node:';
const NODES_GROUP = 'system:nodes';
const REQUIRED_USAGES = ['digital signature', 'server auth'];
const OPTIONAL_USAGES = ['key encipherment'];

export type Review =
  { approve: true; reason: string; message: string } | { approve: false; reason: string; message: string };

/** Whether the approver has anything to decide: a kubelet-serving CSR neither approved nor denied yet. */
export function needsReview(csr: CertificateSigningRequest): boolean {
  return csr.spec?.signerName === KUBELET_SERVING_SIGNER && needsApproval(csr);
}

/** The node a CSR's requester claims to be, when the requester is a node at all. */
export function requestingNode(csr: CertificateSigningRequest): string | undefined {
  const username = csr.spec?.username ?? '';
  if (!username.startsWith(NODE_PREFIX) || username.length === NODE_PREFIX.length) return undefined;
  if (!(csr.spec?.groups ?? []).includes(NODES_GROUP)) return undefined;
  return username.slice(NODE_PREFIX.length);
}

const deny = (why: string): Review => ({
  approve: false,
  reason: 'RequestDenied',
  message: `Denying kubelet server certificate CSR: ${why}`,
});

/** The decision for a kubelet-serving CSR; `node` is the Node the requester names (undefined: it does not exist). */
export function reviewKubeletServingCSR(csr: CertificateSigningRequest, node: Node | undefined): Review {
  const nodeName = requestingNode(csr);
  if (!nodeName)
    return deny(
      `requester ${JSON.stringify(csr.spec?.username ?? '')} is not a node (username system:node:<name> in group system:nodes)`,
    );
  const usages = csr.spec?.usages ?? [];
  const missing = REQUIRED_USAGES.filter((u) => !usages.includes(u));
  const extra = usages.filter((u) => !REQUIRED_USAGES.includes(u) && !OPTIONAL_USAGES.includes(u));
  if (missing.length || extra.length) {
    return deny(
      `usages must be ${REQUIRED_USAGES.join(', ')} (and optionally ${OPTIONAL_USAGES.join(', ')}), got ${JSON.stringify(usages)}`,
    );
  }
  let request;
  try {
    request = parseCertificateRequest(Buffer.from(csr.spec?.request ?? '', 'base64').toString('latin1'));
  } catch (err) {
    return deny(`the request is not a PKCS#10 certificate request: ${(err as Error).message}`);
  }
  const expectedCN = `${NODE_PREFIX}${nodeName}`;
  if (request.commonName !== expectedCN)
    return deny(
      `common name ${JSON.stringify(request.commonName ?? '')} is not the requesting node's ${JSON.stringify(expectedCN)}`,
    );
  if (request.organizations.length !== 1 || request.organizations[0] !== NODES_GROUP) {
    return deny(`organization ${JSON.stringify(request.organizations)} must be exactly ["${NODES_GROUP}"]`);
  }
  if (request.otherNames > 0)
    return deny('only DNS names and IP addresses may be requested as subject alternative names');
  if (request.dnsNames.length + request.ipAddresses.length === 0)
    return deny('the request has no DNS names or IP addresses');
  if (!node) return deny(`node ${JSON.stringify(nodeName)} does not exist`);
  const addresses = node.status?.addresses ?? [];
  const hostnames = new Set(
    addresses.filter((a) => /DNS$|^Hostname$/.test(a.type)).map((a) => a.address.toLowerCase()),
  );
  const ips = new Set(addresses.filter((a) => /IP$/.test(a.type)).map((a) => canonicalIP(a.address)));
  const foreignNames = request.dnsNames.filter((n) => !hostnames.has(n.toLowerCase()));
  const foreignIPs = request.ipAddresses.filter((ip) => !ips.has(canonicalIP(ip)));
  if (foreignNames.length || foreignIPs.length) {
    return deny(
      `subject alternative names ${JSON.stringify([...foreignNames, ...foreignIPs])} are not addresses of node ${JSON.stringify(nodeName)}`,
    );
  }
  return {
    approve: true,
    reason: 'RequestApproved',
    message: 'Approving kubelet server certificate CSR (all checks passed)',
  };
}
