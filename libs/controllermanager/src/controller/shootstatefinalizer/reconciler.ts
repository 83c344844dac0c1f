// Gardener's ShootState finalizer reconciler (pkg/controllermanager/controller/shoot/state/finalizer): reads the Shoot
// of the request and its ShootState (same namespace and name), then adds or removes `core.gardener.cloud/shootstate`
// as `finalizerAction` says, with the race-free finalizer helpers.
import type { Shoot, ShootState } from '@gardener-ts/api';
import {
  addFinalizer,
  hasFinalizer,
  ignoreNotFound,
  removeFinalizer,
  type Client,
  type Kind,
  type ReconcileContext,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ShootKind } from '../../kinds.js';
import { finalizerAction, ShootStateFinalizer } from './finalizer.js';

/** Reconciles the finalizer of one ShootState from its Shoot. */
export class ShootStateFinalizerReconciler {
  constructor(
    private readonly client: Pick<Client, 'get' | 'patch'>,
    private readonly shootStateKind: Kind<ShootState>,
  ) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<void> {
    // Gardener returns the error of a missing Shoot (and retries); a Shoot that is gone has nothing left to protect
    // here, so this stops instead.
    const shoot: Shoot | undefined = await this.client.get(ShootKind, req).catch(ignoreNotFound);
    if (!shoot) return;
    const shootState = await this.client.get(this.shootStateKind, req).catch(ignoreNotFound);
    if (!shootState) return;
    const lastOperation = shoot.status?.lastOperation;
    const action = finalizerAction(lastOperation, hasFinalizer(shootState, ShootStateFinalizer));
    const log = { lastOperation: lastOperation && `${lastOperation.type}/${lastOperation.state}`, action };
    if (action === 'add') {
      ctx.log.info(log, 'Adding finalizer');
      await addFinalizer(this.client, shootState, ShootStateFinalizer);
    } else if (action === 'remove') {
      ctx.log.info(log, 'Removing finalizer');
      await removeFinalizer(this.client, shootState, ShootStateFinalizer);
    }
  }
}
