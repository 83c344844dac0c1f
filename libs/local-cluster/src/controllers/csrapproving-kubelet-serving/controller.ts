// Wiring of the kubelet-serving CSR approver (opt-in: `controllers` must name it). Each CertificateSigningRequest for
// kubernetes.io/kubelet-serving is reviewed once (rules.ts) and gets an Approved or Denied condition through the
// approval subresource; the API server's signer then issues an approved one.
import {
  controllerFor,
  ignoreNotFound,
  isConflict,
  isNotFound,
  kind,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import { NodeKind } from '../shared/kinds.js';
import { needsReview, requestingNode, reviewKubeletServingCSR, type CertificateSigningRequest } from './rules.js';

export const CSRKind = kind<CertificateSigningRequest>('certificates.k8s.io/v1', 'CertificateSigningRequest');
export const KUBELET_SERVING_APPROVER = 'csrapproving-kubelet-serving';

export function addKubeletServingCSRApprover(ctx: ControllerContext): void {
  controllerFor(ctx.mgr, KUBELET_SERVING_APPROVER)
    .for(CSRKind)
    .withOptions({ maxConcurrentReconciles: 2, needLeaderElection: false })
    .complete(new KubeletServingCSRApprover(ctx));
}

export class KubeletServingCSRApprover {
  constructor(private readonly ctx: ControllerContext) {}

  async reconcile(req: Request, { log }: ReconcileContext): Promise<ReconcileResult | void> {
    const csr = await this.ctx.client.get(CSRKind, { name: req.name }).catch(ignoreNotFound);
    if (!csr || !needsReview(csr)) return;
    const nodeName = requestingNode(csr);
    // The Node from the API server, not the cache: a kubelet registers its Node just before it asks.
    const node = nodeName ? await this.ctx.api.get(NodeKind, { name: nodeName }).catch(ignoreNotFound) : undefined;
    const review = reviewKubeletServingCSR(csr, node ?? undefined);
    const now = new Date(this.ctx.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const condition = {
      type: review.approve ? 'Approved' : 'Denied',
      status: 'True',
      reason: review.reason,
      message: review.message,
      lastUpdateTime: now,
      lastTransitionTime: now,
    };
    try {
      await this.ctx.client.patch(
        CSRKind,
        { name: req.name },
        {
          type: 'merge',
          patch: {
            metadata: { resourceVersion: csr.metadata?.resourceVersion },
            status: { conditions: [...(csr.status?.conditions ?? []), condition] },
          },
        },
        { subresource: 'approval' },
      );
    } catch (err) {
      if (isNotFound(err)) return;
      if (isConflict(err)) return { requeue: true };
      throw err;
    }
    log.info(
      { csr: req.name, node: nodeName, approved: review.approve, message: review.message },
      review.approve ? 'Approved kubelet serving CSR' : 'Denied kubelet serving CSR',
    );
  }
}
