// The ManagedSeedSet actuator (Gardener's pkg/controllermanager/controller/managedseedset/actuator.go) as a pure
// planner: from the set, its replicas and the time, the status to write and the one step to take now — create the
// next replica's Shoot, create a replica's ManagedSeed once its Shoot is reconciled, retry a failed Shoot (at most
// `maxShootRetries` times), delete the lowest-priority deletable replica when scaling in — or wait for the pending one.
import {
  comparePriority,
  isDeletable,
  isSeedReady,
  managedSeedExists,
  newManagedSeed,
  newShoot,
  ordinalOf,
  replicaFullName,
  replicaIsReady,
  replicaName,
  replicaStatus,
  ReplicaStatus,
  shootHealth,
  type Replica,
} from './replica.js';
import type { ManagedSeed } from '../../kinds.js';
import type { Shoot } from '@gardener-ts/api';
import { PendingReplicaReason, type ManagedSeedSet, type ManagedSeedSetStatus, type PendingReplica } from './types.js';

/** The one write a reconciliation makes on the set's replicas. */
export type ReplicaAction =
  | { readonly type: 'createShoot'; readonly shoot: Shoot }
  | { readonly type: 'createManagedSeed'; readonly managedSeed: ManagedSeed }
  | { readonly type: 'deleteShoot'; readonly replica: Replica }
  | { readonly type: 'deleteManagedSeed'; readonly replica: Replica }
  | { readonly type: 'retryShoot'; readonly replica: Replica };

/** An event Gardener records on the set (reason and message). */
export interface SetEvent {
  readonly reason: string;
  readonly message: string;
}

/** The status the planner computes: Gardener's fields it maintains, `pendingReplica` undefined when none. */
export interface PlannedStatus {
  observedGeneration: number;
  replicas: number;
  readyReplicas: number;
  nextReplicaNumber: number;
  pendingReplica?: PendingReplica;
}

/** The result of one reconciliation. */
export interface SetPlan {
  readonly status: PlannedStatus;
  readonly action?: ReplicaAction;
  readonly event?: SetEvent;
  /** Nothing left to do: on deletion, the finalizer may go. */
  readonly done: boolean;
  /** Gardener's error for this state (the status is written all the same). */
  readonly error?: string;
}

export interface PlanInput {
  readonly set: ManagedSeedSet;
  readonly replicas: readonly Replica[];
  readonly maxShootRetries: number;
  /** The time of a new pending reason (RFC 3339). */
  readonly now: string;
}

