// Registers Gardener's `project-stale` controller: Projects when created, and on updates that did not only move
// `status.lastActivityTimestamp` (or whose generation is not observed yet); each check schedules the next one after
// `staleSyncPeriod`.
import type { Project } from '@gardener-ts/api';
import { controllerFor, type Controller, type Manager, type Predicate } from '@gardener-ts/controller-runtime';
import { ProjectKind } from '../../../kinds.js';
import { ProjectStaleReconciler } from './reconciler.js';
import type { StaleSettings } from './staleness.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'project-stale';

/**
 * Creates pass; updates pass when `status.lastActivityTimestamp` is unchanged or the generation is not observed yet
 * (an activity update alone does not trigger a check); deletes and generic events do not.
 */
export const projectPredicate: Predicate<Project> = (e) => {
  if (e.type === 'create') return true;
  if (e.type !== 'update') return false;
  return (
    e.oldObject.status?.lastActivityTimestamp === e.object.status?.lastActivityTimestamp ||
    e.object.metadata?.generation !== e.object.status?.observedGeneration
  );
};

/** Adds the controller to `mgr` on its garden cluster. */
export function addProjectStaleController(
  mgr: Manager,
  deps: StaleSettings & { cluster: string; concurrentSyncs: number; syncPeriodMs: number; now?: () => number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(ProjectKind, { predicates: [projectPredicate] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(
      new ProjectStaleReconciler({
        client: garden.client,
        syncPeriodMs: deps.syncPeriodMs,
        minimumLifetimeDays: deps.minimumLifetimeDays,
        staleGracePeriodDays: deps.staleGracePeriodDays,
        staleExpirationTimeDays: deps.staleExpirationTimeDays,
        now: deps.now,
      }),
    );
}
