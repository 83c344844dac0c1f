// Registers the shoot migration controller (Gardener's `shoot-migration`): Shoots when created to be migrated, when
// their `spec.seedName` changes, and whenever they carry a `ReadyForMigration` constraint while their last operation
// is not a Migrate (the constraint is to be removed once the migration is over).
import type { Shoot } from '@gardener-ts/api';
import { controllerFor, type Controller, type Manager, type Predicate } from '@gardener-ts/controller-runtime';
import { ShootKind } from '../../kinds.js';
import { readyForMigrationConstraint, shouldPrepareShootForMigration } from './readiness.js';
import { ShootMigrationReconciler } from './reconciler.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'shoot-migration';

/** A constraint is present while the shoot's last operation is not a Migrate (Gardener's requireConstraintRemoval). */
export const requiresConstraintRemoval = (shoot: Shoot): boolean =>
  readyForMigrationConstraint(shoot) !== undefined && shoot.status?.lastOperation?.type !== 'Migrate';

/** Gardener's ShootPredicate of the migration controller. */
export const shootPredicate: Predicate<Shoot> = (e) => {
  if (e.type === 'create') return shouldPrepareShootForMigration(e.object) || requiresConstraintRemoval(e.object);
  if (e.type !== 'update') return false;
  return (e.oldObject.spec.seedName ?? '') !== (e.object.spec.seedName ?? '') || requiresConstraintRemoval(e.object);
};

/** Adds the controller to `mgr` on its garden cluster. */
export function addShootMigrationController(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(ShootKind, { predicates: [shootPredicate] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new ShootMigrationReconciler({ client: garden.client }));
}
