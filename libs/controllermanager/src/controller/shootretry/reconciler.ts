// Gardener's shoot retry reconciler: a Shoot that failed due to exceeded infrastructure rate limits gets
// `gardener.cloud/operation=retry` once `retryPeriod` has passed since its last operation (`retry.ts`).
import { Annotations, Operations } from '@gardener-ts/api';
import {
  ignoreNotFound,
  type Client,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ShootKind } from '../../kinds.js';
import { decideRetry, failedDueToRateLimits } from './retry.js';

export interface ShootRetryReconcilerOptions {
  client: Pick<Client, 'get' | 'patch'>;
  retryPeriodMs: number;
  retryJitterPeriodMs: number;
  now?: () => Date;
  random?: () => number;
}

/** Retries one failed Shoot when it is due. */
export class ShootRetryReconciler {
  constructor(private readonly o: ShootRetryReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const shoot = await this.o.client.get(ShootKind, req).catch(ignoreNotFound);
    if (!shoot) {
      ctx.log.debug('Object is gone, stop reconciling');
      return;
    }
    if (!failedDueToRateLimits(shoot)) return;
    const decision = decideRetry(
      shoot,
      this.o.now?.() ?? new Date(),
      this.o.retryPeriodMs,
      this.o.retryJitterPeriodMs,
      this.o.random,
    );
    if (!decision.retry) {
      if (decision.requeueAfterMs === undefined) return;
      ctx.log.debug({ requeueAfterMs: decision.requeueAfterMs }, 'Scheduling retry for Shoot');
      return { requeueAfter: decision.requeueAfterMs };
    }
    ctx.log.info('Retrying failed Shoot');
    await this.o.client.patch(ShootKind, req, {
      type: 'merge',
      patch: { metadata: { annotations: { [Annotations.GardenerOperation]: Operations.OperationRetry } } },
    });
  }
}
