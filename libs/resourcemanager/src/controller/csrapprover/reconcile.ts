// The kubelet CSR approver: decides kubelet-serving CertificateSigningRequests of the target cluster once, through
// the `approval` subresource.
import {
  isNotFound,
  kind,
  NoKindMatchError,
  type ApiClient,
  type KubernetesObject,
  type ReconcileContext,
  type Request,
} from '@gardener-ts/controller-runtime';
import { parseCertificateRequest } from './certificate-request.js';
import { approvalCondition, decideKubeletServing, isFinal, KubeletServingSigner, type NodeAddresses } from './rules.js';

export interface CertificateSigningRequest extends KubernetesObject {
  spec?: { request?: string; signerName?: string; username?: string; usages?: string[] };
  status?: { certificate?: string; conditions?: Array<Record<string, unknown> & { type?: string }> };
}
export const CSRKind = kind<CertificateSigningRequest>('certificates.k8s.io/v1', 'CertificateSigningRequest');
export const NodeKind = kind<KubernetesObject & NodeAddresses>('v1', 'Node');
export const MachineKind = kind('machine.sapcloud.io/v1alpha1', 'Machine');

export interface CSRApproverOptions {
  /** Where the CSRs and Nodes are. */
  target: ApiClient;
  /** Where the Machines are. */
  source: ApiClient;
  machineNamespace: string;
  now?: () => Date;
}

export class CSRApprover {
  constructor(private readonly o: CSRApproverOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<void> {
    const csr = await this.o.target.get(CSRKind, { name: req.name }).catch((err) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (!csr || csr.spec?.signerName !== KubeletServingSigner) return;
    if (isFinal(csr)) {
      ctx.log.debug('Ignoring CSR, as it is in final state');
      return;
    }
    let info;
    try {
      info = parseCertificateRequest(Buffer.from(csr.spec?.request ?? '', 'base64'));
    } catch (err) {
      throw new Error(`unable to parse csr: ${(err as Error).message}`);
    }
    const decision = await decideKubeletServing(csr.spec?.username ?? '', info, {
      machineNamespace: this.o.machineNamespace,
      node: (name) =>
        this.o.target.get(NodeKind, { name }).catch((err) => {
          if (isNotFound(err)) return undefined;
          throw new Error(`error getting node object with name "${name}": ${(err as Error).message}`);
        }),
      machinesForNode: async (name) => {
        const list = await this.o.source
          .list(MachineKind, { namespace: this.o.machineNamespace || undefined, labelSelector: `node=${name}` })
          .catch((err) => {
            // No Machine API in the source cluster: there is no machine for the node.
            if (isNotFound(err) || err instanceof NoKindMatchError) return { items: [] };
            throw new Error(`failed to list machine objects: ${(err as Error).message}`);
          });
        return list.items.length;
      },
    });
    ctx.log.info({ reason: decision.reason }, decision.approve ? 'Auto-approving CSR' : 'Denying CSR');
    const updated = structuredClone(csr);
    updated.status = {
      ...updated.status,
      conditions: [...(updated.status?.conditions ?? []), approvalCondition(decision, this.o.now?.() ?? new Date())],
    };
    await this.o.target.transport.request({
      method: 'PUT',
      path: `/apis/certificates.k8s.io/v1/certificatesigningrequests/${encodeURIComponent(req.name)}/approval`,
      body: updated,
    });
  }
}
