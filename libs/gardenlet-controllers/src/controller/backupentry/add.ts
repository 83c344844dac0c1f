// Wiring of the BackupEntry controller (Gardener pkg/gardenlet/controller/backupentry/add.go): the core BackupEntries
// of this seed (garden) on a new generation, deletion or reconcile request; the BackupBuckets whose lastOperation
// changed (garden) to the entries in them; the extension BackupEntries (seed) whose lastOperation changed, or that are
// gone, to the core entry of the same name.
import { isDeepStrictEqual } from 'node:util';
import { Annotations } from '@gardener-ts/api';
import {
  controllerFor,
  type Controller,
  type Manager,
  type ObjectEvent,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ForceDeletionAnnotation, type GracePeriodConfig } from './grace-period.js';
import {
  BackupBucketKind,
  BackupEntryKind,
  ExtensionBackupEntryKind,
  type BackupBucket,
  type BackupEntry,
  type ExtensionBackupEntry,
} from './kinds.js';
import { BackupEntryReconciler } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'backupentry';

/** Entries of the seed `seedName`: wanted there or running there (Gardener's SeedNamePredicate). */
export const forSeed = (seedName: string) => (event: { object: BackupEntry }) =>
  event.object.spec?.seedName === seedName || event.object.status?.seedName === seedName;

/**
 * Which entry events need a reconcile (pure): creation; on update a new generation, the start of its deletion, a
 * force-deletion annotation on a deleted entry, or a new reconcile request (`gardener.cloud/operation` with a new `gardener.cloud/timestamp` or value) — our garden
 * serves BackupEntries as CRDs, whose generation does not move with the request as gardener-apiserver's does.
 */
export function reconcileRequested(event: ObjectEvent<BackupEntry>): boolean {
  if (event.type === 'create') return true;
  if (event.type !== 'update') return false;
  const { object: now, oldObject: old } = event;
  if (now.metadata?.generation !== old.metadata?.generation) return true;
  if (now.metadata?.deletionTimestamp && !old.metadata?.deletionTimestamp) return true;
  // A scheduled deletion asked to happen now.
  const forced = (o: BackupEntry) => o.metadata?.annotations?.[ForceDeletionAnnotation];
  if (now.metadata?.deletionTimestamp && forced(now) !== forced(old)) return true;
  const request = (o: BackupEntry) => [
    o.metadata?.annotations?.[Annotations.GardenerOperation],
    o.metadata?.annotations?.[Annotations.GardenerTimestamp],
  ];
  return (
    now.metadata?.annotations?.[Annotations.GardenerOperation] !== undefined &&
    !isDeepStrictEqual(request(now), request(old))
  );
}

/** Updates whose `status.lastOperation` changed, creations and deletions (Gardener's LastOperationChanged). */
export function lastOperationChanged(event: ObjectEvent<BackupBucket> | ObjectEvent<ExtensionBackupEntry>): boolean {
  if (event.type !== 'update') return true;
  return !isDeepStrictEqual(event.object.status?.lastOperation, event.oldObject.status?.lastOperation);
}

/** The entries of this seed in `bucket` (pure over the garden's entries). */
export function entriesInBucket(entries: readonly BackupEntry[], seedName: string, bucket: BackupBucket): Request[] {
  return entries
    .filter((e) => e.spec.bucketName === bucket.metadata?.name && forSeed(seedName)({ object: e }))
    .map((e) => ({ namespace: e.metadata?.namespace ?? '', name: e.metadata?.name ?? '' }));
}

/**
 * The core entry of an extension BackupEntry (pure over the garden's entries): the one of the same name on this seed.
 * Gardener finds its namespace through the shoot's Cluster resource; the name (`<technical ID>--<shoot UID>`) is
 * unique, so the garden's entries are looked up instead, which also covers entries whose shoot is gone.
 */
export function coreEntryOf(
  entries: readonly BackupEntry[],
  seedName: string,
  extension: ExtensionBackupEntry,
): Request[] {
  return entries
    .filter((e) => e.metadata?.name === extension.metadata?.name && forSeed(seedName)({ object: e }))
    .map((e) => ({ namespace: e.metadata?.namespace ?? '', name: e.metadata?.name ?? '' }));
}

/** Adds the BackupEntry controller. */
export function addBackupEntryController(
  mgr: Manager,
  deps: {
    seedName: string;
    gardenCluster: string;
    seedCluster: string;
    concurrentSyncs: number;
    config: GracePeriodConfig;
    now?: () => Date;
  },
): Controller {
  const garden = mgr.cluster(deps.gardenCluster);
  const entries = () => garden.cache.informerFor(BackupEntryKind).store.list();
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.gardenCluster)
    .for(BackupEntryKind, { predicates: [forSeed(deps.seedName), reconcileRequested] })
    .watches(BackupBucketKind, (bucket) => entriesInBucket(entries(), deps.seedName, bucket), {
      predicates: [lastOperationChanged],
    })
    .watches(ExtensionBackupEntryKind, (extension) => coreEntryOf(entries(), deps.seedName, extension), {
      cluster: deps.seedCluster,
      predicates: [lastOperationChanged],
    })
    .withOptions({ maxConcurrentReconciles: Math.max(1, deps.concurrentSyncs) })
    .complete(
      new BackupEntryReconciler({
        garden: garden.api,
        seed: mgr.cluster(deps.seedCluster).api,
        seedName: deps.seedName,
        config: deps.config,
        ...(deps.now ? { now: deps.now } : {}),
      }),
    );
}
