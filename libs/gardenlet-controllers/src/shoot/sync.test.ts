// The gardenlet's shoot sync rules on the example shoot as the garden returns it, with property tests over shoot
// states, configurations and clocks.
import type { Seed, Shoot } from '@gardener-ts/api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exampleSeed, exampleShoot } from '../component/testdata/fixtures.js';
import {
  effectiveMaintenanceWindow,
  parseWindowTime,
  randomDurationUntilNext,
  windowContains,
} from './maintenance-window.js';
import {
  computeOperationType,
  migrationNotConfirmedReason,
  responsibleSeedName,
  shootSyncDecision,
  shouldPrepareShootForMigration,
  syncPeriodOfShoot,
  type ShootSyncConfig,
} from './sync.js';

const version = 'v1.130.0';
const hour = 3_600_000;
const config: ShootSyncConfig = {
  syncPeriod: hour,
  respectSyncPeriodOverwrite: false,
  reconcileInMaintenanceOnly: false,
  waitSyncPeriod: 15_000,
};
const now = new Date('2026-11-25T12:00:00Z');

function readySeed(mutate?: (seed: Seed) => void): Seed {
  return exampleSeed((seed) => {
    seed.metadata = { ...seed.metadata, generation: 1 };
    seed.status = {
      gardener: { id: 'x', name: 'gardenlet', version },
      observedGeneration: 1,
      conditions: [
        {
          type: 'GardenletReady',
          status: 'True',
          reason: 'r',
          message: 'm',
          lastTransitionTime: '',
          lastUpdateTime: '',
        },
        {
          type: 'SeedSystemComponentsHealthy',
          status: 'True',
          reason: 'r',
          message: 'm',
          lastTransitionTime: '',
          lastUpdateTime: '',
        },
      ],
    } as never;
    mutate?.(seed);
  });
}

/** The example shoot after a reconciliation that ended `ago` ms before `now` in `state`. */
function reconciledShoot(ago: number, state = 'Succeeded', mutate?: (shoot: Shoot) => void): Shoot {
  return exampleShoot((shoot) => {
    shoot.metadata = { ...shoot.metadata, generation: 3 };
    shoot.status = {
      gardener: { id: 'x', name: 'gardenlet', version },
      hibernated: false,
      technicalID: 'shoot--local--local',
      uid: shoot.metadata.uid!,
      seedName: 'local',
      observedGeneration: 3,
      lastOperation: {
        type: 'Reconcile',
        state,
        progress: 100,
        description: 'done',
        lastUpdateTime: new Date(now.getTime() - ago).toISOString(),
      },
    } as never;
    mutate?.(shoot);
  });
}

const decide = (shoot: Shoot, overrides: Partial<ShootSyncConfig> = {}, seed = readySeed(), at = now) =>
  shootSyncDecision({
    shoot,
    seed,
    config: { ...config, ...overrides },
    now: at,
    gardenerVersion: version,
    random: () => 0.5,
  });

describe('operation type', () => {
  it('follows deletion, migration and the last operation', () => {
    expect(computeOperationType(exampleShoot())).toBe('Create');
    expect(computeOperationType(reconciledShoot(0))).toBe('Reconcile');
    expect(computeOperationType(reconciledShoot(0, 'Succeeded', (s) => (s.spec.seedName = 'other')))).toBe('Migrate');
    expect(
      computeOperationType(reconciledShoot(0, 'Succeeded', (s) => (s.metadata!.deletionTimestamp = now.toISOString()))),
    ).toBe('Delete');
    expect(computeOperationType(reconciledShoot(0, 'Error', (s) => (s.status!.lastOperation!.type = 'Create')))).toBe(
      'Create',
    );
  });
});

