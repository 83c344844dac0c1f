// Wiring of the BackupBucket controller (Gardener's pkg/gardenlet/controller/backupbucket/add.go): the core
// BackupBuckets of this seed in the garden (spec changes and the start of their deletion), and the extension
// BackupBuckets in the seed whenever their extension reports a new last operation or they are gone.
import { Annotations } from '@gardener-ts/api';
import { controllerFor, type Controller, type Manager, type ObjectEvent } from '@gardener-ts/controller-runtime';
import { BackupBucketReconciler, type BackupBucketReconcilerDeps } from './reconciler.js';
import {
  BackupBucketKind,
  ExtensionBackupBucketKind,
  type CoreBackupBucket,
  type ExtensionBackupBucket,
} from './kinds.js';

/** The controller's name. */
export const ControllerName = 'backupbucket';

/** BackupBuckets of the seed `seedName` (`spec.seedName`). */
export const forSeed = (seedName: string) => (event: ObjectEvent<CoreBackupBucket>) =>
  event.object.spec?.seedName === seedName;

/** Gardener's GenerationChangedPredicate, and the start of a deletion (which needs the cleanup at once). */
export function specChangedOrDeleting(event: ObjectEvent<CoreBackupBucket>): boolean {
  if (event.type !== 'update') return true;
  return (
    event.oldObject.metadata?.generation !== event.object.metadata?.generation ||
    (!event.oldObject.metadata?.deletionTimestamp && !!event.object.metadata?.deletionTimestamp)
  );
}

/**
 * Gardener's LastOperationChanged for extension objects: an update whose last operation changed while no reconcile
 * request is pending, an object that already has a last operation when first seen (a restarted gardenlet), and its
 * disappearance (the end of a deletion).
 */
export function extensionLastOperationChanged(event: ObjectEvent<ExtensionBackupBucket>): boolean {
  const pending = (o: ExtensionBackupBucket) => o.metadata?.annotations?.[Annotations.GardenerOperation] !== undefined;
  switch (event.type) {
    case 'create':
      return !!event.object.status?.lastOperation && !pending(event.object);
    case 'delete':
      return true;
    case 'update': {
      const [a, b] = [event.oldObject.status?.lastOperation, event.object.status?.lastOperation];
      const changed =
        a?.state !== b?.state ||
        a?.lastUpdateTime !== b?.lastUpdateTime ||
        a?.type !== b?.type ||
        a?.description !== b?.description;
      return changed && !pending(event.object);
    }
    default:
      return true;
  }
}

/** The core BackupBucket an extension BackupBucket belongs to: the one of the same name. */
export const mapExtensionToCoreBucket = (extension: ExtensionBackupBucket) => [
  { namespace: '', name: extension.metadata?.name ?? '' },
];

/** Adds the BackupBucket controller. */
export function addBackupBucketController(
  mgr: Manager,
  deps: Omit<BackupBucketReconcilerDeps, 'garden' | 'seed'> & {
    gardenCluster: string;
    seedCluster: string;
    concurrentSyncs: number;
  },
): Controller {
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.gardenCluster)
    .for(BackupBucketKind, { predicates: [forSeed(deps.seedName), specChangedOrDeleting] })
    .watches(ExtensionBackupBucketKind, mapExtensionToCoreBucket, {
      cluster: deps.seedCluster,
      predicates: [extensionLastOperationChanged],
    })
    .withOptions({ maxConcurrentReconciles: Math.max(1, deps.concurrentSyncs) })
    .complete(
      new BackupBucketReconciler({
        ...deps,
        garden: mgr.cluster(deps.gardenCluster).api,
        seed: mgr.cluster(deps.seedCluster).api,
      }),
    );
}
