// The decisions of Gardener's shoot migration controller (pkg/controllermanager/controller/shoot/migration) as pure
// functions: whether a Shoot is to be migrated, whether its destination seed can take its control plane
// (health.CheckSeedForMigration) and which `ReadyForMigration` constraint that gives the Shoot.
import { ShootConstraintType, type Seed, type Shoot } from '@gardener-ts/api';
import { ConditionBuilder, mergeConditions, type Condition, type WallClock } from '@gardener-ts/controller-runtime';

/** The constraint the source seed's gardenlet waits for before it migrates the control plane. */
export const ReadyForMigration = ShootConstraintType.ReadyForMigration;

/** Gardener's reasons and messages of the constraint. */
export const MigrationReason = {
  DestinationSeedInDeletion: 'DestinationSeedInDeletion',
  DestinationSeedUnready: 'DestinationSeedUnready',
  DestinationSeedReady: 'DestinationSeedReady',
} as const;
export const DestinationSeedInDeletionMessage = 'Seed is being deleted';
export const DestinationSeedReadyMessage = 'Destination seed cluster is ready for the shoot migration';

/** Gardener's `ShouldPrepareShootForMigration`: `spec.seedName` and `status.seedName` are set and differ. */
export function shouldPrepareShootForMigration(shoot: Shoot): boolean {
  const spec = shoot.spec.seedName;
  const status = shoot.status?.seedName;
  return Boolean(spec && status && spec !== status);
}

/** The seed conditions a seed must have True to host control planes (Gardener's `trueSeedConditionTypes`). */
export const RequiredSeedConditionTypes = ['GardenletReady', 'SeedSystemComponentsHealthy'] as const;

/**
 * Why `destination` cannot take the control plane (Gardener's `health.CheckSeedForMigration` against the source seed's
 * `status.gardener`), or undefined when it can: both report a Gardener version and they are equal, the destination
 * observed its latest generation and its GardenletReady and SeedSystemComponentsHealthy conditions are True.
 */
export function checkSeedForMigration(
  destination: Seed,
  sourceGardener: { version?: string } | undefined,
): string | undefined {
  const gardener = destination.status?.gardener;
  if (!gardener || !sourceGardener) return 'missing Gardener version information on source or destination seed';
  if (gardener.version !== sourceGardener.version) {
    return `observing Gardener version not up to date (${gardener.version ?? ''}/${sourceGardener.version ?? ''})`;
  }
  const observed = destination.status?.observedGeneration ?? 0;
  const generation = destination.metadata?.generation ?? 0;
  if (observed < generation) return `observed generation outdated (${observed}/${generation})`;
  const conditions = (destination.status?.conditions ?? []) as readonly Condition[];
  for (const type of RequiredSeedConditionTypes) {
    if (!conditions.some((c) => c.type === type)) return `condition "${type}" is missing`;
  }
  for (const type of RequiredSeedConditionTypes) {
    const c = conditions.find((x) => x.type === type)!;
    if (c.status !== 'True') {
      return `condition "${type}" has invalid status ${c.status} (expected True) due to ${c.reason ?? ''}: ${c.message ?? ''}`;
    }
  }
  return undefined;
}

/** What the reconciler does with a Shoot. */
export type MigrationDecision =
  /** Not (or no longer) to be migrated: remove the constraint when present. */
  | { readonly action: 'remove' }
  /** To be migrated: the constraint to write (undefined when it already has that status), and whether to poll. */
  | {
      readonly action: 'set';
      readonly constraints?: Condition[];
      readonly status: 'True' | 'False';
      readonly reason: string;
      readonly message: string;
      readonly requeue: boolean;
    };

/** The Shoot's `ReadyForMigration` constraint, if any. */
export function readyForMigrationConstraint(shoot: Shoot): Condition | undefined {
  return (shoot.status?.constraints as Condition[] | undefined)?.find((c) => c.type === ReadyForMigration);
}

/**
 * Gardener's `updateConstraint`: the Shoot's constraints with `ReadyForMigration` set to status/reason/message, or
 * undefined when the constraint already has that status (reason and message are then left as they are, as Gardener).
 */
export function updatedConstraints(
  shoot: Shoot,
  status: 'True' | 'False',
  reason: string,
  message: string,
  clock?: WallClock,
): Condition[] | undefined {
  const old = readyForMigrationConstraint(shoot);
  if (old && old.status === status) return undefined;
  const builder = new ConditionBuilder(ReadyForMigration)
    .withOldCondition(old)
    .withStatus(status)
    .withReason(reason)
    .withMessage(message);
  const { condition } = (clock ? builder.withClock(clock) : builder).build();
  return mergeConditions(shoot.status?.constraints as Condition[] | undefined, condition);
}

/**
 * The reconciler's decision for a Shoot to be migrated, given its source and destination seeds: False
 * (`DestinationSeedInDeletion`) for a destination being deleted — not polled; False (`DestinationSeedUnready`, the
 * check's message) for an unready one and True (`DestinationSeedReady`) otherwise, both polled every 5 s while the
 * constraint is unchanged (Gardener's requeue) — a True written now is not.
 */
export function migrationDecision(shoot: Shoot, source: Seed, destination: Seed, clock?: WallClock): MigrationDecision {
  if (!shouldPrepareShootForMigration(shoot)) return { action: 'remove' };
  const set = (status: 'True' | 'False', reason: string, message: string, requeueWhenWritten: boolean) => {
    const constraints = updatedConstraints(shoot, status, reason, message, clock);
    return {
      action: 'set' as const,
      ...(constraints ? { constraints } : {}),
      status,
      reason,
      message,
      requeue: constraints
        ? requeueWhenWritten
        : status === 'True' || reason !== MigrationReason.DestinationSeedInDeletion,
    };
  };
  if (destination.metadata?.deletionTimestamp) {
    return set('False', MigrationReason.DestinationSeedInDeletion, DestinationSeedInDeletionMessage, false);
  }
  const unready = checkSeedForMigration(destination, source.status?.gardener);
  if (unready) return set('False', MigrationReason.DestinationSeedUnready, unready, true);
  return set('True', MigrationReason.DestinationSeedReady, DestinationSeedReadyMessage, false);
}

/** Requeue interval while the destination is checked again (Gardener's 5 s). */
export const RecheckIntervalMs = 5_000;