describe('control plane migration', () => {
  const confirmed = (shoot: Shoot, status: 'True' | 'False', message = 'm'): Shoot => {
    const copy = structuredClone(shoot);
    copy.status!.constraints = [
      { type: 'ReadyForMigration', status, reason: 'r', message, lastTransitionTime: '', lastUpdateTime: '' },
    ];
    return copy;
  };
  const moved = (state: string, type = 'Reconcile', statusSeed = 'local') =>
    reconciledShoot(0, state, (s) => {
      s.spec.seedName = 'other';
      s.status!.seedName = statusSeed;
      s.status!.lastOperation!.type = type as never;
    });

  it('the source seed migrates while spec.seedName names another seed, the destination restores afterwards', () => {
    // spec.seedName changed: the source (status.seedName) is responsible and prepares the migration.
    const pending = moved('Succeeded');
    expect(shouldPrepareShootForMigration(pending)).toBe(true);
    expect(responsibleSeedName(pending)).toBe('local');
    expect(computeOperationType(pending)).toBe('Migrate');
    expect(decide(confirmed(pending, 'True'))).toEqual({ action: 'reconcile', operation: 'Migrate' });
    // A failed migrate attempt is retried by the source.
    expect(computeOperationType(moved('Error', 'Migrate'))).toBe('Migrate');
    // Migrate Succeeded moved status.seedName to the destination: its gardenlet restores.
    const migrated = moved('Succeeded', 'Migrate', 'other');
    expect(shouldPrepareShootForMigration(migrated)).toBe(false);
    expect(responsibleSeedName(migrated)).toBe('other');
    expect(computeOperationType(migrated)).toBe('Restore');
    expect(computeOperationType(moved('Aborted', 'Migrate', 'other'))).toBe('Restore');
    // An unfinished restore continues; a finished one is followed by regular reconciliations.
    expect(computeOperationType(moved('Error', 'Restore', 'other'))).toBe('Restore');
    expect(computeOperationType(moved('Succeeded', 'Restore', 'other'))).toBe('Reconcile');
  });

  it('migrates only once the controller-manager confirmed the destination with ReadyForMigration=True', () => {
    const pending = moved('Succeeded');
    const name = pending.metadata!.name;
    // No constraint yet: the source waits for the confirmation (Gardener's message), checking again after waitSyncPeriod.
    expect(decide(pending)).toEqual({
      action: 'requeue',
      operation: 'Migrate',
      after: config.waitSyncPeriod,
      reason: `waiting for confirmation that destination Seed is available to host the control plane of Shoot ${name}`,
    });
    // False: the constraint's message says why.
    expect(decide(confirmed(pending, 'False', 'observed generation outdated (1/2)'))).toEqual({
      action: 'requeue',
      operation: 'Migrate',
      after: config.waitSyncPeriod,
      reason: `destination Seed is not available to host the control plane of Shoot ${name}: observed generation outdated (1/2)`,
    });
    // The constraint decides, not the destination's own state (the source's gardenlet no longer reads it).
    expect(migrationNotConfirmedReason(confirmed(pending, 'True'))).toBeUndefined();
    // Without a pending migration the constraint plays no part: a restore or a regular reconcile runs as before.
    const migrated = moved('Succeeded', 'Migrate', 'other');
    expect(decide(migrated)).toEqual({ action: 'reconcile', operation: 'Restore' });
    expect(decide(confirmed(migrated, 'False'))).toEqual({ action: 'reconcile', operation: 'Restore' });
  });

  it('exactly one seed is responsible for a scheduled shoot, and it is one of spec/status (property)', () => {
    const seedName = fc.constantFrom('a', 'b', 'c');
    fc.assert(
      fc.property(seedName, fc.option(seedName, { nil: undefined }), (spec, status) => {
        const shoot = exampleShoot((s) => {
          s.spec.seedName = spec;
          s.status = status === undefined ? undefined : ({ seedName: status } as never);
        });
        const responsible = responsibleSeedName(shoot);
        expect([spec, status]).toContain(responsible);
        // The source acts exactly while a migration must be prepared.
        expect(shouldPrepareShootForMigration(shoot)).toBe(responsible !== spec);
      }),
    );
    expect(responsibleSeedName(exampleShoot((s) => (s.spec.seedName = undefined)))).toBe('');
  });
});

