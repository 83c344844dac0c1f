// Registers a reference controller (Gardener's `<kind>-reference`) for one referencing kind: objects when created, when
// a field holding references changed, and when Gardener is done with a deleted one. Deletions are not watched: a gone
// object's references are released when another object of the kind is reconciled.
import {
  controllerFor,
  type Controller,
  type KubernetesObject,
  type Manager,
  type Predicate,
} from '@gardener-ts/controller-runtime';
import { ReferenceReconciler, referencesReleased, type ReferencingKind } from './reconciler.js';

/** Creation; an update changing references or releasing them (deleted, `gardener` finalizer gone). */
export function referencePredicate<T extends KubernetesObject>(
  referencesChanged: (oldObj: T, newObj: T) => boolean,
): Predicate<T> {
  return (e) => {
    if (e.type === 'create') return true;
    if (e.type !== 'update') return false;
    return referencesChanged(e.oldObject, e.object) || referencesReleased(e.object);
  };
}

/** Adds the reference controller `name` for `referencing` to `mgr` on its garden cluster. */
export function addReferenceController<T extends KubernetesObject>(
  mgr: Manager,
  name: string,
  referencing: ReferencingKind<T>,
  referencesChanged: (oldObj: T, newObj: T) => boolean,
  deps: { cluster: string; concurrentSyncs: number },
): Controller {
  const garden = mgr.cluster(deps.cluster);
  return controllerFor(mgr, name)
    .inCluster(deps.cluster)
    .for(referencing.kind, { predicates: [referencePredicate(referencesChanged)] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new ReferenceReconciler({ client: garden.client, api: garden.api, referencing }));
}
