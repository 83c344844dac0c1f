// The CSR approver: decides kubelet-serving and gardener-node-agent client CertificateSigningRequests of the target
// cluster once, through the `approval` subresource.
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
import {
  approvalCondition,
  decideKubeletServing,
  decideNodeAgentClient,
  isFinal,
  KubeAPIServerClientSigner,
  KubeletServingSigner,
  type Decision,
  type NodeAddresses,
} from './rules.js';

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
    const signer = csr?.spec?.signerName;
    if (!csr || (signer !== KubeletServingSigner && signer !== KubeAPIServerClientSigner)) return;
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
    const username = csr.spec?.username ?? '';
    let decision: Decision | undefined;
    if (signer === KubeAPIServerClientSigner) {
      decision = await decideNodeAgentClient(username, info, {
        machineNamespace: this.o.machineNamespace,
        machine: (name) =>
          this.o.source.get(MachineKind, { namespace: this.o.machineNamespace, name }).catch((err) => {
            if (isNotFound(err) || err instanceof NoKindMatchError) return undefined;
            throw new Error(`error getting machine object with name "${name}": ${(err as Error).message}`);
          }),
        nodeExists: (name) =>
          this.o.target.get(NodeKind, { name }).then(
            () => true,
            (err) => {
              if (isNotFound(err)) return false;
              throw new Error(`error getting node object with name "${name}": ${(err as Error).message}`);
            },
          ),
      });
      if (!decision) {
        ctx.log.debug('Not a CSR for gardener-node-agent');
        return;
      }
    } else
      decision = await decideKubeletServing(username, info, {
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
      conditions: [
        ...(updated.status?.conditions ?? []),
        approvalCondition(
          decision,
          this.o.now?.() ?? new Date(),
          signer === KubeAPIServerClientSigner ? 'gardener-node-agent' : 'kubelet server',
        ),
      ],
    };
    await this.o.target.transport.request({
      method: 'PUT',
      path: `/apis/certificates.k8s.io/v1/certificatesigningrequests/${encodeURIComponent(req.name)}/approval`,
      body: updated,
    });
  }
}
