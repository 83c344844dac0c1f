// Wires the health controller (Gardener's pkg/resourcemanager/controller/health): ManagedResources whose applied
// objects, applied condition or ignore annotation changed, and changes of those objects in the target cluster (the
// same raw source as the ManagedResource controller's, mapped by the origin annotation).
import { controllerFor, type Controller, type Manager, type Predicate } from '@gardener-ts/controller-runtime';
import type { ClassFilter } from '../../class-filter.js';
import { Annotation, ConditionType } from '../../constants.js';
import type { ManagedResource, StatusWriter } from '../../status.js';
import type { TargetObjects } from '../../target.js';
import { targetChangeSource, type NamespaceScope } from '../managedresource/add.js';
import { ManagedResourceKind } from '../managedresource/kind.js';
import { HealthReconciler } from './reconciler.js';

/** The controller's name, in logs and metrics. */
export const ControllerName = 'health';

/** ManagedResources in scope; updates only when `status.resources`, the ResourcesApplied status or the ignore annotation changed. */
export function healthPredicate(inScope: NamespaceScope): Predicate<ManagedResource> {
  const appliedStatus = (mr: ManagedResource) =>
    JSON.stringify(mr.status?.conditions?.find((c) => c.type === ConditionType.ResourcesApplied)?.status);
  return (e) =>
    inScope(e.object.metadata?.namespace) &&
    (e.type !== 'update' ||
      JSON.stringify(e.oldObject.status?.resources ?? []) !== JSON.stringify(e.object.status?.resources ?? []) ||
      appliedStatus(e.oldObject) !== appliedStatus(e.object) ||
      e.oldObject.metadata?.annotations?.[Annotation.Ignore] !== e.object.metadata?.annotations?.[Annotation.Ignore]);
}

/** What the health controller needs. */
export interface HealthControllerDeps {
  /** The manager's cluster holding the ManagedResources. */
  sourceCluster: string;
  target: TargetObjects;
  classFilter: ClassFilter;
  clusterID: string;
  inScope: NamespaceScope;
  status: StatusWriter;
  syncPeriodMs: number;
  concurrentSyncs?: number;
}

/** Adds the health controller to the manager. */
export function addHealthController(mgr: Manager, deps: HealthControllerDeps): Controller {
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.sourceCluster)
    .for(ManagedResourceKind, { predicates: [healthPredicate(deps.inScope)] })
    .watchesRawSource(targetChangeSource(deps.target, deps.clusterID, deps.inScope))
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(
      new HealthReconciler({
        source: mgr.cluster(deps.sourceCluster).client,
        target: deps.target,
        classFilter: deps.classFilter,
        syncPeriodMs: deps.syncPeriodMs,
        status: deps.status,
      }),
    );
}
