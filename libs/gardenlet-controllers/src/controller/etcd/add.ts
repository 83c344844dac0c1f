// Wiring of the etcd controller (etcd-druid's role in the seed): Etcds of the seed cluster on creation, deletion,
// spec and annotation changes (not on the status the controller writes itself), and the StatefulSets they control
// (their status follows the members' Pods).
import {
  controllerFor,
  Kinds,
  type Controller,
  type Manager,
  type ObjectEvent,
  type Predicate,
} from '@gardener-ts/controller-runtime';
import { EtcdKind, type EtcdResource } from './kinds.js';
import { EtcdReconciler, type EtcdReconcilerDeps } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'etcd';

const sameJSON = (a: unknown, b: unknown) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

/** Etcd events worth a reconcile: all but updates that changed neither generation, annotations nor deletion. */
export const etcdChanged: Predicate<EtcdResource> = (e: ObjectEvent<EtcdResource>) =>
  e.type !== 'update' ||
  e.oldObject.metadata?.generation !== e.object.metadata?.generation ||
  !sameJSON(e.oldObject.metadata?.annotations, e.object.metadata?.annotations) ||
  (!!e.object.metadata?.deletionTimestamp && !e.oldObject.metadata?.deletionTimestamp);

/** Adds the etcd controller for the Etcds of the seed cluster `seedCluster`. */
export function addEtcdController(
  mgr: Manager,
  deps: Omit<EtcdReconcilerDeps, 'client'> & { seedCluster: string; concurrentSyncs?: number },
): Controller {
  const seed = mgr.cluster(deps.seedCluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.seedCluster)
    .for(EtcdKind, { predicates: [etcdChanged] })
    .owns(Kinds.StatefulSet)
    .withOptions({ maxConcurrentReconciles: Math.max(1, deps.concurrentSyncs ?? 3) })
    .complete(new EtcdReconciler({ ...deps, client: seed.api }));
}
