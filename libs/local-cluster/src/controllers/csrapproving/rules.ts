// The rules of kube-controller-manager's csrapproving controller (the SubjectAccessReview approver): which
// CertificateSigningRequests it recognizes as kubelet client certificates, and which subresource of
// `certificatesigningrequests` the requester must be allowed to `create` for the request to be approved. A kubelet
// client CSR is one for signer kubernetes.io/kube-apiserver-client-kubelet whose request has O=system:nodes and
// CN=system:node:<name>, no subject alternative names, and the usages kube requires (client auth and digital signature,
// key encipherment optional). Renewal by the node itself (requester = CN) needs `selfnodeclient`; anything else (a
// bootstrap token during TLS bootstrap) needs `nodeclient`. The approver never denies.
import type * as k8s from '@kubernetes/client-node';
import type { Wire } from '../shared/kinds.js';
import type { CertificateRequestInfo } from '../csrapproving-kubelet-serving/certificate-request.js';

export type CertificateSigningRequest = Wire<k8s.V1CertificateSigningRequest>;

export const KUBELET_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';
const NODE_PREFIX = 'system:node:';
const NODES_GROUP = 'system:nodes';
const REQUIRED_USAGES = ['client auth', 'digital signature'];
const OPTIONAL_USAGES = ['key encipherment'];

/** A way the approver recognizes a CSR: the subresource to ask about and the approval message. */
export interface Recognition {
  subresource: 'selfnodeclient' | 'nodeclient';
  message: string;
}

/** Whether the approver has anything to decide: neither approved, denied nor failed, and not issued. */
export function needsApproval(csr: CertificateSigningRequest): boolean {
  if (csr.status?.certificate) return false;
  return !(csr.status?.conditions ?? []).some(
    (c) => (c.type === 'Approved' || c.type === 'Denied' || c.type === 'Failed') && c.status !== 'False',
  );
}

/** Why a CSR is not a kubelet client certificate request; undefined when it is one. */
export function notNodeClientCert(csr: CertificateSigningRequest, request: CertificateRequestInfo): string | undefined {
  if (csr.spec?.signerName !== KUBELET_CLIENT_SIGNER) return `signer is not ${KUBELET_CLIENT_SIGNER}`;
  if (request.organizations.length !== 1 || request.organizations[0] !== NODES_GROUP)
    return `organization ${JSON.stringify(request.organizations)} is not ["${NODES_GROUP}"]`;
  if (request.dnsNames.length + request.ipAddresses.length + request.otherNames > 0)
    return 'a kubelet client certificate has no subject alternative names';
  if (!request.commonName?.startsWith(NODE_PREFIX) || request.commonName.length === NODE_PREFIX.length)
    return `common name ${JSON.stringify(request.commonName ?? '')} is not system:node:<name>`;
  const usages = csr.spec?.usages ?? [];
  const missing = REQUIRED_USAGES.filter((u) => !usages.includes(u));
  const extra = usages.filter((u) => !REQUIRED_USAGES.includes(u) && !OPTIONAL_USAGES.includes(u));
  if (missing.length || extra.length)
    return `usages ${JSON.stringify(usages)} are not ${REQUIRED_USAGES.join(', ')} (optionally ${OPTIONAL_USAGES.join(', ')})`;
  return undefined;
}

/** The recognitions of a kubelet client CSR, in the order they are tried: the node itself first, then anyone. */
export function recognize(csr: CertificateSigningRequest, request: CertificateRequestInfo): Recognition[] {
  if (notNodeClientCert(csr, request) !== undefined) return [];
  const nodeClient: Recognition = {
    subresource: 'nodeclient',
    message: 'Auto approving kubelet client certificate after SubjectAccessReview.',
  };
  if (csr.spec?.username === request.commonName)
    return [
      {
        subresource: 'selfnodeclient',
        message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
      },
      nodeClient,
    ];
  return [nodeClient];
}
