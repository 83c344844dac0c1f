// The ManagedSeedSet actuator (Gardener's pkg/controllermanager/controller/managedseedset/actuator.go) as a pure
// planner: from the set, its replicas and the time, the status to write and the one step to take now — create the
// next replica's Shoot, create a replica's ManagedSeed once its Shoot is reconciled, retry a failed Shoot (at most
// `maxShootRetries` times), delete the lowest-priority deletable replica when scaling in — or wait for the pending one.
// Once nothing else is left, template changes roll out (GEP-13's RollingUpdate strategy, which Gardener's controller
// does not implement): replicas whose objects are not at the set's template revision and whose ordinal is at least
// `spec.updateStrategy.rollingUpdate.partition` are updated in place one at a time, highest ordinal first, each only
// after the previously updated one's Shoot is reconciled, its ManagedSeed registered, its Seed ready and Shoot healthy.
import {
  comparePriority,
  isDeletable,
  isDerivative,
  isSeedReady,
  managedSeedExists,
  newManagedSeed,
  newShoot,
  ordinalOf,
  replicaFullName,
  replicaIsReady,
  replicaName,
  replicaRevision,
  replicaStatus,
  ReplicaStatus,
  shootHealth,
  shootReconcileFailed,
  shootReconcileSucceeded,
  templateRevision,
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
  | { readonly type: 'retryShoot'; readonly replica: Replica }
  /** Brings the replica's Shoot (and ManagedSeed, when it exists) to the templates: labels, annotations and spec. */
  | {
      readonly type: 'updateReplica';
      readonly replica: Replica;
      readonly shoot: Shoot;
      readonly managedSeed?: ManagedSeed;
    };

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
  /** Replicas at `updateRevision`. */
  updatedReplicas: number;
  /** Replicas at `currentRevision`. */
  currentReplicas: number;
  /** The revision the replicas were at before the rollout; `updateRevision` once every replica is at it and ready. */
  currentRevision: string;
  /** The set's template revision (`<set>-<hash>`). */
  updateRevision: string;
  collisionCount: number;
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
  const plan = planReplicas(input);
  const { status } = plan;
  // StatefulSet-like revision bookkeeping: the rollout is complete when every replica is updated and nothing is left
  // to do or wait for (every replica ready).
  if (plan.done && status.updatedReplicas === status.replicas && status.readyReplicas === status.replicas) {
    status.currentRevision = status.updateRevision;
  }
  const updating = plan.action?.type === 'updateReplica' ? plan.action.replica : undefined;
  status.currentReplicas =
    status.currentRevision === status.updateRevision
      ? status.updatedReplicas
      : input.replicas.filter((r) => r !== updating && replicaRevision(r) === status.currentRevision).length;
  return plan;
}

function planReplicas(input: PlanInput): SetPlan {
  const { set, maxShootRetries, now } = input;
  const old = set.status as (ManagedSeedSetStatus & { pendingReplica?: PendingReplica }) | undefined;
  const updateRevision = templateRevision(set);
  const status: PlannedStatus = {
    observedGeneration: set.metadata?.generation ?? 0,
    replicas: old?.replicas ?? 0,
    readyReplicas: old?.readyReplicas ?? 0,
    nextReplicaNumber: old?.nextReplicaNumber ?? 0,
    updatedReplicas: 0,
    currentReplicas: 0,
    currentRevision: old?.currentRevision || updateRevision,
    updateRevision,
    collisionCount: old?.collisionCount ?? 0,
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
  const isUpdated = (r: Replica) => replicaRevision(r) === updateRevision;
  status.updatedReplicas = replicas.filter(isUpdated).length;

  const target = set.metadata?.deletionTimestamp ? 0 : (set.spec.replicas ?? 1);
  const scalingOut = replicas.length < target;
  const scalingIn = replicas.length > target;

  const wait = (event: SetEvent, action?: ReplicaAction): SetPlan => ({
    status,
    event,
    done: false,
    ...(action ? { action } : {}),
  });
  /** A failed shoot operation: retried (one more pending retry) until maxShootRetries, then reported as final. */
  const retryShoot = (
    r: Replica,
    operation: 'reconciliation' | 'deletion',
    retrying: PendingReplicaReason,
    failed: PendingReplicaReason,
  ): SetPlan => {
    const name = replicaName(r);
    const full = replicaFullName(r);
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

  /** Gardener's reconcileReplica: the step for a replica that keeps the set waiting, or undefined to go on. */
  const reconcileReplica = (r: Replica): SetPlan | undefined => {
    const s = replicaStatus(r);
    const name = replicaName(r);
    const full = replicaFullName(r);
    if (s === ReplicaStatus.ShootReconcileFailed && !scalingIn)
      return retryShoot(
        r,
        'reconciliation',
        PendingReplicaReason.ShootReconciling,
        PendingReplicaReason.ShootReconcileFailed,
      );
    if (s === ReplicaStatus.ShootDeleteFailed)
      return retryShoot(r, 'deletion', PendingReplicaReason.ShootDeleting, PendingReplicaReason.ShootDeleteFailed);
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
    status.updatedReplicas++;
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

  // The rolling update: only replicas at or above the partition take part.
  const partition = set.spec.updateStrategy?.rollingUpdate?.partition ?? 0;
  const rolling = replicas.filter((r) => ordinalOf(replicaName(r)) >= partition).reverse();
  for (const r of rolling) {
    if (!isUpdated(r) || !r.managedSeed) continue;
    // An updated replica must be through its Shoot's reconciliation (Gardener only looks at the Shoot before the
    // ManagedSeed exists) and ready before the next one is updated.
    if (!shootReconcileSucceeded(r.shoot) && !r.shoot.metadata?.deletionTimestamp) {
      if (shootReconcileFailed(r.shoot)) {
        return retryShoot(
          r,
          'reconciliation',
          PendingReplicaReason.ShootReconciling,
          PendingReplicaReason.ShootReconcileFailed,
        );
      }
      setPending(replicaName(r), PendingReplicaReason.ShootReconciling);
      return wait({
        reason: 'WaitingForShootReconciled',
        message: `Waiting for Shoot ${replicaFullName(r)} to be reconciled`,
      });
    }
    const step = reconcileReplica(r);
    if (step) return step;
  }
  const outdated = rolling.find((r) => !isUpdated(r));
  if (outdated) {
    const ordinal = ordinalOf(replicaName(outdated));
    const shoot = newShoot(set, ordinal);
    const managedSeed = outdated.managedSeed ? newManagedSeed(set, ordinal) : undefined;
    // Wait for whatever the update changes: the Shoot's reconciliation when its spec changes (labels and annotations
    // do not start one), else the ManagedSeed's registration.
    const shootChanges = !isDerivative(shoot.spec, outdated.shoot.spec);
    setPending(
      replicaName(outdated),
      shootChanges || !managedSeed ? PendingReplicaReason.ShootReconciling : PendingReplicaReason.ManagedSeedPreparing,
    );
    status.updatedReplicas++;
    return wait(
      {
        reason: 'UpdatingReplica',
        message: `Updating Shoot${managedSeed ? ' and ManagedSeed' : ''} ${replicaFullName(outdated)} to revision ${updateRevision}`,
      },
      { type: 'updateReplica', replica: outdated, shoot, ...(managedSeed ? { managedSeed } : {}) },
    );
  }
  delete status.pendingReplica;
  return { status, done: true };
}
