import { describe, expect, it } from 'vitest';
import { ApiError, type KubernetesObject } from '@gardener-ts/controller-runtime';
import type { Shoot } from '../../shoot/kinds.js';
import {
  JITTER_MS,
  lastBackupOf,
  REQUEUE_NOT_READY_FOR_BACKUP_MS,
  requeueAfterMs,
  ShootStateReconciler,
  seedIsManagedSeed,
  shootCreatedSuccessfully,
  shootInMigration,
} from './reconciler.js';

const HOUR = 3600_000;
const now = new Date('2026-11-29T12:00:00Z');
type Op = { type: string; state: string };
const op = (type: string, state: string) => ({ type, state }) as never;

function shoot(lastOperation?: Op, extra: { seedName?: string; deletionTimestamp?: string } = {}): Shoot {
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Shoot',
    metadata: {
      namespace: 'garden-dev',
      name: 'local',
      ...(extra.deletionTimestamp ? { deletionTimestamp: extra.deletionTimestamp } : {}),
    },
    spec: { seedName: 'seedName' in extra ? extra.seedName : 'local' },
    status: { technicalID: 'shoot--dev--local', ...(lastOperation ? { lastOperation } : {}) },
  } as unknown as Shoot;
}

const notFound = () => new ApiError(404, 'NotFound', 'not found');

function setup(object: Shoot | undefined, stateTimestamp?: string, managedSeed = false) {
  const backups: Date[] = [];
  const managedSeedLooks: unknown[] = [];
  const garden = {
    async get(kind: { kind: string }, key: unknown) {
      if (kind.kind === 'ManagedSeed') {
        managedSeedLooks.push(key);
        if (!managedSeed) throw notFound();
        return { metadata: { name: 'local', namespace: 'garden' } } as KubernetesObject;
      }
      if (kind.kind === 'Shoot') {
        if (!object) throw notFound();
        return structuredClone(object);
      }
      if (stateTimestamp === undefined) throw notFound();
      return {
        metadata: {
          name: 'local',
          namespace: 'garden-dev',
          annotations: { 'gardener.cloud/timestamp': stateTimestamp },
        },
      } as KubernetesObject;
    },
  };
  const r = new ShootStateReconciler({
    garden: garden as never,
    seedName: 'local',
    syncPeriodMs: 6 * HOUR,
    backup: async (_shoot, at) => void backups.push(at),
    now: () => now,
    random: () => 0.5,
  });
  return { backups, managedSeedLooks, reconcile: () => r.reconcile({ namespace: 'garden-dev', name: 'local' }) };
}

describe('shoot state predicates', () => {
  it('counts a shoot as created once Create succeeded or another operation ran', () => {
    expect(shootCreatedSuccessfully(undefined)).toBe(false);
    expect(shootCreatedSuccessfully(op('Create', 'Processing'))).toBe(false);
    expect(shootCreatedSuccessfully(op('Create', 'Error'))).toBe(false);
    expect(shootCreatedSuccessfully(op('Create', 'Succeeded'))).toBe(true);
    expect(shootCreatedSuccessfully(op('Reconcile', 'Error'))).toBe(true);
    expect(shootCreatedSuccessfully(op('Restore', 'Processing'))).toBe(true);
  });

  it('counts a shoot as in migration while Migrate runs or a Restore has not succeeded', () => {
    expect(shootInMigration(undefined)).toBe(false);
    expect(shootInMigration(op('Migrate', 'Succeeded'))).toBe(true);
    expect(shootInMigration(op('Migrate', 'Processing'))).toBe(true);
    expect(shootInMigration(op('Restore', 'Error'))).toBe(true);
    expect(shootInMigration(op('Restore', 'Succeeded'))).toBe(false);
    expect(shootInMigration(op('Reconcile', 'Processing'))).toBe(false);
  });

  it('reads the last backup from gardener.cloud/timestamp', () => {
    expect(lastBackupOf(undefined)).toEqual(new Date(0));
    expect(lastBackupOf({ 'gardener.cloud/timestamp': '2026-11-29T06:00:00Z' })).toEqual(
      new Date('2026-11-29T06:00:00Z'),
    );
    expect(() => lastBackupOf({ 'gardener.cloud/timestamp': 'yesterday' })).toThrow(/failed parsing timestamp/);
  });

  it('schedules the next backup a sync period after the last one, within ±15 minutes', () => {
    expect(requeueAfterMs(now, 6 * HOUR, now, () => 0)).toBe(6 * HOUR - JITTER_MS / 2);
    expect(requeueAfterMs(now, 6 * HOUR, now, () => 0.999999)).toBeLessThan(6 * HOUR + JITTER_MS / 2);
    expect(requeueAfterMs(now, 6 * HOUR, now, () => 0.5)).toBe(6 * HOUR);
    // Due within the jitter window already: look again soon rather than never.
    expect(requeueAfterMs(new Date(now.getTime() - 6 * HOUR + 60_000), 6 * HOUR, now, () => 0)).toBe(1_000);
  });
});

