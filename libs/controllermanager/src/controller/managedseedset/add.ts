// Registers the ManagedSeedSet controller (Gardener's `managedseedset`, events as `managedseedset-controller`): sets on
// generation changes; the Shoots and ManagedSeeds they control, and Seeds through the ManagedSeed `garden/<seed>`, only
// when they belong to the set's pending replica and moved on from what keeps it pending (or when their deletion, health
// or readiness changed).
import { GardenNamespace, type Seed, type Shoot } from '@gardener-ts/api';
import {
  controllerFor,
  EventRecorder,
  generationChanged,
  type Controller,
  type KubernetesObject,
  type Manager,
  type Predicate,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ManagedSeedKind, ManagedSeedSetKind, SeedKind, ShootKind, type ManagedSeed } from '../../kinds.js';
import { ManagedSeedSetReconciler } from './reconciler.js';
import {
  managedSeedRegistered,
  seedReady,
  shootDeleteFailed,
  shootHealth,
  shootReconcileFailed,
  shootReconcileSucceeded,
} from './replica.js';
import { PendingReplicaReason, type ManagedSeedSet, type PendingReplica } from './types.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'managedseedset';

/** Looks a ManagedSeedSet up by namespace and name (the cache). */
export type SetLookup = (namespace: string, name: string) => ManagedSeedSet | undefined;

const controllerOwner = (o: KubernetesObject) =>
  o.metadata?.ownerReferences?.find((r) => r.controller === true && r.kind === 'ManagedSeedSet');

/** The pending replica's reason of the set controlling `o`, when `o` is that replica. */
function pendingReasonOf(o: KubernetesObject, lookup: SetLookup): string | undefined {
  const owner = controllerOwner(o);
  if (!owner) return undefined;
  const set = lookup(o.metadata?.namespace ?? '', owner.name);
  const pending = (set?.status as { pendingReplica?: PendingReplica } | undefined)?.pendingReplica;
  return pending && pending.name === o.metadata?.name ? pending.reason : undefined;
}

/** Gardener's ShootPredicate: the Shoot of the pending replica progressed from what keeps it pending. */
export function shootPredicate(lookup: SetLookup): Predicate<Shoot> {
  const progressed = (shoot: Shoot) => {
    switch (pendingReasonOf(shoot, lookup)) {
      case PendingReplicaReason.ShootReconciling:
        return shootReconcileFailed(shoot) || shootReconcileSucceeded(shoot) || !!shoot.metadata?.deletionTimestamp;
      case PendingReplicaReason.ShootDeleting:
        return shootDeleteFailed(shoot);
      case PendingReplicaReason.ShootReconcileFailed:
        return !shootReconcileFailed(shoot);
      case PendingReplicaReason.ShootDeleteFailed:
        return !shootDeleteFailed(shoot);
      case PendingReplicaReason.ShootNotHealthy:
        return shootHealth(shoot) === 'healthy';
      default:
        return false;
    }
  };
  return (e) => {
    if (e.type === 'generic') return false;
    if (e.type === 'update') {
      const deletionChanged = e.oldObject.metadata?.deletionTimestamp !== e.object.metadata?.deletionTimestamp;
      if (deletionChanged || shootHealth(e.oldObject) !== shootHealth(e.object)) return true;
    }
    if (e.type === 'delete' && pendingReasonOf(e.object, lookup) === PendingReplicaReason.ShootDeleting) return true;
    return progressed(e.object);
  };
}

/** Gardener's ManagedSeedPredicate: the pending replica's ManagedSeed registered, or deletions. */
export function managedSeedPredicate(lookup: SetLookup): Predicate<ManagedSeed> {
  const progressed = (ms: ManagedSeed) =>
    pendingReasonOf(ms, lookup) === PendingReplicaReason.ManagedSeedPreparing &&
    (managedSeedRegistered(ms) || !!ms.metadata?.deletionTimestamp);
  return (e) => {
    if (e.type === 'generic') return false;
    if (e.type === 'update' && e.oldObject.metadata?.deletionTimestamp !== e.object.metadata?.deletionTimestamp)
      return true;
    if (e.type === 'delete' && pendingReasonOf(e.object, lookup) === PendingReplicaReason.ManagedSeedDeleting)
      return true;
    return progressed(e.object);
  };
}