/** Plans one reconciliation of a ManagedSeedSet (creation, update or deletion). */
export function planManagedSeedSet(input: PlanInput): SetPlan {
  const { set, maxShootRetries, now } = input;
  const old = set.status as (ManagedSeedSetStatus & { pendingReplica?: PendingReplica }) | undefined;
  const status: PlannedStatus = {
    observedGeneration: set.metadata?.generation ?? 0,
    replicas: old?.replicas ?? 0,
    readyReplicas: old?.readyReplicas ?? 0,
    nextReplicaNumber: old?.nextReplicaNumber ?? 0,
    ...(old?.pendingReplica ? { pendingReplica: old.pendingReplica } : {}),
  };
  const setPending = (name: string, reason: PendingReplicaReason, retries?: number) => {
    const p = status.pendingReplica;
    if (!p || p.name !== name || p.reason !== reason || p.retries !== retries) {
      status.pendingReplica = { name, reason, since: now, ...(retries === undefined ? {} : { retries }) };
    }
  };
  const retriesOf = (name: string, reason: PendingReplicaReason) => {
    const p = status.pendingReplica;
    return p && p.name === name && p.reason === reason && p.retries !== undefined ? p.retries : 0;
  };

  const replicas = [...input.replicas].sort((a, b) => ordinalOf(replicaName(a)) - ordinalOf(replicaName(b)));
  const pending = status.pendingReplica && replicas.find((r) => replicaName(r) === status.pendingReplica!.name);
  const ready = replicas.filter(replicaIsReady);
  const postponed = replicas.filter((r) => !replicaIsReady(r) && r !== pending);
  const deletable = replicas.filter(isDeletable);
  status.replicas = replicas.length;
  status.readyReplicas = ready.length;

  const target = set.metadata?.deletionTimestamp ? 0 : (set.spec.replicas ?? 1);
  const scalingOut = replicas.length < target;
  const scalingIn = replicas.length > target;

  /** Gardener's reconcileReplica: the step for a replica that keeps the set waiting, or undefined to go on. */
  const reconcileReplica = (r: Replica): SetPlan | undefined => {
    const s = replicaStatus(r);
    const name = replicaName(r);
    const full = replicaFullName(r);
    const wait = (event: SetEvent, action?: ReplicaAction): SetPlan => ({
      status,
      event,
      done: false,
      ...(action ? { action } : {}),
    });
    /** A failed shoot operation: retried (one more pending retry) until maxShootRetries, then reported as final. */
    const retryShoot = (
      operation: 'reconciliation' | 'deletion',
      retrying: PendingReplicaReason,
      failed: PendingReplicaReason,
    ): SetPlan => {
      const Operation = operation === 'reconciliation' ? 'Reconciliation' : 'Deletion';
      const retries = retriesOf(name, retrying);
      if (retries < maxShootRetries) {
        setPending(name, retrying, retries + 1);
        return wait(
          { reason: `RetryingShoot${Operation}`, message: `Retrying Shoot ${full} ${operation}` },
          { type: 'retryShoot', replica: r },
        );
      }
      setPending(name, failed, retries);
      return wait({
        reason: `NotRetryingShoot${Operation}`,
        message: `Not retrying Shoot ${full} ${operation} since max retries have been reached`,
      });
    };
    if (s === ReplicaStatus.ShootReconcileFailed && !scalingIn)
      return retryShoot(
        'reconciliation',
        PendingReplicaReason.ShootReconciling,
        PendingReplicaReason.ShootReconcileFailed,
      );
    if (s === ReplicaStatus.ShootDeleteFailed)
      return retryShoot('deletion', PendingReplicaReason.ShootDeleting, PendingReplicaReason.ShootDeleteFailed);
    if (s === ReplicaStatus.ShootReconciling && !scalingIn) {
      setPending(name, PendingReplicaReason.ShootReconciling);
      return wait({ reason: 'WaitingForShootReconciled', message: `Waiting for Shoot ${full} to be reconciled` });
    }
    if (s === ReplicaStatus.ShootDeleting) {
      setPending(name, PendingReplicaReason.ShootDeleting);
      return wait({ reason: 'WaitingForShootDeleted', message: `Waiting for Shoot ${full} to be deleted` });
    }
    if (s === ReplicaStatus.ShootReconciled) {
      if (!scalingIn) {
        setPending(name, PendingReplicaReason.ManagedSeedPreparing);
        return wait(
          { reason: 'CreatingManagedSeed', message: `Creating ManagedSeed ${full}` },
          r.managedSeed ? undefined : { type: 'createManagedSeed', managedSeed: newManagedSeed(set, ordinalOf(name)) },
        );
      }
      setPending(name, PendingReplicaReason.ShootDeleting);
      return wait({ reason: 'DeletingShoot', message: `Deleting Shoot ${full}` }, { type: 'deleteShoot', replica: r });
    }
    if (s === ReplicaStatus.ManagedSeedPreparing && !scalingIn) {
      setPending(name, PendingReplicaReason.ManagedSeedPreparing);
      return wait({
        reason: 'WaitingForManagedSeedRegistered',
        message: `Waiting for ManagedSeed ${full} to be registered`,
      });
    }
    if (s === ReplicaStatus.ManagedSeedDeleting) {
      setPending(name, PendingReplicaReason.ManagedSeedDeleting);
      return wait({ reason: 'WaitingForManagedSeedDeleted', message: `Waiting for ManagedSeed ${full} to be deleted` });
    }
    if (!isSeedReady(r) && !scalingIn) {
      setPending(name, PendingReplicaReason.SeedNotReady);
      return wait({ reason: 'WaitingForSeedReady', message: `Waiting for Seed ${name} to be ready` });
    }
    if (shootHealth(r.shoot) !== 'healthy' && !scalingIn) {
      setPending(name, PendingReplicaReason.ShootNotHealthy);
      return wait({ reason: 'WaitingForShootHealthy', message: `Waiting for Shoot ${full} to be healthy` });
    }
    return undefined;
  };

  if (pending) {
    const step = reconcileReplica(pending);
    if (step) return step;
  }

  if (scalingOut) {
    // The next ordinal: after the largest existing one, never below status.nextReplicaNumber.
    const last = replicas.at(-1);
    const afterLast = last ? ordinalOf(replicaName(last)) + 1 : 0;
    const ordinal = Math.max(afterLast, status.nextReplicaNumber);
    const shoot = newShoot(set, ordinal);
    setPending(shoot.metadata!.name!, PendingReplicaReason.ShootReconciling);
    status.replicas++;
    status.nextReplicaNumber = ordinal + 1;
    return {
      status,
      action: { type: 'createShoot', shoot },
      event: { reason: 'CreatingShoot', message: `Creating Shoot ${set.metadata!.namespace}/${shoot.metadata!.name}` },
      done: false,
    };
  }

  if (scalingIn) {
    if (deletable.length === 0) return { status, done: false, error: 'no deletable replicas found' };
    const r = [...deletable].sort(comparePriority)[0]!;
    const name = replicaName(r);
    const full = replicaFullName(r);
    if (replicaIsReady(r)) status.readyReplicas--;
    if (managedSeedExists(replicaStatus(r))) {
      setPending(name, PendingReplicaReason.ManagedSeedDeleting);
      return {
        status,
        action: { type: 'deleteManagedSeed', replica: r },
        event: { reason: 'DeletingManagedSeed', message: `Deleting ManagedSeed ${full}` },
        done: false,
      };
    }
    setPending(name, PendingReplicaReason.ShootDeleting);
    return {
      status,
      action: { type: 'deleteShoot', replica: r },
      event: { reason: 'DeletingShoot', message: `Deleting Shoot ${full}` },
      done: false,
    };
  }

  for (const r of postponed) {
    const step = reconcileReplica(r);
    if (step) return step;
  }
  delete status.pendingReplica;
  return { status, done: true };
}
