// Registers the seed backup buckets check (Gardener's seed-backupbuckets-check controller): BackupBuckets with a
// `spec.seedName` mapped to that seed when created, or when their `status.lastError` appeared, went or changed its
// description; deletions are noticed by the periodic check (each seed again every `syncPeriod`). Like Gardener, it
// does not watch Seeds: a seed is first checked when one of its buckets is seen.
import type { BackupBucket } from '@gardener-ts/api';
import {
  controllerFor,
  type ConditionThresholds,
  type Controller,
  type Manager,
  type Predicate,
} from '@gardener-ts/controller-runtime';
import { BackupBucketKind } from '../../../kinds.js';
import { mapBackupBucketToSeed } from '../../controllerregistration/add.js';
import { SeedBackupBucketsCheckReconciler } from './reconciler.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'seed-backupbuckets-check';

/** The bucket's seed (the ControllerRegistration seed controller maps buckets the same way). */
export { mapBackupBucketToSeed };

const lastErrorChanged = (a: BackupBucket, b: BackupBucket): boolean => {
  const [x, y] = [a.status?.lastError, b.status?.lastError];
  return !x !== !y || (!!x && !!y && x.description !== y.description);
};

/** Creations of buckets with a seed, and updates of such buckets whose `lastError` changed (Gardener's predicate). */
export const backupBucketPredicate: Predicate<BackupBucket> = (e) => {
  switch (e.type) {
    case 'create':
      return !!e.object.spec.seedName;
    case 'update':
      return !!e.object.spec.seedName && lastErrorChanged(e.oldObject, e.object);
    default:
      return false;
  }
};

export interface SeedBackupBucketsCheckDeps {
  cluster: string;
  concurrentSyncs: number;
  syncPeriodMs: number;
  thresholds: ConditionThresholds;
}

/** Adds the controller to `mgr` on its garden cluster. */
export function addSeedBackupBucketsCheckController(mgr: Manager, deps: SeedBackupBucketsCheckDeps): Controller {
  const garden = mgr.cluster(deps.cluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .watches(BackupBucketKind, mapBackupBucketToSeed, { predicates: [backupBucketPredicate] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(
      new SeedBackupBucketsCheckReconciler({
        client: garden.client,
        syncPeriodMs: deps.syncPeriodMs,
        thresholds: deps.thresholds,
      }),
    );
}
