// kube-controller-manager's csrapproving controller: a kubelet client CertificateSigningRequest (rules.ts) is approved
// once a SubjectAccessReview says its requester may `create certificatesigningrequests/selfnodeclient` (a node renewing
// its own certificate) or `.../nodeclient` (a bootstrap token during the kubelet's TLS bootstrap — Gardener binds
// `system:bootstrappers` to the `system:certificates.k8s.io:certificatesigningrequests:nodeclient` ClusterRole). A
// recognized request that no review allows is retried with back-off; anything else is left alone (never denied). The
// API server's signer then issues an approved request.
import {
  controllerFor,
  ignoreNotFound,
  isConflict,
  isNotFound,
  kind,
  type ApiClient,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { parseCertificateRequest } from '../csrapproving-kubelet-serving/certificate-request.js';
import { needsApproval, recognize, type CertificateSigningRequest } from './rules.js';

export const CSRKind = kind<CertificateSigningRequest>('certificates.k8s.io/v1', 'CertificateSigningRequest');
export const CSR_APPROVING = 'csrapproving';

/** What the approver needs from the API server: read a CSR, ask the authorizer, write the approval. */
export interface ApproverApi {
  get(name: string): Promise<CertificateSigningRequest | undefined>;
  /** Whether the CSR's requester may `create certificatesigningrequests/<subresource>`. */
  allowed(csr: CertificateSigningRequest, subresource: string): Promise<boolean>;
  /** Adds the Approved condition through the approval subresource; false when the CSR changed meanwhile. */
  approve(csr: CertificateSigningRequest, condition: Record<string, string>): Promise<boolean>;
}

/** The ApproverApi over a live client (reviews and approvals are never cached). */
export function approverApi(api: ApiClient): ApproverApi {
  return {
    get: (name) => api.get(CSRKind, { name }).catch(ignoreNotFound) as Promise<CertificateSigningRequest | undefined>,
    allowed: async (csr, subresource) => {
      const spec = csr.spec!;
      const review = await api.create<{ apiVersion: string; kind: string; status?: { allowed?: boolean } }>({
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user: spec.username,
          uid: spec.uid,
          groups: spec.groups,
          extra: spec.extra,
          resourceAttributes: {
            group: 'certificates.k8s.io',
            resource: 'certificatesigningrequests',
            subresource,
            verb: 'create',
          },
        },
      } as never);
      return review.status?.allowed === true;
    },
    // An update of the approval subresource (PUT, as kube's UpdateApproval): what the certificate-controller role may
    // do; the resourceVersion makes it fail with Conflict if the CSR changed meanwhile.
    approve: async (csr, condition) => {
      try {
        await api.transport.request({
          method: 'PUT',
          path: `/apis/certificates.k8s.io/v1/certificatesigningrequests/${encodeURIComponent(csr.metadata!.name!)}/approval`,
          body: {
            ...csr,
            apiVersion: 'certificates.k8s.io/v1',
            kind: 'CertificateSigningRequest',
            status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), condition] },
          },
        });
        return true;
      } catch (err) {
        if (isNotFound(err) || isConflict(err)) return false;
        throw err;
      }
    },
  };
}

/** Registers the approver with the controller manager (on by default, as in kube-controller-manager). */
export function addCSRApprovingController(ctx: ControllerContext): void {
  controllerFor(ctx.mgr, CSR_APPROVING)
    .for(CSRKind)
    .withOptions({ maxConcurrentReconciles: 2, needLeaderElection: false })
    .complete(new CSRApprovingReconciler(approverApi(ctx.api), ctx.now));
}

/** Approves kubelet client CSRs whose requester a SubjectAccessReview allows; see the file header. */
export class CSRApprovingReconciler {
  constructor(
    private readonly api: ApproverApi,
    private readonly now: () => number = Date.now,
  ) {}

  async reconcile(req: Request, { log }: ReconcileContext): Promise<ReconcileResult | void> {
    const csr = await this.api.get(req.name);
    if (!csr || !needsApproval(csr)) return;
    let request;
    try {
      request = parseCertificateRequest(Buffer.from(csr.spec?.request ?? '', 'base64').toString('latin1'));
    } catch {
      return; // not a request this approver can read: some other approver's (or nobody's) business
    }
    const recognitions = recognize(csr, request);
    if (recognitions.length === 0) return;
    for (const recognition of recognitions) {
      if (!(await this.api.allowed(csr, recognition.subresource))) continue;
      const now = new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const approved = await this.api.approve(csr, {
        type: 'Approved',
        status: 'True',
        reason: 'AutoApproved',
        message: recognition.message,
        lastUpdateTime: now,
        lastTransitionTime: now,
      });
      if (!approved) return { requeue: true };
      log.info(
        { csr: req.name, requester: csr.spec?.username, subresource: recognition.subresource },
        'Approved kubelet client CSR',
      );
      return;
    }
    throw new Error(
      `recognized CSR ${req.name} as ${recognitions.map((r) => r.subresource).join(', ')} but no SubjectAccessReview allowed ${JSON.stringify(csr.spec?.username ?? '')}`,
    );
  }
}
