// When the gardenlet reconciles a Shoot (Gardener's `helper.CalculateControllerInfos` with the reconciler's seed
// check and the predicate that a successfully reconciled Shoot waits for its sync period): a pure function of the
// Shoot, its Seed, the shoot controller configuration and the current time. Failed and ignored shoots are left alone
// (only their Cluster resource is synced); Create/Delete/Migrate/Restore and changed or unsuccessful shoots are
// reconciled at once; regular reconciliations follow the sync period, or the maintenance time window when confined.
import { Annotations, LastOperationType, parseDuration, type Seed, type Shoot } from '@gardener-ts/api';
import { effectiveMaintenanceWindow, randomDurationUntilNext, windowContains } from './maintenance-window.js';
import { isRotationOperation, rotationCompletionPending } from './rotation/patch.js';

/** Overrides a shoot's sync period (e.g. `"2h"`), honoured with `respectSyncPeriodOverwrite` or in the garden namespace. */
export const ShootSyncPeriodAnnotation = 'shoot.gardener.cloud/sync-period';
/** Marks a shoot the gardenlet leaves alone, honoured with `respectSyncPeriodOverwrite` or in the garden namespace. */
export const ShootIgnoreAnnotation = 'shoot.gardener.cloud/ignore';
/** On a Seed: stop all shoot reconciliations (Gardener's emergency switch). */
export const SeedEmergencyStopAnnotation = 'seed.gardener.cloud/emergency-stop-shoot-reconciliations';
/** The longest maintenance time window Gardener allows. */
export const MaintenanceWindowMaximumMs = 6 * 60 * 60_000;

/** The gardenlet's `controllers.shoot` settings the decision needs (durations in milliseconds). */
export interface ShootSyncConfig {
  readonly syncPeriod: number;
  readonly respectSyncPeriodOverwrite: boolean;
  readonly reconcileInMaintenanceOnly: boolean;
  /** How long to wait before looking at a shoot whose seed is not ready (`waitSyncPeriod`, 15 s). */
  readonly waitSyncPeriod: number;
}

/** The operation a shoot needs. */
export type ShootOperationType = (typeof LastOperationType)[keyof typeof LastOperationType];

/** What to do with a shoot now. */
export type SyncDecision =
  | { readonly action: 'reconcile'; readonly operation: ShootOperationType }
  | {
      readonly action: 'requeue';
      readonly operation: ShootOperationType;
      readonly after: number;
      readonly reason: string;
    }
  | {
      readonly action: 'skip';
      readonly operation: ShootOperationType;
      readonly reason: string;
      readonly syncClusterResource: boolean;
    };

/** Inputs of {@link shootSyncDecision}. */
export interface SyncInput {
  readonly shoot: Shoot;
  readonly seed: Seed;
  readonly config: ShootSyncConfig;
  readonly now: Date;
  /** This gardenlet's version: the seed must have been reconciled by it, a failed shoot must have failed with it. */
  readonly gardenerVersion: string;
  /** Randomness in [0, 1) for spreading reconciliations over the maintenance window. */
  readonly random?: () => number;
}

/**
 * Whether the source seed's gardenlet must prepare the shoot for migration (Gardener's `ShouldPrepareShootForMigration`):
 * `spec.seedName` names another seed than `status.seedName`, the seed that still hosts the control plane.
 */
export function shouldPrepareShootForMigration(shoot: Shoot): boolean {
  const specSeed = shoot.spec.seedName;
  const statusSeed = shoot.status?.seedName;
  return Boolean(specSeed && statusSeed && specSeed !== statusSeed);
}

/**
 * The seed whose gardenlet acts on the shoot (Gardener's `GetResponsibleSeedName`): while a migration is pending the
 * source seed (`status.seedName`) — it prepares the migration; afterwards (the source set `status.seedName` to the
 * destination with Migrate Succeeded) and otherwise `spec.seedName`. Empty for an unscheduled shoot.
 */
export function responsibleSeedName(shoot: Shoot): string {
  const specSeed = shoot.spec.seedName;
  if (!specSeed) return '';
  return shoot.status?.seedName || specSeed;
}

/**
 * The operation a shoot needs (Gardener's gardenlet `ComputeOperationType` over `v1beta1helper.ComputeOperationType`):
 * Delete once deleted; Migrate while the shoot must be prepared for migration; Restore after a succeeded (or aborted)
 * Migrate — the destination seed's turn; Create until a Create succeeded; an unfinished Migrate or Restore continues;
 * else Reconcile.
 */
