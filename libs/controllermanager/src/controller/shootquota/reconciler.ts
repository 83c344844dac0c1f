// Gardener's shoot quota reconciler: a Shoot whose binding counts against Quotas with `clusterLifetimeDays` gets the
// annotation `shoot.gardener.cloud/expiration-timestamp` (creation + lifetime) and, once that time has passed, is
// deleted — with `confirmation.gardener.cloud/deletion=true` first, as Gardener's admission requires. Checked again
// every `syncPeriod`.
import { Annotations, type Quota, type Shoot } from '@gardener-ts/api';
import {
  ignoreNotFound,
  isNotFound,
  wrapError,
  type Client,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { CredentialsBindingKind, QuotaKind, SecretBindingKind, ShootKind } from '../../kinds.js';
import { clusterLifetimeDays, planExpiration, ShootExpirationTimestamp } from './expiration.js';

export interface ShootQuotaReconcilerOptions {
  client: Pick<Client, 'get' | 'patch' | 'delete'>;
  syncPeriodMs: number;
  now?: () => Date;
}

/** Annotates and, once expired, deletes one Shoot by the lifetime of its quotas. */
export class ShootQuotaReconciler {
  constructor(private readonly o: ShootQuotaReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const shoot = await this.o.client.get(ShootKind, req).catch(ignoreNotFound);
    if (!shoot) {
      ctx.log.debug('Object is gone, stop reconciling');
      return;
    }
    const plan = planExpiration(shoot, clusterLifetimeDays(await this.quotasOf(shoot)), this.o.now?.() ?? new Date());
    const annotate = (value: string | null) =>
      this.o.client.patch(ShootKind, req, {
        type: 'merge',
        patch: { metadata: { annotations: { [ShootExpirationTimestamp]: value } } },
      });
    if (plan.action === 'unlimited') {
      if (plan.removeAnnotation) {
        ctx.log.info('Removing expiration timestamp annotation');
        await annotate(null);
      }
      return { requeueAfter: this.o.syncPeriodMs };
    }
    if (plan.annotate) {
      ctx.log.info({ expirationTime: plan.annotate }, 'Setting expiration timestamp annotation');
      await annotate(plan.annotate);
    }
    if (!plan.expired) return { requeueAfter: this.o.syncPeriodMs };

    ctx.log.info({ expirationTime: plan.expirationTime }, 'Shoot cluster lifetime expired, deleting Shoot');
    try {
      await this.o.client.patch(ShootKind, req, {
        type: 'merge',
        patch: { metadata: { annotations: { [Annotations.ConfirmationDeletion]: 'true' } } },
      });
      await this.o.client.delete(ShootKind, req);
    } catch (err) {
      if (isNotFound(err)) return;
      throw wrapError(err, `failed to delete expired Shoot ${req.namespace}/${req.name}`);
    }
  }

  /** The Quotas the Shoot's SecretBinding (or else CredentialsBinding) counts against. */
  private async quotasOf(shoot: Shoot): Promise<Quota[]> {
    const namespace = shoot.metadata?.namespace ?? '';
    let refs: { name?: string; namespace?: string }[] = [];
    if (shoot.spec.secretBindingName) {
      const binding = await this.o.client.get(SecretBindingKind, { namespace, name: shoot.spec.secretBindingName });
      refs = binding.quotas ?? [];
    } else if (shoot.spec.credentialsBindingName) {
      const binding = await this.o.client.get(CredentialsBindingKind, {
        namespace,
        name: shoot.spec.credentialsBindingName,
      });
      refs = binding.quotas ?? [];
    }
    return Promise.all(refs.map((q) => this.o.client.get(QuotaKind, { namespace: q.namespace, name: q.name ?? '' })));
  }
}
