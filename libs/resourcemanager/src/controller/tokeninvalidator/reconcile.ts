// The TokenInvalidator controller: labels legacy ServiceAccount token Secrets (target cluster) whose ServiceAccount
// sets `automountServiceAccountToken: false` so that the token-invalidator webhook invalidates their token.
import {
  isNotFound,
  kind,
  metadataOnly,
  type ApiClient,
  type KubernetesObject,
  type ReconcileContext,
  type ReconcileResult,
  type Reader,
  type Request,
} from '@gardener-ts/controller-runtime';
import {
  planInvalidation,
  PurposeTokenInvalidator,
  ServiceAccountNameAnnotation,
  TokenInvalidatorLabel as L,
} from './rules.js';

export const SecretMetadataKind = metadataOnly(kind('v1', 'Secret'));
export interface ServiceAccountObject extends KubernetesObject {
  automountServiceAccountToken?: boolean;
  secrets?: Array<{ name?: string }>;
}
export const ServiceAccountKind = kind<ServiceAccountObject>('v1', 'ServiceAccount');
const PodKind = kind<KubernetesObject & { spec?: { volumes?: Array<{ secret?: { secretName?: string } }> } }>(
  'v1',
  'Pod',
);

export interface TokenInvalidatorOptions {
  /** Cached reads of Secrets (metadata) and ServiceAccounts. */
  reader: Reader;
  /** Writes, and the live list of Pods. */
  api: ApiClient;
}

export class TokenInvalidator {
  constructor(private readonly o: TokenInvalidatorOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const secret = await this.o.reader.get(SecretMetadataKind, req).catch((err) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (!secret) return;
    const saName = secret.metadata?.annotations?.[ServiceAccountNameAnnotation] ?? '';
    const serviceAccount = await this.o.reader
      .get(ServiceAccountKind, { namespace: req.namespace, name: saName })
      .catch((err) => {
        throw new Error(`could not fetch ServiceAccount: ${(err as Error).message}`);
      });
    const plan = await planInvalidation({
      secretLabels: secret.metadata?.labels,
      serviceAccount,
      mountedByPod: async () => {
        const pods = await this.o.api.list(PodKind, { namespace: req.namespace });
        return pods.items.some((p) => (p.spec?.volumes ?? []).some((v) => v.secret?.secretName === req.name));
      },
    });
    const labels: Record<string, string | null> = {};
    if (plan.addPurpose) labels[L.Purpose] = PurposeTokenInvalidator;
    if (plan.consider === 'add') labels[L.Consider] = 'true';
    if (plan.consider === 'remove' && secret.metadata?.labels?.[L.Consider] !== undefined) labels[L.Consider] = null;
    if (Object.keys(labels).length > 0) {
      ctx.log.info({ labels }, 'Updating labels of ServiceAccount token Secret');
      await this.o.api.patch(kind('v1', 'Secret'), req, {
        type: 'merge',
        patch: { metadata: { resourceVersion: secret.metadata?.resourceVersion, labels } },
      });
    }
    if (plan.consider === 'retry') {
      ctx.log.info('Requeuing since there is still at least one pod mounting secret');
      return { requeue: true };
    }
  }
}
