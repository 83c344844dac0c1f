// The status a ManagedSeed's gardenlet writes (pure): whether its Shoot is reconciled (Gardener's `shootReconciled`:
// the shoot's generation observed and its last operation Succeeded), which seed is responsible for the shoot
// (Gardener's `GetResponsibleSeedName`), whether the Seed is registered (it exists and its gardenlet is ready), and
// the conditions `ShootReconciled` and `SeedRegistered` with Gardener's reasons.
import { ManagedSeedConditionType, SeedConditionType } from '@gardener-ts/api';
import {
  getOrInitCondition,
  mergeConditions,
  updatedCondition,
  type Condition,
  type ConditionStatus,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import type { Seed, Shoot } from './kinds.js';

/** Gardener's event reasons the conditions carry. */
export const Reason = {
  Reconciling: 'Reconciling',
  Reconciled: 'Reconciled',
  ReconcileError: 'ReconcileError',
  Deleting: 'Deleting',
  DeleteError: 'DeleteError',
  Deleted: 'Deleted',
} as const;

/** Whether the Shoot is reconciled: its generation observed and its last operation Succeeded. */
export function shootReconciled(shoot: Shoot): boolean {
  const last = shoot.status?.lastOperation;
  return (
    shoot.metadata?.generation === shoot.status?.observedGeneration && last !== undefined && last.state === 'Succeeded'
  );
}

/**
 * The seed responsible for a shoot (Gardener's `GetResponsibleSeedName`): none without `spec.seedName`, else
 * `status.seedName` when set (during a migration the source seed stays responsible until it handed over), else
 * `spec.seedName`.
 */
export function responsibleSeedName(shoot: Pick<Shoot, 'spec' | 'status'>): string | undefined {
  const spec = shoot.spec?.seedName;
  if (!spec) return undefined;
  return shoot.status?.seedName || spec;
}

/** Whether the Seed is registered: it exists and its `GardenletReady` is True. */
export function seedRegistered(seed: Seed | undefined): boolean {
  const ready = (seed?.status?.conditions as Condition[] | undefined)?.find(
    (c) => c.type === SeedConditionType.GardenletReady,
  );
  return ready?.status === 'True';
}

/** The conditions with `type` set to `status`, `reason` and `message` at the clock's time (unchanged ones keep theirs). */
export function withCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
  status: ConditionStatus,
  reason: string,
  message: string,
  clock?: WallClock,
): Condition[] {
  const current = getOrInitCondition(conditions, type, clock);
  return mergeConditions(conditions, updatedCondition(current, status, reason, message, clock ? { clock } : {}));
}

/** `ShootReconciled`: True once the shoot is reconciled, False (Reconciling) while waiting for it. */
export function shootReconciledCondition(
  conditions: readonly Condition[] | undefined,
  shoot: Shoot,
  clock?: WallClock,
): Condition[] {
  const key = `${shoot.metadata?.namespace}/${shoot.metadata?.name}`;
  return shootReconciled(shoot)
    ? withCondition(
        conditions,
        ManagedSeedConditionType.ShootReconciled,
        'True',
        Reason.Reconciled,
        `Shoot "${key}" has been reconciled`,
        clock,
      )
    : withCondition(
        conditions,
        ManagedSeedConditionType.ShootReconciled,
        'False',
        Reason.Reconciling,
        `Waiting for shoot "${key}" to be reconciled`,
        clock,
      );
}

/**
 * `SeedRegistered` after the gardenlet was deployed: True once the Seed exists with `GardenletReady` True, False
 * (Reconciling) while the new gardenlet has not registered it or is not ready yet.
 */
export function seedRegisteredCondition(
  conditions: readonly Condition[] | undefined,
  name: string,
  seed: Seed | undefined,
  clock?: WallClock,
): Condition[] {
  if (seedRegistered(seed)) {
    return withCondition(
      conditions,
      ManagedSeedConditionType.SeedRegistered,
      'True',
      Reason.Reconciled,
      `Seed ${name} has been registered`,
      clock,
    );
  }
  const message = seed
    ? `Waiting for the gardenlet of seed ${name} to be ready`
    : `Waiting for seed ${name} to be registered by its gardenlet`;
  return withCondition(
    conditions,
    ManagedSeedConditionType.SeedRegistered,
    'False',
    Reason.Reconciling,
    message,
    clock,
  );
}

/** `SeedRegistered` False with an error reason (ReconcileError, DeleteError) and the error's message. */
export function seedRegisteredError(
  conditions: readonly Condition[] | undefined,
  reason: typeof Reason.ReconcileError | typeof Reason.DeleteError,
  message: string,
  clock?: WallClock,
): Condition[] {
  return withCondition(conditions, ManagedSeedConditionType.SeedRegistered, 'False', reason, message, clock);
}

/** `SeedRegistered` during the deletion: False Deleting with what is waited for, False Deleted at the end. */
export function seedDeletingCondition(
  conditions: readonly Condition[] | undefined,
  message: string,
  done: boolean,
  clock?: WallClock,
): Condition[] {
  return withCondition(
    conditions,
    ManagedSeedConditionType.SeedRegistered,
    'False',
    done ? Reason.Deleted : Reason.Deleting,
    message,
    clock,
  );
}
