// Registers Gardener's ShootState finalizer controller (`shootstate-finalizer`): ShootStates when created or updated,
// and Shoots when updated, mapped to the ShootState of the same namespace and name.
import { corev1beta1, type Shoot, type ShootState } from '@gardener-ts/api';
import {
  controllerFor,
  kindFrom,
  type Controller,
  type Manager,
  type Predicate,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ShootKind } from '../../kinds.js';
import { ShootStateFinalizerReconciler } from './reconciler.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'shootstate-finalizer';

/** Gardener's default number of workers of the controller (`controllers.shootState.concurrentSyncs`). */
export const DefaultConcurrentSyncs = 5;

/** The core.gardener.cloud/v1beta1 ShootState kind. */
export const ShootStateKind = kindFrom<ShootState>(corev1beta1.ShootStateKind);

/** ShootStates are reconciled when created or updated (Gardener's ShootStatePredicates). */
export const shootStatePredicate: Predicate<ShootState> = (e) => e.type === 'create' || e.type === 'update';

/** Shoots trigger on updates only: their last operation changes by updates (Gardener's ShootPredicates). */
export const shootPredicate: Predicate<Shoot> = (e) => e.type === 'update';

/** A Shoot's ShootState has the Shoot's namespace and name. */
export const mapShootToShootState = (shoot: Shoot): Request[] => [
  { namespace: shoot.metadata?.namespace ?? '', name: shoot.metadata?.name ?? '' },
];

/** Adds the controller to `mgr` on its garden cluster. */
export function addShootStateFinalizerController(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(ShootStateKind, { predicates: [shootStatePredicate] })
    .watches(ShootKind, mapShootToShootState, { predicates: [shootPredicate] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new ShootStateFinalizerReconciler(garden.client, ShootStateKind));
}