describe('sync rules', () => {
  it('creates a new shoot at once', () => {
    expect(decide(exampleShoot())).toEqual({ action: 'reconcile', operation: 'Create' });
  });

  it('reconciles a changed spec at once and waits out the sync period otherwise', () => {
    expect(decide(reconciledShoot(10 * 60_000, 'Succeeded', (s) => (s.metadata!.generation = 4)))).toEqual({
      action: 'reconcile',
      operation: 'Reconcile',
    });
    expect(decide(reconciledShoot(10 * 60_000))).toMatchObject({ action: 'requeue', after: 50 * 60_000 });
    expect(decide(reconciledShoot(2 * hour))).toEqual({ action: 'reconcile', operation: 'Reconcile' });
    expect(decide(reconciledShoot(10 * 60_000, 'Error'))).toEqual({ action: 'reconcile', operation: 'Reconcile' });
  });

  it('leaves a failed shoot alone until retry, but syncs its Cluster', () => {
    expect(decide(reconciledShoot(0, 'Failed'))).toMatchObject({ action: 'skip', syncClusterResource: true });
    const retried = reconciledShoot(
      0,
      'Failed',
      (s) => (s.metadata!.annotations = { 'gardener.cloud/operation': 'retry' }),
    );
    expect(decide(retried)).toEqual({ action: 'reconcile', operation: 'Reconcile' });
    const failedByOlderVersion = reconciledShoot(0, 'Failed', (s) => (s.status!.gardener.version = 'v1.129.0'));
    expect(decide(failedByOlderVersion).action).toBe('reconcile');
  });

  it('reconciles at once on gardener.cloud/operation=reconcile, also within the sync period or the maintenance window', () => {
    const annotated = (mutate?: (s: Shoot) => void) =>
      reconciledShoot(10 * 60_000, 'Succeeded', (s) => {
        s.metadata!.annotations = { 'gardener.cloud/operation': 'reconcile' };
        mutate?.(s);
      });
    expect(decide(annotated())).toEqual({ action: 'reconcile', operation: 'Reconcile' });
    expect(decide(annotated(), { reconcileInMaintenanceOnly: true })).toEqual({
      action: 'reconcile',
      operation: 'Reconcile',
    });
    // A failed shoot is not reconciled by `reconcile`: it needs `retry`.
    const failed = reconciledShoot(0, 'Failed', (s) => {
      s.metadata!.annotations = { 'gardener.cloud/operation': 'reconcile' };
    });
    expect(decide(failed)).toMatchObject({ action: 'skip' });
  });

  it('reconciles at once on a credentials rotation operation, also within the sync period or the maintenance window', () => {
    for (const operation of ['rotate-ca-start', 'rotate-credentials-complete', 'rotate-rollout-workers=pool-a']) {
      const annotated = reconciledShoot(10 * 60_000, 'Succeeded', (s) => {
        s.metadata!.annotations = { 'gardener.cloud/operation': operation };
      });
      expect(decide(annotated)).toEqual({ action: 'reconcile', operation: 'Reconcile' });
      expect(decide(annotated, { reconcileInMaintenanceOnly: true })).toEqual({
        action: 'reconcile',
        operation: 'Reconcile',
      });
    }
    // Another operation value is no request.
    const other = reconciledShoot(10 * 60_000, 'Succeeded', (s) => {
      s.metadata!.annotations = { 'gardener.cloud/operation': 'maintain' };
    });
    expect(decide(other)).toMatchObject({ action: 'requeue' });
  });

  it('reconciles at once while a rotation is left Completing (single-operation ETCD encryption key rotation)', () => {
    const completing = reconciledShoot(10 * 60_000, 'Succeeded', (s) => {
      s.status = {
        ...s.status!,
        credentials: {
          rotation: { etcdEncryptionKey: { phase: 'Completing', lastInitiationTime: '2026-01-01T00:00:00Z' } },
        },
      } as never;
    });
    expect(decide(completing)).toEqual({ action: 'reconcile', operation: 'Reconcile' });
  });

  it('honours the ignore and sync-period annotations only when respected', () => {
    const annotated = reconciledShoot(2 * hour, 'Succeeded', (s) => {
      s.metadata!.annotations = { 'shoot.gardener.cloud/ignore': 'true' };
    });
    expect(decide(annotated).action).toBe('reconcile');
    expect(decide(annotated, { respectSyncPeriodOverwrite: true })).toMatchObject({
      action: 'skip',
      syncClusterResource: true,
    });
    const inGarden = reconciledShoot(2 * hour, 'Succeeded', (s) => {
      s.metadata!.namespace = 'garden';
      s.metadata!.annotations = { 'shoot.gardener.cloud/sync-period': '3h' };
    });
    expect(decide(inGarden)).toMatchObject({ action: 'requeue', after: hour });
  });

  it('never syncs more often than the configured period (property)', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.constantFrom('garden', 'garden-local'),
        fc.option(fc.constantFrom('10m', '1h', '3h', 'x', '90m')),
        (respect, ns, annotation) => {
          const shoot = exampleShoot((s) => {
            s.metadata!.namespace = ns;
            if (annotation !== null) s.metadata!.annotations = { 'shoot.gardener.cloud/sync-period': annotation };
          });
          const period = syncPeriodOfShoot(shoot, { syncPeriod: hour, respectSyncPeriodOverwrite: respect });
          expect(period).toBeGreaterThanOrEqual(hour);
          const expected =
            (respect || ns === 'garden') && annotation === '3h'
              ? 3 * hour
              : (respect || ns === 'garden') && annotation === '90m'
                ? 1.5 * hour
                : hour;
          expect(period).toBe(expected);
        },
      ),
    );
  });

  it('waits for a seed that is not ready or not reconciled by this version', () => {
    const oldSeed = readySeed((s) => (s.status!.gardener!.version = 'v1.129.0'));
    expect(decide(exampleShoot(), {}, oldSeed)).toMatchObject({
      action: 'requeue',
      after: 15_000,
      reason: expect.stringMatching(/v1\.130\.0/),
    });
    const unready = readySeed((s) => (s.status!.conditions![0].status = 'False'));
    expect(decide(exampleShoot(), {}, unready)).toMatchObject({
      action: 'requeue',
      reason: expect.stringMatching(/GardenletReady/),
    });
    // Gardener's health.CheckSeed: SeedSystemComponentsHealthy must be there and True as well (Progressing waits).
    const progressing = readySeed((s) => (s.status!.conditions![1].status = 'Progressing'));
    expect(decide(exampleShoot(), {}, progressing)).toMatchObject({
      action: 'requeue',
      reason: expect.stringMatching(/"SeedSystemComponentsHealthy" has invalid status Progressing \(expected True\)/),
    });
    const unchecked = readySeed((s) => s.status!.conditions!.splice(1, 1));
    expect(decide(exampleShoot(), {}, unchecked)).toMatchObject({
      action: 'requeue',
      reason: expect.stringMatching(/"SeedSystemComponentsHealthy" is missing/),
    });
    const stopped = readySeed(
      (s) => (s.metadata!.annotations = { 'seed.gardener.cloud/emergency-stop-shoot-reconciliations': 'true' }),
    );
    expect(decide(exampleShoot(), {}, stopped)).toMatchObject({ action: 'skip', syncClusterResource: false });
  });

  it('confines regular reconciliations to the maintenance window', () => {
    // The example window is 22:00-23:00 UTC, effective until 22:45. `reconciledShoot` counts back from 12:00.
    const at = (time: string) => new Date(`2026-11-25T${time}Z`);
    const lastAt = (time: string) => now.getTime() - at(time).getTime();
    const inMaintenanceOnly = { reconcileInMaintenanceOnly: true };
    const outside = decide(reconciledShoot(lastAt('07:00:00')), inMaintenanceOnly, readySeed(), at('12:00:00'));
    expect(outside).toMatchObject({ action: 'requeue', after: 10 * hour + 0.5 * 45 * 60_000 });
    expect(decide(reconciledShoot(lastAt('07:00:00')), inMaintenanceOnly, readySeed(), at('22:10:00'))).toEqual({
      action: 'reconcile',
      operation: 'Reconcile',
    });
    const already = decide(reconciledShoot(lastAt('22:05:00')), inMaintenanceOnly, readySeed(), at('22:10:00'));
    expect(already).toMatchObject({ action: 'requeue' });
    expect((already as { after: number }).after).toBeGreaterThan(23 * hour);
    const confinedBySpec = reconciledShoot(
      lastAt('07:00:00'),
      'Succeeded',
      (s) => (s.spec.maintenance!.confineSpecUpdateRollout = true),
    );
    expect(decide(confinedBySpec, {}, readySeed(), at('22:50:00')).action).toBe('requeue');
    expect(decide(confinedBySpec, {}, readySeed(), at('22:30:00')).action).toBe('reconcile');
  });

  it('schedules a confined reconciliation into the next window (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 1, max: 6 }),
        fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2027-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (beginHour, hours, at, random) => {
          const pad = (h: number) => String(h % 24).padStart(2, '0');
          const window = effectiveMaintenanceWindow({
            begin: `${pad(beginHour)}0000+0000`,
            end: `${pad(beginHour + hours)}0000+0000`,
          });
          const after = randomDurationUntilNext(window, at, false, () => random);
          expect(after).toBeGreaterThan(0);
          expect(after).toBeLessThanOrEqual(24 * hour + hours * hour);
          expect(windowContains(window, new Date(at.getTime() + after))).toBe(true);
        },
      ),
    );
  });

  it('parses HHMMSS+ZZZZ into UTC minutes', () => {
    expect(parseWindowTime('220000+0100')).toBe(21 * 60);
    expect(parseWindowTime('003000-0100')).toBe(90);
    expect(parseWindowTime('25')).toBeUndefined();
  });

  it('a failed and up-to-date shoot is never reconciled, whatever else holds (property)', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.nat({ max: 48 * hour }), (inMaintenanceOnly, respect, ago) => {
        const shoot = reconciledShoot(ago, 'Failed');
        const decision = decide(shoot, {
          reconcileInMaintenanceOnly: inMaintenanceOnly,
          respectSyncPeriodOverwrite: respect,
        });
        expect(decision).toMatchObject({ action: 'skip', syncClusterResource: true });
      }),
    );
  });
});
