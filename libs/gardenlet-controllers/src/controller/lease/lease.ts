// The seed's heartbeat objects (Gardener's seed lease reconciler, modelled on the kubelet's node lease): the Lease
// `<seed>` in `gardener-system-seed-lease` owned by the Seed, and the `GardenletReady` condition. Pure builders.
import {
  getOrInitCondition,
  mergeConditions,
  updatedCondition,
  type Condition,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { SeedCondition, SEED_LEASE_NAMESPACE } from '../../constants.js';
import { SEED_API_VERSION, type Seed } from '../../seed-kind.js';

/** A Lease as the gardenlet writes it. */
export interface SeedLease {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: {
    name: string;
    namespace: string;
    resourceVersion?: string;
    ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string }[];
  };
  spec: { holderIdentity: string; leaseDurationSeconds: number; renewTime: string };
}

/** RFC 3339 with microseconds, the wire format of a MicroTime. */
export function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** The Lease renewed now, keeping the resourceVersion of `existing` for an optimistic update. */
export function renewedLease(
  seed: Seed,
  now: Date,
  leaseDurationSeconds: number,
  existing?: { metadata?: { resourceVersion?: string } },
): SeedLease {
  const name = seed.metadata!.name!;
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name,
      namespace: SEED_LEASE_NAMESPACE,
      ...(existing?.metadata?.resourceVersion ? { resourceVersion: existing.metadata.resourceVersion } : {}),
      ownerReferences: [{ apiVersion: SEED_API_VERSION, kind: 'Seed', name, uid: seed.metadata!.uid! }],
    },
    spec: { holderIdentity: name, leaseDurationSeconds, renewTime: microTime(now) },
  };
}

/** The Seed's conditions with GardenletReady True, or undefined when it already says so. */
export function gardenletReadyConditions(
  conditions: readonly Condition[] | undefined,
  clock: WallClock,
): Condition[] | undefined {
  const current = getOrInitCondition(conditions, SeedCondition.GardenletReady, clock);
  if (current.status === 'True' && current.reason === 'GardenletReady') return undefined;
  const ready = updatedCondition(current, 'True', 'GardenletReady', 'Gardenlet is posting ready status.', { clock });
  return mergeConditions(conditions, ready);
}