export function computeOperationType(shoot: Shoot): ShootOperationType {
  if (shoot.metadata?.deletionTimestamp) return LastOperationType.Delete;
  if (shouldPrepareShootForMigration(shoot)) return LastOperationType.Migrate;
  const last = shoot.status?.lastOperation;
  if (last?.type === LastOperationType.Migrate && (last.state === 'Succeeded' || last.state === 'Aborted'))
    return LastOperationType.Restore;
  if (!last) return LastOperationType.Create;
  if (last.type === LastOperationType.Create && last.state !== 'Succeeded') return LastOperationType.Create;
  if (last.type === LastOperationType.Migrate && last.state !== 'Succeeded') return LastOperationType.Migrate;
  if (last.type === LastOperationType.Restore && last.state !== 'Succeeded') return LastOperationType.Restore;
  return LastOperationType.Reconcile;
}

/** Whether the shoot's sync-period and ignore annotations count (the config allows it, or it is in `garden`). */
export function respectsOverwrite(shoot: Shoot, config: Pick<ShootSyncConfig, 'respectSyncPeriodOverwrite'>): boolean {
  return config.respectSyncPeriodOverwrite || shoot.metadata?.namespace === 'garden';
}

/** The shoot's sync period: its annotation when respected, parseable and not shorter than the configured one. */
export function syncPeriodOfShoot(
  shoot: Shoot,
  config: Pick<ShootSyncConfig, 'syncPeriod' | 'respectSyncPeriodOverwrite'>,
): number {
  if (!respectsOverwrite(shoot, config)) return config.syncPeriod;
  const text = shoot.metadata?.annotations?.[ShootSyncPeriodAnnotation];
  const period = text === undefined ? undefined : parseDuration(text);
  return period === undefined || period < config.syncPeriod ? config.syncPeriod : period;
}

/** Whether the shoot is ignored (`shoot.gardener.cloud/ignore` parses as true and is respected). */
export function isShootIgnored(shoot: Shoot, config: Pick<ShootSyncConfig, 'respectSyncPeriodOverwrite'>): boolean {
  if (!respectsOverwrite(shoot, config)) return false;
  return ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(shoot.metadata?.annotations?.[ShootIgnoreAnnotation] ?? '');
}

function observedAtLatestGeneration(shoot: Shoot): boolean {
  return (shoot.status?.observedGeneration ?? 0) === (shoot.metadata?.generation ?? 0);
}

/**
 * Whether the shoot is failed: its last operation failed at the current generation with this gardenlet version, and
 * nobody asked to `retry`.
 */
export function isShootFailed(shoot: Shoot, gardenerVersion: string): boolean {
  return (
    shoot.status?.lastOperation?.state === 'Failed' &&
    observedAtLatestGeneration(shoot) &&
    shoot.status?.gardener?.version === gardenerVersion &&
    shoot.metadata?.annotations?.[Annotations.GardenerOperation] !== 'retry'
  );
}

/**
 * Whether a user asked for a reconciliation now with `gardener.cloud/operation=reconcile` or a credentials rotation
 * operation (`rotate-ca-start`, …, `rotate-rollout-workers=…`) (outside the sync period and
 * the maintenance window too). Gardener's API server turns the annotation into a new generation; our Shoots are
 * CRDs, whose generation only the spec moves, so the gardenlet reads the annotation itself and removes it when the
 * flow has run. A failed shoot needs `retry` instead, as in Gardener.
 */
export function reconcileRequested(shoot: Shoot): boolean {
  const operation = shoot.metadata?.annotations?.[Annotations.GardenerOperation];
  // A credentials rotation operation is a request for a reconciliation too (the flow consumes it at its start).
  return operation === 'reconcile' || isRotationOperation(operation);
}

/** Why the seed cannot take shoot reconciliations, or undefined when it can (Gardener's seed check). */
export function seedNotReadyReason(seed: Seed, gardenerVersion: string): string | undefined {
  const name = seed.metadata?.name;
  if (seed.status?.gardener?.version !== gardenerVersion) {
    return `seed ${name} has not yet been reconciled by gardenlet version ${gardenerVersion}`;
  }
  if ((seed.status?.observedGeneration ?? 0) < (seed.metadata?.generation ?? 0)) {
    return `seed ${name} has not yet observed its latest generation`;
  }
  // Gardener's health.CheckSeed: both conditions present and True.
  const conditions = seed.status?.conditions ?? [];
  for (const type of ['GardenletReady', 'SeedSystemComponentsHealthy']) {
    const condition = conditions.find((c) => c.type === type);
    if (!condition) return `seed ${name} is not ready: condition "${type}" is missing`;
    if (condition.status !== 'True')
      return `seed ${name} is not ready: condition "${type}" has invalid status ${condition.status} (expected True) due to ${condition.reason ?? ''}: ${condition.message ?? ''}`;
  }
  return undefined;
}

