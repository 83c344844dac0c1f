// Wires the ManagedResource controller (Gardener's pkg/resourcemanager/controller/managedresource/add.go): every
// trigger in one place — ManagedResources of the watched namespaces, the Secrets they reference, and changes of the
// objects they applied in the target cluster (a raw source fed by the target cache, so manual edits are reverted at once).
import {
  annotationChanged,
  controllerFor,
  generationChanged,
  Kinds,
  or,
  type Controller,
  type Manager,
  type Predicate,
  type Request,
  type Secret,
  type Source,
} from '@gardener-ts/controller-runtime';
import type { ClassFilter } from '../../class-filter.js';
import { Annotation } from '../../constants.js';
import type { ManagedResource, StatusWriter } from '../../status.js';
import type { TargetObjects } from '../../target.js';
import { ManagedResourceKind } from './kind.js';
import { parseOrigin } from './origin.js';
import { ManagedResourceReconciler } from './reconciler.js';

/** The controller's name, in logs and metrics. */
export const ControllerName = 'managedresource';

/** Whether a namespace is watched (empty list: all). */
export type NamespaceScope = (namespace: string | undefined) => boolean;

/**
 * ManagedResources in scope; updates only when the generation, annotations, deletion timestamp or finalizers changed
 * (status writes of the controllers themselves do not retrigger it).
 */
export function managedResourcePredicate(inScope: NamespaceScope): Predicate<ManagedResource> {
  return (e) =>
    inScope(e.object.metadata?.namespace) &&
    (e.type !== 'update' ||
      or<ManagedResource>(generationChanged, annotationChanged)(e) ||
      e.oldObject.metadata?.deletionTimestamp !== e.object.metadata?.deletionTimestamp ||
      (e.oldObject.metadata?.finalizers ?? []).join() !== (e.object.metadata?.finalizers ?? []).join());
}

/** Secret events, except resyncs (same resourceVersion). */
export const secretChangedPredicate: Predicate<Secret> = (e) =>
  e.type !== 'update' || e.oldObject.metadata?.resourceVersion !== e.object.metadata?.resourceVersion;

/** Maps a Secret to the ManagedResources in its namespace that reference it in `spec.secretRefs`. */
export function secretToManagedResources(
  managedResources: () => readonly ManagedResource[],
): (secret: Secret) => Request[] {
  return (secret) =>
    managedResources()
      .filter(
        (mr) =>
          mr.metadata?.namespace === secret.metadata?.namespace &&
          (mr.spec?.secretRefs ?? []).some((r) => r.name === secret.metadata?.name),
      )
      .map((mr) => ({ namespace: mr.metadata!.namespace!, name: mr.metadata!.name! }));
}

/** The ManagedResource an object of the target cluster belongs to, from its origin annotation (this cluster ID only). */
export function originRequest(
  obj: { metadata?: { annotations?: Record<string, string> } },
  clusterID: string,
  inScope: NamespaceScope,
): Request | undefined {
  const owner = parseOrigin(obj.metadata?.annotations?.[Annotation.Origin], clusterID);
  return owner && inScope(owner.namespace) ? owner : undefined;
}

/**
 * A raw source of the target cluster's changes (add, change, delete of objects of the kinds applied so far), mapped to
 * their ManagedResource by the origin annotation.
 */
export function targetChangeSource(
  target: Pick<TargetObjects, 'onChange'>,
  clusterID: string,
  inScope: NamespaceScope,
): Source {
  return {
    start(enqueue, signal) {
      target.onChange((obj) => {
        if (signal.aborted) return;
        const request = originRequest(obj, clusterID, inScope);
        if (request) enqueue(request);
      });
    },
  };
}

/** What the ManagedResource controller needs. */
export interface ManagedResourceControllerDeps {
  /** The manager's cluster holding the ManagedResources and their Secrets. */
  sourceCluster: string;
  target: TargetObjects;
  classFilter: ClassFilter;
  clusterID: string;
  inScope: NamespaceScope;
  status: StatusWriter;
  managedByLabelValue: string;
  syncPeriodMs: number;
  concurrentSyncs?: number;
  alwaysUpdate?: boolean;
  garbageCollectorActivated?: boolean;
}

/** Adds the ManagedResource controller to the manager. */
export function addManagedResourceController(mgr: Manager, deps: ManagedResourceControllerDeps): Controller {
  const source = mgr.cluster(deps.sourceCluster);
  const managedResources = source.cache.informerFor(ManagedResourceKind).store;
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.sourceCluster)
    .for(ManagedResourceKind, { predicates: [managedResourcePredicate(deps.inScope)] })
    .watches(
      Kinds.Secret,
      secretToManagedResources(() => managedResources.list()),
      { predicates: [secretChangedPredicate] },
    )
    .watchesRawSource(targetChangeSource(deps.target, deps.clusterID, deps.inScope))
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(
      new ManagedResourceReconciler({
        source: source.client,
        target: deps.target,
        classFilter: deps.classFilter,
        clusterID: deps.clusterID,
        managedByLabelValue: deps.managedByLabelValue,
        syncPeriodMs: deps.syncPeriodMs,
        alwaysUpdate: deps.alwaysUpdate,
        garbageCollectorActivated: deps.garbageCollectorActivated,
        status: deps.status,
      }),
    );
}
