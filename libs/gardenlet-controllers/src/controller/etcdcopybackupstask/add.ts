// Wiring of the etcdcopybackupstask controller (etcd-druid's, in the seed): EtcdCopyBackupsTasks of the seed cluster
// on creation, deletion and spec changes (not on the status the controller writes itself), and the copy Jobs they own
// (their Complete/Failed conditions become the task's).
import {
  controllerFor,
  Kinds,
  type Controller,
  type Manager,
  type ObjectEvent,
  type Predicate,
} from '@gardener-ts/controller-runtime';
import { EtcdCopyBackupsTaskKind, type EtcdCopyBackupsTaskResource } from './kinds.js';
import { EtcdCopyBackupsTaskReconciler, type EtcdCopyBackupsTaskReconcilerDeps } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'etcdcopybackupstask';

/** Task events worth a reconcile: all but updates that changed neither generation nor deletion. */
export const taskChanged: Predicate<EtcdCopyBackupsTaskResource> = (e: ObjectEvent<EtcdCopyBackupsTaskResource>) =>
  e.type !== 'update' ||
  e.oldObject.metadata?.generation !== e.object.metadata?.generation ||
  (!!e.object.metadata?.deletionTimestamp && !e.oldObject.metadata?.deletionTimestamp);

/** Adds the etcdcopybackupstask controller for the EtcdCopyBackupsTasks of the seed cluster `seedCluster`. */
export function addEtcdCopyBackupsTaskController(
  mgr: Manager,
  deps: Omit<EtcdCopyBackupsTaskReconcilerDeps, 'client'> & { seedCluster: string; concurrentSyncs?: number },
): Controller {
  const seed = mgr.cluster(deps.seedCluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.seedCluster)
    .for(EtcdCopyBackupsTaskKind, { predicates: [taskChanged] })
    .owns(Kinds.Job)
    .withOptions({ maxConcurrentReconciles: Math.max(1, deps.concurrentSyncs ?? 3) })
    .complete(new EtcdCopyBackupsTaskReconciler({ ...deps, client: seed.api }));
}
