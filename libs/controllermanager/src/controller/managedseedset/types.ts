// The ManagedSeedSet types the controller reads and writes, with Gardener's pending replica reasons.
import type { ManagedSeedSet } from '../../kinds.js';

export { ManagedSeedSetKind, type ManagedSeedSet } from '../../kinds.js';
export type ManagedSeedSetStatus = NonNullable<ManagedSeedSet['status']>;

/** Why a replica is pending (Gardener's PendingReplicaReason values). */
export const PendingReplicaReason = {
  ShootReconciling: 'ShootReconciling',
  ShootDeleting: 'ShootDeleting',
  ShootReconcileFailed: 'ShootReconcileFailed',
  ShootDeleteFailed: 'ShootDeleteFailed',
  ManagedSeedPreparing: 'ManagedSeedPreparing',
  ManagedSeedDeleting: 'ManagedSeedDeleting',
  SeedNotReady: 'SeedNotReady',
  ShootNotHealthy: 'ShootNotHealthy',
} as const;
export type PendingReplicaReason = (typeof PendingReplicaReason)[keyof typeof PendingReplicaReason];

/** The replica the set waits for. */
export interface PendingReplica {
  name: string;
  reason: PendingReplicaReason;
  since: string;
  retries?: number;
}