/** The constraint the controller-manager's `shoot-migration` controller sets when the destination seed is ready. */
export const ReadyForMigrationConstraint = 'ReadyForMigration';

/**
 * Why the source seed's gardenlet may not migrate the shoot yet, or undefined when it may (current Gardener's
 * `migrateShoot`): the controller-manager confirms the destination seed's readiness with the `ReadyForMigration`
 * constraint — missing, the gardenlet waits for the confirmation; not True, it names the constraint's message.
 */
export function migrationNotConfirmedReason(shoot: Shoot): string | undefined {
  const name = shoot.metadata?.name;
  const constraint = shoot.status?.constraints?.find((c) => c.type === ReadyForMigrationConstraint);
  if (!constraint) {
    return `waiting for confirmation that destination Seed is available to host the control plane of Shoot ${name}`;
  }
  if (constraint.status !== 'True') {
    return `destination Seed is not available to host the control plane of Shoot ${name}: ${constraint.message ?? ''}`;
  }
  return undefined;
}

/** What the gardenlet does with the shoot now. */
export function shootSyncDecision(input: SyncInput): SyncDecision {
  const { shoot, seed, config, now } = input;
  const random = input.random ?? Math.random;
  const operation = computeOperationType(shoot);

  // A migration waits for the controller-manager's confirmation that the destination is ready (Gardener checks it
  // before anything else of the migration).
  if (shouldPrepareShootForMigration(shoot)) {
    const unconfirmed = migrationNotConfirmedReason(shoot);
    if (unconfirmed) return { action: 'requeue', operation, after: config.waitSyncPeriod, reason: unconfirmed };
  }

  if (seed.metadata?.annotations?.[SeedEmergencyStopAnnotation] === 'true') {
    return {
      action: 'skip',
      operation,
      reason: 'Shoot reconciliation blocked by Seed emergency switch',
      syncClusterResource: false,
    };
  }
  if (isShootFailed(shoot, input.gardenerVersion) || isShootIgnored(shoot, config)) {
    return { action: 'skip', operation, reason: 'Shoot is failed or ignored', syncClusterResource: true };
  }
  const notReady = seedNotReadyReason(seed, input.gardenerVersion);
  if (notReady) return { action: 'requeue', operation, after: config.waitSyncPeriod, reason: notReady };

  // Everything but a regular reconciliation runs at once.
  if (operation !== LastOperationType.Reconcile) return { action: 'reconcile', operation };
  const last = shoot.status?.lastOperation;
  if (
    !observedAtLatestGeneration(shoot) ||
    last?.state !== 'Succeeded' ||
    reconcileRequested(shoot) ||
    rotationCompletionPending(shoot)
  )
    return { action: 'reconcile', operation };

  const confined = config.reconcileInMaintenanceOnly || shoot.spec.maintenance?.confineSpecUpdateRollout === true;
  const lastTime = Date.parse(last.lastUpdateTime);
  if (!confined) {
    const due = lastTime + syncPeriodOfShoot(shoot, config) - now.getTime();
    if (Number.isNaN(lastTime) || due <= 0) return { action: 'reconcile', operation };
    return { action: 'requeue', operation, after: due, reason: 'Shoot was reconciled within its sync period' };
  }
  const window = effectiveMaintenanceWindow(shoot.spec.maintenance?.timeWindow);
  const reconciledInThisWindow =
    !Number.isNaN(lastTime) &&
    windowContains(window, new Date(lastTime)) &&
    now.getTime() - lastTime <= MaintenanceWindowMaximumMs;
  if (windowContains(window, now) && !reconciledInThisWindow) return { action: 'reconcile', operation };
  return {
    action: 'requeue',
    operation,
    after: randomDurationUntilNext(window, now, false, random),
    reason: 'Shoot is not in its effective maintenance time window or was already reconciled during this time window',
  };
}
