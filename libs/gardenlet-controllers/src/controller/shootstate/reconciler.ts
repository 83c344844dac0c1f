// The periodic ShootState backup (Gardener's pkg/gardenlet/controller/shoot/state/reconciler.go, GEP-22): for a Shoot
// of this seed that was created successfully and is not being migrated, the ShootState is written again (the computed
// state replacing the stored one) once `gardener.cloud/timestamp` on it is older than `controllers.shootState.syncPeriod`;
// the next backup is scheduled a sync period after the last one, jittered by ±15 minutes. Only an unmanaged seed backs
// up ShootStates (GEP-22): when a ManagedSeed backs this gardenlet's seed, the reconciler does nothing.
import { Annotations, LastOperationState, LastOperationType } from '@gardener-ts/api';
import {
  isNotFound,
  type Client,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ShootKind, type Shoot } from '../../shoot/kinds.js';
import { ManagedSeedKind } from '../managedseed/kinds.js';
import { readShootState } from '../../shoot/shootstate-writer.js';

/** How long a shoot that is not ready for a backup (not created yet, in migration) waits (Gardener: 10 minutes). */
export const REQUEUE_NOT_READY_FOR_BACKUP_MS = 10 * 60_000;
/** The window the next backup is spread over, centred on the due time (Gardener: 30 minutes). */
export const JITTER_MS = 30 * 60_000;
/** The shortest wait until the next look (a due time in the past within the jitter would otherwise be negative). */
export const MIN_REQUEUE_MS = 1_000;

type LastOperation = NonNullable<Shoot['status']>['lastOperation'];

/** Gardener's `shootCreatedSuccessfully`: the Create operation succeeded, or the last operation is not a Create. */
export function shootCreatedSuccessfully(lastOperation: LastOperation | undefined): boolean {
  return (
    lastOperation !== undefined &&
    (lastOperation.type !== LastOperationType.Create || lastOperation.state === LastOperationState.Succeeded)
  );
}

/** Gardener's `shootInMigration`: a Migrate operation, or a Restore that has not succeeded yet. */
export function shootInMigration(lastOperation: LastOperation | undefined): boolean {
  return (
    lastOperation !== undefined &&
    (lastOperation.type === LastOperationType.Migrate ||
      (lastOperation.type === LastOperationType.Restore && lastOperation.state !== LastOperationState.Succeeded))
  );
}

/** The time of the last backup (`gardener.cloud/timestamp`, RFC 3339); the epoch when there is none. */
export function lastBackupOf(annotations: Record<string, string> | undefined): Date {
  const value = annotations?.[Annotations.GardenerTimestamp];
  if (value === undefined) return new Date(0);
  const parsed = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(parsed.getTime())) {
    throw new Error(`failed parsing timestamp ${JSON.stringify(value)} on ShootState object`);
  }
  return parsed;
}

/** The wait until the next backup: due a sync period after `lastBackup`, moved by `random()` within ±JITTER_MS/2. */
export function requeueAfterMs(lastBackup: Date, syncPeriodMs: number, now: Date, random: () => number): number {
  const next = lastBackup.getTime() + syncPeriodMs - JITTER_MS / 2 + Math.floor(random() * JITTER_MS);
  return Math.max(MIN_REQUEUE_MS, next - now.getTime());
}

/**
 * Gardener's `ClusterIsManagedByManagedSeed`: whether the ManagedSeed `garden/<seedName>` exists, i.e. the seed is a
 * shoot registered by a parent gardenlet.
 */
export async function seedIsManagedSeed(garden: Pick<Client, 'get'>, seedName: string): Promise<boolean> {
  try {
    await garden.get(ManagedSeedKind, { namespace: 'garden', name: seedName });
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw new Error(`checking whether seed ${seedName} is a ManagedSeed failed`, { cause: err });
  }
}

export interface ShootStateReconcilerDeps {
  /** Garden reader (the Shoot and its ShootState). */
  garden: Pick<Client, 'get'>;
  seedName: string;
  /** `controllers.shootState.syncPeriod` in milliseconds. */
  syncPeriodMs: number;
  /** Writes the Shoot's ShootState from its control plane namespace, replacing the stored state. */
  backup: (shoot: Shoot, now: Date) => Promise<void>;
  now?: () => Date;
  /** Uniform in [0, 1) for the jitter; `Math.random` by default. */
  random?: () => number;
}

/** Backs up the ShootStates of this seed's Shoots periodically (an unmanaged seed's only). */
export class ShootStateReconciler {
  /**
   * Whether a ManagedSeed backs the seed: asked once, as Gardener decides once at start-up whether to run the
   * controller (a failed look is asked again).
   */
  private managedSeed: boolean | undefined;

  constructor(private readonly deps: ShootStateReconcilerDeps) {}

  async reconcile(req: Request, ctx?: Pick<ReconcileContext, 'log'>): Promise<ReconcileResult | void> {
    const { garden, seedName } = this.deps;
    if (this.managedSeed === undefined) {
      this.managedSeed = await seedIsManagedSeed(garden, seedName);
      if (this.managedSeed) ctx?.log.info({ seed: seedName }, 'Seed is a ManagedSeed: no periodic ShootState backups');
    }
    if (this.managedSeed) return;
    let shoot: Shoot;
    try {
      shoot = await garden.get(ShootKind, { namespace: req.namespace, name: req.name });
    } catch (err) {
      if (isNotFound(err)) return;
      throw new Error(`reading Shoot ${req.namespace}/${req.name} failed`, { cause: err });
    }
    // Deleted, or no longer this seed's (moved to another seed): no more backups from here.
    if (shoot.metadata?.deletionTimestamp || shoot.spec.seedName !== seedName) return;

    const lastOperation = shoot.status?.lastOperation;
    if (!shootCreatedSuccessfully(lastOperation)) {
      ctx?.log.info('Requeuing because shoot was not yet successfully created');
      return { requeueAfter: REQUEUE_NOT_READY_FOR_BACKUP_MS };
    }
    if (shootInMigration(lastOperation)) {
      ctx?.log.info('Requeuing because shoot is currently in migration');
      return { requeueAfter: REQUEUE_NOT_READY_FOR_BACKUP_MS };
    }

    const state = await readShootState(garden, shoot);
    let lastBackup = lastBackupOf(state?.metadata?.annotations);
    const now = this.deps.now?.() ?? new Date();
    if (lastBackup.getTime() + this.deps.syncPeriodMs < now.getTime()) {
      ctx?.log.info({ lastBackup: lastBackup.toISOString() }, 'Performing periodic ShootState backup');
      try {
        await this.deps.backup(shoot, now);
      } catch (err) {
        throw new Error('failed performing periodic ShootState backup', { cause: err });
      }
      lastBackup = now;
    }
    const requeueAfter = requeueAfterMs(lastBackup, this.deps.syncPeriodMs, now, this.deps.random ?? Math.random);
    ctx?.log.info({ requeueAfter }, 'Scheduled next periodic ShootState backup for Shoot');
    return { requeueAfter };
  }
}