describe('ShootStateReconciler', () => {
  it('backs up a shoot without a ShootState and schedules the next backup', async () => {
    const { backups, reconcile } = setup(shoot(op('Reconcile', 'Succeeded')));
    expect(await reconcile()).toEqual({ requeueAfter: 6 * HOUR });
    expect(backups).toEqual([now]);
  });

  it('backs up again once the last backup is older than the sync period', async () => {
    const { backups, reconcile } = setup(shoot(op('Reconcile', 'Succeeded')), '2026-11-29T05:59:00Z');
    expect(await reconcile()).toEqual({ requeueAfter: 6 * HOUR });
    expect(backups).toEqual([now]);
  });

  it('waits for the due time of a recent backup', async () => {
    const { backups, reconcile } = setup(shoot(op('Reconcile', 'Succeeded')), '2026-11-29T10:00:00Z');
    expect(await reconcile()).toEqual({ requeueAfter: 4 * HOUR });
    expect(backups).toEqual([]);
  });

  it('waits for a shoot not created yet and for a shoot in migration', async () => {
    for (const lastOperation of [
      undefined,
      op('Create', 'Error'),
      op('Migrate', 'Processing'),
      op('Restore', 'Error'),
    ]) {
      const { backups, reconcile } = setup(shoot(lastOperation));
      expect(await reconcile()).toEqual({ requeueAfter: REQUEUE_NOT_READY_FOR_BACKUP_MS });
      expect(backups).toEqual([]);
    }
  });

  it('stops for a shoot that is gone, deleted or moved to another seed', async () => {
    for (const object of [
      undefined,
      shoot(op('Reconcile', 'Succeeded'), { deletionTimestamp: '2026-11-29T11:00:00Z' }),
      shoot(op('Reconcile', 'Succeeded'), { seedName: 'other' }),
    ]) {
      const { backups, reconcile } = setup(object);
      expect(await reconcile()).toBeUndefined();
      expect(backups).toEqual([]);
    }
  });

  it('backs up nothing on a seed a ManagedSeed backs (GEP-22: unmanaged seeds only), asking the garden once', async () => {
    const { backups, managedSeedLooks, reconcile } = setup(shoot(op('Reconcile', 'Succeeded')), undefined, true);
    expect(await reconcile()).toBeUndefined();
    expect(await reconcile()).toBeUndefined();
    expect(backups).toEqual([]);
    expect(managedSeedLooks).toEqual([{ namespace: 'garden', name: 'local' }]);
    // An unmanaged seed is also asked only once.
    const unmanaged = setup(shoot(op('Reconcile', 'Succeeded')));
    await unmanaged.reconcile();
    await unmanaged.reconcile();
    expect(unmanaged.managedSeedLooks).toHaveLength(1);
    expect(unmanaged.backups).toEqual([now, now]);
  });

  it('seedIsManagedSeed: a ManagedSeed garden/<seed> exists; other failures are errors with their cause', async () => {
    const failing = { get: async () => Promise.reject(new ApiError(500, 'InternalError', 'boom')) };
    await expect(seedIsManagedSeed(failing as never, 'local')).rejects.toThrow(/checking whether seed local/);
    const absent = { get: async () => Promise.reject(notFound()) };
    expect(await seedIsManagedSeed(absent as never, 'local')).toBe(false);
  });

  it('fails with the cause when the backup fails', async () => {
    const failing = new ShootStateReconciler({
      garden: {
        get: async (kind: { kind: string }) =>
          kind.kind === 'ManagedSeed'
            ? Promise.reject(notFound())
            : structuredClone(shoot(op('Reconcile', 'Succeeded'))),
      } as never,
      seedName: 'local',
      syncPeriodMs: HOUR,
      backup: async () => {
        throw new Error('seed unreachable');
      },
    });
    await expect(failing.reconcile({ namespace: 'garden-dev', name: 'local' })).rejects.toThrow(
      /failed performing periodic ShootState backup/,
    );
  });
});
