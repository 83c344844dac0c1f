// Wiring of the gardenlet's Shoot main reconciler: the Shoots of this seed (spec.seedName, or status.seedName while
// one migrates away), on creation and on the changes that ask for work — a new generation, annotations (operation,
// confirmation, ignore), the start of the deletion, a new seed, and the hand-over of a migrated shoot (the source seed's
// Migrate Succeeded, which is the destination's cue to restore). Other status writes (the controller's own) do not pass.
import { controllerFor, type Controller, type Manager, type ObjectEvent } from '@gardener-ts/controller-runtime';
import { ShootKind, type Shoot } from '../../shoot/kinds.js';
import { ShootReconciler, type ShootReconcilerDeps } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'shoot';

/** Whether a Shoot is this seed's (pure). */
export const forSeed = (seedName: string) => (event: { object: Shoot }) =>
  event.object.spec?.seedName === seedName || event.object.status?.seedName === seedName;

/** Whether a lastOperation says the source seed finished (or aborted) a migration. */
function migrationHandedOver(shoot: Shoot): boolean {
  const last = shoot.status?.lastOperation;
  return last?.type === 'Migrate' && (last.state === 'Succeeded' || last.state === 'Aborted');
}

/**
 * Whether an event asks the Shoot controller for work (pure). Gardener's API server raises a Shoot's generation when
 * its status reports Migrate Succeeded or Aborted, so the destination's generation predicate lets the hand-over pass;
 * our Shoots are CRDs, whose status writes never move the generation, so the hand-over is recognised here.
 */
export function asksForWork(event: ObjectEvent<Shoot>): boolean {
  if (event.type !== 'update') return event.type !== 'delete';
  const { object: now, oldObject: old } = event;
  return (
    now.metadata?.generation !== old.metadata?.generation ||
    JSON.stringify(now.metadata?.annotations ?? {}) !== JSON.stringify(old.metadata?.annotations ?? {}) ||
    Boolean(now.metadata?.deletionTimestamp) !== Boolean(old.metadata?.deletionTimestamp) ||
    now.spec?.seedName !== old.spec?.seedName ||
    (migrationHandedOver(now) && !migrationHandedOver(old))
  );
}

/** Adds the Shoot main controller. */
export function addShootController(
  mgr: Manager,
  deps: Omit<ShootReconcilerDeps, 'garden' | 'gardenApi' | 'seed'> & {
    gardenCluster: string;
    seedCluster: string;
    concurrentSyncs: number;
  },
): Controller {
  const garden = mgr.cluster(deps.gardenCluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.gardenCluster)
    .for(ShootKind, { predicates: [forSeed(deps.seedName), asksForWork] })
    .withOptions({ maxConcurrentReconciles: Math.max(1, deps.concurrentSyncs) })
    .complete(
      new ShootReconciler({
        ...deps,
        garden: garden.client,
        gardenApi: garden.api,
        seed: mgr.cluster(deps.seedCluster).api,
      }),
    );
}
