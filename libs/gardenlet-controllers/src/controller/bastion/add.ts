// Wiring of the Bastion controller (Gardener pkg/gardenlet/controller/bastion/add.go): the core Bastions of this seed
// (garden) on creation, a new generation or the start of their deletion; the extension Bastions (seed) whose last
// operation changed, or that are gone, to the core Bastion of the same name in the shoot's project namespace, which
// the seed's Cluster resource tells.
import { isDeepStrictEqual } from 'node:util';
import {
  controllerFor,
  type Controller,
  type Manager,
  type ObjectEvent,
  type Request,
} from '@gardener-ts/controller-runtime';
import {
  BastionKind,
  ClusterKind,
  ExtensionBastionKind,
  type Cluster,
  type CoreBastion,
  type ExtensionBastion,
} from './kinds.js';
import { BastionReconciler } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'bastion';

/** Bastions of the seed `seedName` (Gardener caches only those with this `spec.seedName`). */
export const forSeed = (seedName: string) => (event: { object: CoreBastion }) =>
  event.object.spec?.seedName === seedName;

/**
 * Which Bastion events need a reconcile (pure): creation, a new generation (Gardener's GenerationChangedPredicate),
 * and the start of the deletion, which a CRD-served Bastion does not mark with a new generation.
 */
export function reconcileRequested(event: ObjectEvent<CoreBastion>): boolean {
  if (event.type === 'create') return true;
  if (event.type !== 'update') return false;
  const { object: now, oldObject: old } = event;
  if (now.metadata?.generation !== old.metadata?.generation) return true;
  return Boolean(now.metadata?.deletionTimestamp) && !old.metadata?.deletionTimestamp;
}

/** Creations, deletions and updates whose `status.lastOperation` changed (Gardener's LastOperationChanged). */
export function lastOperationChanged(event: ObjectEvent<ExtensionBastion>): boolean {
  if (event.type !== 'update') return true;
  return !isDeepStrictEqual(event.object.status?.lastOperation, event.oldObject.status?.lastOperation);
}

/**
 * The core Bastion of an extension Bastion (pure): the one of the same name in the namespace of the shoot the
 * control plane namespace's Cluster resource holds (Gardener's MapExtensionsBastionToOperationsBastion). Without a
 * Cluster resource (not in the cache yet), the core Bastions of this seed with that name.
 */
export function coreBastionOf(
  extension: ExtensionBastion,
  cluster: Cluster | undefined,
  bastions: readonly CoreBastion[],
  seedName: string,
): Request[] {
  const name = extension.metadata?.name ?? '';
  const shoot = cluster?.spec.shoot as { metadata?: { namespace?: string } } | undefined;
  const namespace = shoot?.metadata?.namespace;
  if (namespace) return [{ namespace, name }];
  return bastions
    .filter((b) => b.metadata?.name === name && forSeed(seedName)({ object: b }))
    .map((b) => ({ namespace: b.metadata?.namespace ?? '', name }));
}

/** Adds the Bastion controller. */
export function addBastionController(
  mgr: Manager,
  deps: { seedName: string; gardenCluster: string; seedCluster: string; concurrentSyncs: number; now?: () => Date },
): Controller {
  const garden = mgr.cluster(deps.gardenCluster);
  const seed = mgr.cluster(deps.seedCluster);
  const bastions = garden.cache.informerFor(BastionKind).store;
  const clusters = seed.cache.informerFor(ClusterKind).store;
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.gardenCluster)
    .for(BastionKind, { predicates: [forSeed(deps.seedName), reconcileRequested] })
    .watches(
      ExtensionBastionKind,
      (extension) =>
        coreBastionOf(extension, clusters.get(extension.metadata?.namespace ?? ''), bastions.list(), deps.seedName),
      { cluster: deps.seedCluster, predicates: [lastOperationChanged] },
    )
    .withOptions({ maxConcurrentReconciles: Math.max(1, deps.concurrentSyncs) })
    .complete(
      new BastionReconciler({
        garden: garden.api,
        seed: seed.api,
        seedName: deps.seedName,
        ...(deps.now ? { now: deps.now } : {}),
      }),
    );
}
