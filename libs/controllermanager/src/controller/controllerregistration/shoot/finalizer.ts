// Gardener's controllerregistration cluster finalizer for Shoots (`controllerregistration-cluster-finalizer-shoot`):
// every Shoot carries `core.gardener.cloud/controllerregistration`, and a Shoot being deleted keeps it until no
// ControllerInstallation references it by `spec.shootRef`, so the installations of a self-hosted shoot are cleaned up
// before it goes.
import {
  addFinalizer,
  hasFinalizer,
  ignoreNotFound,
  removeFinalizer,
  type Client,
  type ReconcileContext,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ControllerInstallationKind, ShootKind } from '../../../kinds.js';
import { FinalizerName } from '../finalizer/reconciler.js';

/** Keeps the finalizer on Shoots while installations reference them. */
export class ShootInstallationFinalizerReconciler {
  constructor(private readonly client: Pick<Client, 'get' | 'list' | 'patch'>) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<void> {
    const shoot = await this.client.get(ShootKind, req).catch(ignoreNotFound);
    if (!shoot) {
      ctx.log.debug('Object is gone, stop reconciling');
      return;
    }
    if (shoot.metadata?.deletionTimestamp) {
      if (!hasFinalizer(shoot, FinalizerName)) return;
      const installations = await this.client.list(ControllerInstallationKind);
      const referenced = installations.items.some(
        (i) => i.spec.shootRef?.name === req.name && i.spec.shootRef?.namespace === req.namespace,
      );
      // Still referenced: the watch on deleted ControllerInstallations brings us back.
      if (referenced) return;
      ctx.log.info('Removing finalizer');
      await removeFinalizer(this.client, shoot, FinalizerName);
      return;
    }
    if (!hasFinalizer(shoot, FinalizerName)) {
      ctx.log.info('Adding finalizer');
      await addFinalizer(this.client, shoot, FinalizerName);
    }
  }
}
