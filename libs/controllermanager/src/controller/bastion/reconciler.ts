// Gardener's Bastion controller: deletes Bastions whose Shoot is gone, in deletion or moved to another seed, and those
// whose heartbeat expired or that reached `controllers.bastion.maxLifetime` (`expiry.ts`).
import {
  ignoreNotFound,
  type Client,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { BastionKind, ShootKind } from '../../kinds.js';
import { bastionVerdict } from './expiry.js';

/** Expires one Bastion. */
export class BastionReconciler {
  constructor(
    private readonly client: Pick<Client, 'get' | 'delete'>,
    private readonly maxLifetimeMs: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const bastion = await this.client.get(BastionKind, req).catch(ignoreNotFound);
    if (!bastion || bastion.metadata?.deletionTimestamp) return;
    const shoot = await this.client
      .get(ShootKind, { namespace: req.namespace, name: bastion.spec.shootRef.name })
      .catch(ignoreNotFound);
    const verdict = bastionVerdict(bastion, shoot, this.now(), this.maxLifetimeMs);
    if (verdict.action === 'keep') return { requeueAfter: verdict.requeueAfterMs };
    ctx.log.info({ reason: verdict.reason }, 'Deleting Bastion');
    await this.client.delete(BastionKind, req).catch(ignoreNotFound);
  }
}