/** The set controlling the ManagedSeed `garden/<seed>`, if any. */
function setOfSeed(
  seed: Seed,
  managedSeed: (key: string) => ManagedSeed | undefined,
  lookup: SetLookup,
): ManagedSeedSet | undefined {
  const ms = managedSeed(`${GardenNamespace}/${seed.metadata?.name}`);
  const owner = ms && controllerOwner(ms);
  return owner ? lookup(ms.metadata?.namespace ?? GardenNamespace, owner.name) : undefined;
}

/** Gardener's SeedPredicate: readiness changed, or the pending replica's seed became ready. */
export function seedPredicate(
  managedSeed: (key: string) => ManagedSeed | undefined,
  lookup: SetLookup,
): Predicate<Seed> {
  const progressed = (seed: Seed) => {
    const pending = (setOfSeed(seed, managedSeed, lookup)?.status as { pendingReplica?: PendingReplica } | undefined)
      ?.pendingReplica;
    return (
      pending?.name === seed.metadata?.name && pending?.reason === PendingReplicaReason.SeedNotReady && seedReady(seed)
    );
  };
  return (e) => {
    if (e.type === 'generic') return false;
    if (e.type === 'update' && seedReady(e.oldObject) !== seedReady(e.object)) return true;
    return progressed(e.object);
  };
}

/** Gardener's MapSeedToManagedSeedSet: the set controlling the ManagedSeed `garden/<seed>`. */
export function mapSeedToManagedSeedSet(
  managedSeed: (key: string) => ManagedSeed | undefined,
  lookup: SetLookup,
): (seed: Seed) => Request[] {
  return (seed) => {
    const set = setOfSeed(seed, managedSeed, lookup);
    return set ? [{ namespace: set.metadata!.namespace!, name: set.metadata!.name! }] : [];
  };
}

/** Enqueues the controlling ManagedSeedSet of a Shoot or ManagedSeed. */
export const mapToControllingSet = (o: KubernetesObject): Request[] => {
  const owner = controllerOwner(o);
  return owner ? [{ namespace: o.metadata?.namespace ?? '', name: owner.name }] : [];
};

export interface ManagedSeedSetDeps {
  cluster: string;
  concurrentSyncs: number;
  syncPeriodMs: number;
  maxShootRetries: number;
}

/** Adds the controller to `mgr` on its garden cluster. */
export function addManagedSeedSetController(mgr: Manager, deps: ManagedSeedSetDeps): Controller {
  const garden = mgr.cluster(deps.cluster);
  const sets = garden.cache.informerFor(ManagedSeedSetKind).store;
  const managedSeeds = garden.cache.informerFor(ManagedSeedKind).store;
  const lookup: SetLookup = (namespace, name) => sets.get(`${namespace}/${name}`);
  const managedSeed = (key: string) => managedSeeds.get(key);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .for(ManagedSeedSetKind, { predicates: [generationChanged] })
    .watches(ShootKind, mapToControllingSet, { predicates: [shootPredicate(lookup)] })
    .watches(ManagedSeedKind, mapToControllingSet, { predicates: [managedSeedPredicate(lookup)] })
    .watches(SeedKind, mapSeedToManagedSeedSet(managedSeed, lookup), {
      predicates: [seedPredicate(managedSeed, lookup)],
    })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(
      new ManagedSeedSetReconciler({
        client: garden.client,
        api: garden.api,
        syncPeriodMs: deps.syncPeriodMs,
        maxShootRetries: deps.maxShootRetries,
        events: new EventRecorder(garden.api, {
          component: `${ControllerName}-controller`,
          api: 'events.k8s.io/v1',
          log: mgr.log,
        }),
      }),
    );
}
