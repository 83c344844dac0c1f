// Gardener's CertificateSigningRequest controller: approves gardenlet client certificates for seeds once the
// requester (a bootstrap token user, or the gardenlet renewing its certificate) is allowed to
// `create certificatesigningrequests/seedclient`, as a SubjectAccessReview says. Other CSRs are left alone.
import { ignoreNotFound, type ApiClient, type ReconcileContext, type Request } from '@gardener-ts/controller-runtime';
import { CertificateSigningRequestKind, type CertificateSigningRequest } from '../../kinds.js';
import { isSeedClientCert, parseSeedCertificateRequest } from './seed-client.js';

/** The answer of a SubjectAccessReview. */
export interface AccessDecision {
  allowed: boolean;
  reason?: string;
}

/** Who asks and what for, as a SubjectAccessReview's spec. */
export interface AccessQuestion {
  user: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  resourceAttributes: { group: string; resource: string; subresource: string; verb: string };
}

/** What the reconciler needs from the garden: read a CSR, ask the authorizer, write the approval. */
export interface CSRGarden {
  get(name: string): Promise<CertificateSigningRequest | undefined>;
  review(question: AccessQuestion): Promise<AccessDecision>;
  approve(csr: CertificateSigningRequest): Promise<void>;
}

/** A CSRGarden over a live client: SubjectAccessReviews and the `approval` subresource are not cached. */
export function csrGarden(api: ApiClient): CSRGarden {
  return {
    get: (name) => api.get(CertificateSigningRequestKind, { name }).catch(ignoreNotFound),
    review: async (question) => {
      const { user, uid, groups, extra, resourceAttributes } = question;
      const answer = await api.create<{ apiVersion: string; kind: string; status?: AccessDecision }>({
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: { user, uid, groups, extra, resourceAttributes },
      } as never);
      return { allowed: answer.status?.allowed === true, reason: answer.status?.reason };
    },
    approve: async (csr) => {
      await api.transport.request({
        method: 'PUT',
        path: `/apis/certificates.k8s.io/v1/certificatesigningrequests/${encodeURIComponent(csr.metadata!.name!)}/approval`,
        body: csr,
      });
    },
  };
}

/** Approves seed client CSRs whose requester may create `certificatesigningrequests/seedclient`. */
export class CertificateSigningRequestReconciler {
  constructor(
    private readonly garden: CSRGarden,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<void> {
    const csr = await this.garden.get(req.name);
    if (!csr) {
      ctx.log.debug('Object is gone, stop reconciling');
      return;
    }
    const final = csr.status?.conditions?.find((c) => c.type === 'Approved' || c.type === 'Denied');
    if (csr.status?.certificate || final) {
      ctx.log.info({ finalState: final?.type }, 'Ignoring CSR, as it is in final state');
      return;
    }
    let subject;
    try {
      subject = parseSeedCertificateRequest(Buffer.from(csr.spec?.request ?? '', 'base64'));
    } catch (err) {
      throw new Error(`unable to parse csr: ${(err as Error).message}`, { cause: err });
    }
    const verdict = isSeedClientCert(subject, csr.spec?.usages ?? []);
    if (!verdict.ok) {
      ctx.log.info({ reason: verdict.reason }, 'Ignoring CSR, as it does not match the requirements for a seed client');
      return;
    }
    const spec = csr.spec ?? {};
    ctx.log.info(
      { username: spec.username, groups: spec.groups },
      'Checking if creating user has authorization for seedclient subresource',
    );
    const decision = await this.garden.review({
      user: spec.username ?? '',
      ...(spec.uid ? { uid: spec.uid } : {}),
      ...(spec.groups ? { groups: spec.groups } : {}),
      ...(spec.extra ? { extra: spec.extra } : {}),
      resourceAttributes: {
        group: 'certificates.k8s.io',
        resource: 'certificatesigningrequests',
        subresource: 'seedclient',
        verb: 'create',
      },
    });
    if (!decision.allowed) {
      throw new Error(`recognized CSR but SubjectAccessReview was not allowed: ${decision.reason ?? ''}`);
    }
    ctx.log.info('Auto-approving CSR');
    const approved = structuredClone(csr);
    approved.status = {
      ...approved.status,
      conditions: [
        ...(approved.status?.conditions ?? []),
        {
          type: 'Approved',
          status: 'True',
          reason: 'AutoApproved',
          message: 'Auto approving gardenlet client certificate after SubjectAccessReview.',
          lastUpdateTime: this.now()
            .toISOString()
            .replace(/\.\d{3}Z$/, 'Z'),
        },
      ],
    };
    await this.garden.approve(approved);
  }
}
