// Wiring of the periodic ShootState backup (Gardener's pkg/gardenlet/controller/shoot/state/add.go): the Shoots of this
// seed (`spec.seedName`), on every event except updates that leave `spec.seedName` alone — the schedule comes from the
// reconciler's requeue. The backup is the migrate flow's ShootState writer with the stored state replaced.
import { controllerFor, type Controller, type Manager, type Predicate } from '@gardener-ts/controller-runtime';
import { controlPlaneNamespaceOf } from '../../component/values.js';
import { ShootKind, type Shoot } from '../../shoot/kinds.js';
import { deployShootState } from '../../shoot/shootstate-writer.js';
import { ShootStateReconciler, type ShootStateReconcilerDeps } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'shoot-state';

/** Gardener's `SeedNamePredicate`: Shoots whose `spec.seedName` is this seed. */
export function seedNamePredicate(seedName: string): Predicate<Shoot> {
  return (event) => event.object.spec?.seedName === seedName;
}

/** Gardener's `SeedNameChangedPredicate`: every event except updates, which pass when `spec.seedName` changed. */
export const seedNameChanged: Predicate<Shoot> = (event) =>
  event.type !== 'update' || event.oldObject.spec?.seedName !== event.object.spec?.seedName;

/** Adds the shoot state controller. */
export function addShootStateController(
  mgr: Manager,
  deps: Omit<ShootStateReconcilerDeps, 'garden' | 'backup'> & {
    gardenCluster: string;
    seedCluster: string;
    concurrentSyncs: number;
  },
): Controller {
  const garden = mgr.cluster(deps.gardenCluster).api;
  const seed = mgr.cluster(deps.seedCluster).api;
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.gardenCluster)
    .for(ShootKind, { predicates: [seedNamePredicate(deps.seedName), seedNameChanged] })
    .withOptions({ maxConcurrentReconciles: Math.max(1, deps.concurrentSyncs) })
    .complete(
      new ShootStateReconciler({
        ...deps,
        garden,
        backup: async (shoot, now) =>
          void (await deployShootState(garden, seed, shoot, controlPlaneNamespaceOf(shoot), now, {
            overwriteSpec: true,
          })),
      }),
    );
}
