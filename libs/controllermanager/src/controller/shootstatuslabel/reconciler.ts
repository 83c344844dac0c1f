// Gardener's shoot status label reconciler: keeps `shoot.gardener.cloud/status` on every Shoot equal to
// `computeShootStatus` of its status.
import { Labels } from '@gardener-ts/api';
import { ignoreNotFound, type Client, type ReconcileContext, type Request } from '@gardener-ts/controller-runtime';
import { ShootKind } from '../../kinds.js';
import { computeShootStatus } from './status.js';

/** Labels one Shoot with its health summary. */
export class ShootStatusLabelReconciler {
  constructor(private readonly client: Client) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<void> {
    const shoot = await this.client.get(ShootKind, req).catch(ignoreNotFound);
    if (!shoot) return;
    const status = computeShootStatus({
      lastOperation: shoot.status?.lastOperation,
      lastErrors: shoot.status?.lastErrors,
      conditions: shoot.status?.conditions,
    });
    if (shoot.metadata?.labels?.[Labels.ShootStatus] === status) return;
    ctx.log.info({ status }, 'Updating shoot status label');
    await this.client.patch(ShootKind, req, {
      type: 'merge',
      patch: { metadata: { labels: { [Labels.ShootStatus]: status } } },
    });
  }
}
