// Wiring of the shoot care reconciler (Gardener's pkg/gardenlet/controller/shoot/care/add.go): the Shoots of this
// seed, when they appear, when a reconciliation has just succeeded and when a seed got assigned; every other check
// comes from the reconciler's requeue after shootCare.syncPeriod.
import { controllerFor, type Controller, type Manager, type ObjectEvent } from '@gardener-ts/controller-runtime';
import { forSeed } from '../shoot/add.js';
import { ShootKind, type Shoot } from '../../shoot/kinds.js';
import { ShootCareReconciler, type ShootCareReconcilerDeps } from './reconciler.js';
import { ShootClients } from './shoot-client.js';

/** The controller's name. */
export const ControllerName = 'shoot-care';

type LastOperation = NonNullable<Shoot['status']>['lastOperation'];

/**
 * Gardener's `ReconciliationFinishedSuccessfully` (pure): a processing operation other than Delete turned Succeeded.
 */
export function reconciliationFinishedSuccessfully(
  old: LastOperation | undefined,
  now: LastOperation | undefined,
): boolean {
  return (
    old !== undefined &&
    old.type !== 'Delete' &&
    old.state === 'Processing' &&
    now !== undefined &&
    now.type !== 'Delete' &&
    now.state === 'Succeeded'
  );
}

/** Which Shoot events trigger a check now (pure): creation, a successful reconciliation, a seed assigned. */
export function triggersCheck(event: ObjectEvent<Shoot>): boolean {
  if (event.type === 'create') return true;
  if (event.type !== 'update') return false;
  const { object: now, oldObject: old } = event;
  return (
    reconciliationFinishedSuccessfully(old.status?.lastOperation, now.status?.lastOperation) ||
    (!old.spec?.seedName && Boolean(now.spec?.seedName))
  );
}

/** Adds the shoot care controller. */
export function addShootCareController(
  mgr: Manager,
  deps: Omit<ShootCareReconcilerDeps, 'garden' | 'seed' | 'shootClients'> & {
    gardenCluster: string;
    seedCluster: string;
    concurrentSyncs: number;
  },
): Controller {
  const shootClients = new ShootClients();
  // The shoot clients keep connections open: closed when the manager stops.
  mgr.add({ needLeaderElection: false, start: () => undefined, stop: async () => shootClients.close() });
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.gardenCluster)
    .for(ShootKind, { predicates: [forSeed(deps.seedName), triggersCheck] })
    .withOptions({ maxConcurrentReconciles: Math.max(1, deps.concurrentSyncs) })
    .complete(
      new ShootCareReconciler({
        ...deps,
        garden: mgr.cluster(deps.gardenCluster).api,
        seed: mgr.cluster(deps.seedCluster).api,
        shootClients,
      }),
    );
}
