// The ManagedSeedSet actuator (Gardener's pkg/controllermanager/controller/managedseedset/actuator.go) as a pure
// planner: from the set, its replicas and the time, the status to write and the one step to take now — create the
// next replica's Shoot, create a replica's ManagedSeed once its Shoot is reconciled, retry a failed Shoot (at most
// `maxShootRetries` times), delete the lowest-priority deletable replica when scaling in — or wait for the pending one.
// Once nothing else is left, template changes roll out (GEP-13's RollingUpdate strategy, which Gardener's controller
// does not implement): replicas whose objects are not at the set's template revision and whose ordinal is at least
// `spec.updateStrategy.rollingUpdate.partition` are updated in place one at a time, highest ordinal first, each only
// after the previously updated one's Shoot is reconciled, its ManagedSeed registered, its Seed ready and Shoot healthy.
// With the templates of the revisions (`revision.ts`), replicas below the partition are made from the current
// revision, and an update patches exactly what changed between the replica's revision and the update revision.
import { isDeepStrictEqual } from 'node:util';
import { applyMergePatch } from '@gardener-ts/controller-runtime';
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
  RevisionLabel,
  shootHealth,
  shootReconcileFailed,
  shootReconcileSucceeded,
  templateRevision,
  type Replica,
  type TemplateRevision,
} from './replica.js';
import { mergePatchBetween, templatesOf, type RevisionTemplates } from './revision.js';
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
  /**
   * Brings the replica's Shoot (and ManagedSeed, when it exists) to the update revision: `shoot`/`managedSeed` are the
   * objects the revision makes, the patches the JSON merge patches of their labels, annotations and spec to send.
   */
  | {
      readonly type: 'updateReplica';
      readonly replica: Replica;
      readonly shoot: Shoot;
      readonly managedSeed?: ManagedSeed;
      readonly shootPatch: Record<string, unknown>;
      readonly managedSeedPatch?: Record<string, unknown>;
    };

/** The set's revisions as the reconciler found or made them (`revision.ts`). */
export interface RevisionInput {
  /** The revision of the set's current templates. */
  readonly update: string;
  /** The revision the replicas were at before the rollout (`update` when none is known). */
  readonly current: string;
  readonly collisionCount: number;
  /** The templates of the revisions known, by name. */
  readonly templates: ReadonlyMap<string, RevisionTemplates>;
}

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
  /** The revisions; without them the set's templates are the only ones known (`templateRevision`). */
  readonly revisions?: RevisionInput;
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
  const revisions = input.revisions;
  const updateRevision = revisions?.update ?? templateRevision(set);
  const templates = new Map(revisions?.templates ?? []);
  if (!templates.has(updateRevision)) templates.set(updateRevision, templatesOf(set));
  const revisionNamed = (name: string | undefined): TemplateRevision | undefined => {
    const t = name === undefined ? undefined : templates.get(name);
    return t && name !== undefined ? { name, templates: t } : undefined;
  };
  const update = revisionNamed(updateRevision)!;
  const partition = set.spec.updateStrategy?.rollingUpdate?.partition ?? 0;
  const status: PlannedStatus = {
    observedGeneration: set.metadata?.generation ?? 0,
    replicas: old?.replicas ?? 0,
    readyReplicas: old?.readyReplicas ?? 0,
    nextReplicaNumber: old?.nextReplicaNumber ?? 0,
    updatedReplicas: 0,
    currentReplicas: 0,
    currentRevision: revisions?.current ?? (old?.currentRevision || updateRevision),
    updateRevision,
    collisionCount: revisions?.collisionCount ?? old?.collisionCount ?? 0,
    ...(old?.pendingReplica ? { pendingReplica: old.pendingReplica } : {}),
  };
  const setPending = (name: string, reason: PendingReplicaReason, retries?: number) => {
    const p = status.pendingReplica;
    if (!p || p.name !== name || p.reason !== reason || p.retries !== retries) {
      status.pendingReplica = { name, reason, since: now, ...(retries === undefined ? {} : { retries }) };
    }
  };
  /** The revision a replica's objects are made from: below the partition the current one (when its templates are known). */
  const revisionForOrdinal = (ordinal: number): TemplateRevision =>
    (ordinal < partition ? revisionNamed(status.currentRevision) : undefined) ?? update;
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
          r.managedSeed
            ? undefined
            : {
                type: 'createManagedSeed',
                // From the revision the replica's Shoot was made from, else by its ordinal.
                managedSeed: newManagedSeed(
                  set,
                  ordinalOf(name),
                  revisionNamed(r.shoot.metadata?.labels?.[RevisionLabel]) ?? revisionForOrdinal(ordinalOf(name)),
                ),
              },
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
    const revision = revisionForOrdinal(ordinal);
    const shoot = newShoot(set, ordinal, revision);
    setPending(shoot.metadata!.name!, PendingReplicaReason.ShootReconciling);
    status.replicas++;
    if (revision.name === updateRevision) status.updatedReplicas++;
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
    const shoot = newShoot(set, ordinal, update);
    const managedSeed = outdated.managedSeed ? newManagedSeed(set, ordinal, update) : undefined;
    // What changed since the revision the replica is at; without its templates, every field the templates set.
    const previous = revisionNamed(outdated.shoot.metadata?.labels?.[RevisionLabel]);
    const shootPatch = replicaPatch(shoot, previous && newShoot(set, ordinal, previous));
    const managedSeedPatch =
      managedSeed &&
      replicaPatch(managedSeed, previous && newManagedSeed(set, ordinal, previous), (spec) => ({
        gardenlet: (spec as ManagedSeed['spec']).gardenlet,
      }));
    // Wait for whatever the update changes: the Shoot's reconciliation when its spec changes (labels and annotations
    // do not start one), else the ManagedSeed's registration.
    const shootChanges = previous
      ? !isDeepStrictEqual(applyMergePatch(outdated.shoot.spec, shootPatch.spec ?? {}), outdated.shoot.spec)
      : !isDerivative(shoot.spec, outdated.shoot.spec);
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
      {
        type: 'updateReplica',
        replica: outdated,
        shoot,
        shootPatch,
        ...(managedSeed ? { managedSeed, managedSeedPatch: managedSeedPatch! } : {}),
      },
    );
  }
  delete status.pendingReplica;
  return { status, done: true };
}

/**
 * The merge patch bringing a replica object to `desired` (labels, annotations and the spec part `specOf` picks): the
 * difference from `previous` (the same object made from the replica's revision), so fields a template dropped are
 * removed; without `previous` every field `desired` sets.
 */
function replicaPatch<T extends { metadata?: { labels?: object; annotations?: object }; spec?: unknown }>(
  desired: T,
  previous: T | undefined,
  specOf: (spec: unknown) => unknown = (spec) => spec,
): Record<string, unknown> {
  const part = (o: T) => ({
    metadata: { labels: o.metadata?.labels, annotations: o.metadata?.annotations },
    spec: specOf(o.spec),
  });
  if (!previous) return structuredClone(part(desired));
  return (mergePatchBetween(part(previous), part(desired)) as Record<string, unknown> | undefined) ?? {};
}
