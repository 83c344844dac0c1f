import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Seed, Shoot } from '@gardener-ts/api';
import type { Condition, WallClock } from '@gardener-ts/controller-runtime';
import { FakeGarden } from '../testing/fake-garden.js';
import { silentContext } from '../../../test/support/csr.js';
import { localSeed, localShoot } from '../../../test/support/examples.js';
import { requiresConstraintRemoval, shootPredicate } from './add.js';
import { checkSeedForMigration, migrationDecision, shouldPrepareShootForMigration } from './readiness.js';
import { ShootMigrationReconciler } from './reconciler.js';

const clock: WallClock = { now: () => new Date('2026-01-01T00:00:00Z') };
const condition = (type: string, status: string, reason = 'R', message = 'm'): Condition =>
  ({ type, status, reason, message, lastTransitionTime: 'x', lastUpdateTime: 'x' }) as Condition;

const readySeed = (name: string, version = '1.100.0'): Seed => {
  const seed = localSeed(name);
  seed.metadata!.generation = 2;
  seed.status = {
    gardener: { id: 'id', name: 'gardenlet', version },
    observedGeneration: 2,
    conditions: [condition('GardenletReady', 'True'), condition('SeedSystemComponentsHealthy', 'True')],
  } as Seed['status'];
  return seed;
};

const migrating = (constraints?: Condition[], lastOperationType?: string): Shoot => {
  const shoot = localShoot('a', 'destination');
  shoot.metadata!.resourceVersion = '7';
  shoot.status = {
    seedName: 'source',
    ...(constraints ? { constraints } : {}),
    ...(lastOperationType ? { lastOperation: { type: lastOperationType, state: 'Processing' } } : {}),
  } as Shoot['status'];
  return shoot;
};

describe('checkSeedForMigration (Gardener’s health.CheckSeedForMigration)', () => {
  const source = { version: '1.100.0' };
  it('accepts an up-to-date seed with both conditions True', () => {
    expect(checkSeedForMigration(readySeed('d'), source)).toBeUndefined();
  });

  it('names what is wrong, in Gardener’s order and words', () => {
    const noVersion = readySeed('d');
    delete noVersion.status!.gardener;
    expect(checkSeedForMigration(noVersion, source)).toBe(
      'missing Gardener version information on source or destination seed',
    );
    expect(checkSeedForMigration(readySeed('d'), undefined)).toBe(
      'missing Gardener version information on source or destination seed',
    );
    expect(checkSeedForMigration(readySeed('d', '1.99.0'), source)).toBe(
      'observing Gardener version not up to date (1.99.0/1.100.0)',
    );
    const outdated = readySeed('d');
    outdated.metadata!.generation = 3;
    expect(checkSeedForMigration(outdated, source)).toBe('observed generation outdated (2/3)');
    const unhealthy = readySeed('d');
    unhealthy.status!.conditions = [
      condition('GardenletReady', 'False', 'Down', 'gardenlet is down'),
      condition('SeedSystemComponentsHealthy', 'True'),
    ];
    expect(checkSeedForMigration(unhealthy, source)).toBe(
      'condition "GardenletReady" has invalid status False (expected True) due to Down: gardenlet is down',
    );
    // A missing condition wins over a False one, as Gardener checks presence first.
    unhealthy.status!.conditions = [condition('GardenletReady', 'False')];
    expect(checkSeedForMigration(unhealthy, source)).toBe('condition "SeedSystemComponentsHealthy" is missing');
  });
});

describe('migrationDecision', () => {
  it('removes the constraint of a shoot that is not to be migrated', () => {
    const s = localShoot('a', 'source');
    s.status = { seedName: 'source' } as Shoot['status'];
    expect(migrationDecision(s, readySeed('source'), readySeed('source'), clock)).toEqual({ action: 'remove' });
  });

  it('sets True for a ready destination, False with the check’s message for an unready one, False for a deleted one', () => {
    const ready = migrationDecision(migrating(), readySeed('source'), readySeed('destination'), clock);
    expect(ready).toMatchObject({ action: 'set', status: 'True', reason: 'DestinationSeedReady', requeue: false });
    expect(ready.action === 'set' && ready.constraints).toEqual([
      {
        type: 'ReadyForMigration',
        status: 'True',
        reason: 'DestinationSeedReady',
        message: 'Destination seed cluster is ready for the shoot migration',
        lastTransitionTime: '2026-01-01T00:00:00Z',
        lastUpdateTime: '2026-01-01T00:00:00Z',
      },
    ]);

    const unready = migrationDecision(migrating(), readySeed('source'), readySeed('destination', '1.0.0'), clock);
    expect(unready).toMatchObject({
      status: 'False',
      reason: 'DestinationSeedUnready',
      message: 'observing Gardener version not up to date (1.0.0/1.100.0)',
      requeue: true,
    });

    const deleted = readySeed('destination');
    deleted.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z';
    expect(migrationDecision(migrating(), readySeed('source'), deleted, clock)).toMatchObject({
      status: 'False',
      reason: 'DestinationSeedInDeletion',
      message: 'Seed is being deleted',
      requeue: false,
    });
  });

  it('does not rewrite a constraint that has the status already, and keeps polling while not True-written-now', () => {
    const shoot = migrating([condition('ReadyForMigration', 'True', 'DestinationSeedReady', 'old')]);
    const d = migrationDecision(shoot, readySeed('source'), readySeed('destination'), clock);
    expect(d).toMatchObject({ action: 'set', requeue: true });
    expect(d.action === 'set' && d.constraints).toBeUndefined();
  });

  it('property: other constraints are kept and exactly one ReadyForMigration results', () => {
    const types = fc.constantFrom('HibernationPossible', 'MaintenancePreconditionsSatisfied', 'ReadyForMigration');
    const status = fc.constantFrom('True', 'False', 'Unknown');
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(types, status), { selector: ([t]) => t }),
        fc.boolean(),
        (existing, ready) => {
          const shoot = migrating(existing.map(([t, s]) => condition(t, s)));
          const destination = ready ? readySeed('destination') : readySeed('destination', '0.1.0');
          const d = migrationDecision(shoot, readySeed('source'), destination, clock);
          if (d.action !== 'set') return false;
          const wanted = ready ? 'True' : 'False';
          const old = existing.find(([t]) => t === 'ReadyForMigration');
          if (old?.[1] === wanted) return d.constraints === undefined;
          const c = d.constraints!;
          return (
            c.filter((x) => x.type === 'ReadyForMigration').length === 1 &&
            c.find((x) => x.type === 'ReadyForMigration')!.status === wanted &&
            existing
              .filter(([t]) => t !== 'ReadyForMigration')
              .every(([t, s]) => c.some((x) => x.type === t && x.status === s))
          );
        },
      ),
    );
  });
});

describe('shoot migration predicate', () => {
  it('reacts to shoots to be migrated, seed name changes and constraints left after the migration', () => {
    expect(shootPredicate({ type: 'create', object: migrating() })).toBe(true);
    const settled = localShoot('a', 'source');
    settled.status = { seedName: 'source' } as Shoot['status'];
    expect(shootPredicate({ type: 'create', object: settled })).toBe(false);
    const moved = structuredClone(settled);
    moved.spec.seedName = 'destination';
    expect(shootPredicate({ type: 'update', oldObject: settled, object: moved })).toBe(true);
    expect(shootPredicate({ type: 'update', oldObject: moved, object: moved })).toBe(false);
    // The restore after the hand-over still carries the constraint: it is to be removed.
    const restoring = localShoot('a', 'destination');
    restoring.status = {
      seedName: 'destination',
      constraints: [condition('ReadyForMigration', 'True')],
      lastOperation: { type: 'Restore', state: 'Processing' },
    } as Shoot['status'];
    expect(requiresConstraintRemoval(restoring)).toBe(true);
    expect(shootPredicate({ type: 'update', oldObject: restoring, object: restoring })).toBe(true);
    // While the migration runs it is kept.
    const running = migrating([condition('ReadyForMigration', 'True')], 'Migrate');
    expect(requiresConstraintRemoval(running)).toBe(false);
    expect(shootPredicate({ type: 'delete', object: running })).toBe(false);
    expect(shouldPrepareShootForMigration(running)).toBe(true);
  });
});

describe('ShootMigrationReconciler', () => {
  const key = { namespace: 'garden-local', name: 'a' };
  const setup = (shoot: Shoot, destination: Seed = readySeed('destination')) => {
    const client = new FakeGarden(shoot, readySeed('source'), destination);
    return { client, r: new ShootMigrationReconciler({ client, clock }) };
  };
  const constraintOf = (client: FakeGarden) =>
    client
      .find<Shoot>('Shoot', key.namespace, key.name)!
      .status?.constraints?.find((c) => c.type === 'ReadyForMigration');

  it('sets ReadyForMigration True for a ready destination, guarded by the resourceVersion', async () => {
    const { client, r } = setup(migrating());
    expect(await r.reconcile(key, silentContext())).toBeUndefined();
    expect(constraintOf(client)).toMatchObject({ status: 'True', reason: 'DestinationSeedReady' });
    expect(client.writes).toEqual(['patch/status Shoot garden-local/a']);
    // Already True: nothing written, checked again in 5 s.
    expect(await r.reconcile(key, silentContext())).toEqual({ requeueAfter: 5_000 });
    expect(client.writes).toHaveLength(1);
  });

  it('sets False while the destination is unready and polls, then True once it is ready', async () => {
    const destination = readySeed('destination');
    destination.status!.conditions = [condition('GardenletReady', 'Unknown', 'SeedStatusUnknown', 'stopped')];
    const { client, r } = setup(migrating(), destination);
    expect(await r.reconcile(key, silentContext())).toEqual({ requeueAfter: 5_000 });
    expect(constraintOf(client)).toMatchObject({
      status: 'False',
      reason: 'DestinationSeedUnready',
      message: 'condition "SeedSystemComponentsHealthy" is missing',
    });
    client.put(readySeed('destination'));
    await r.reconcile(key, silentContext());
    expect(constraintOf(client)).toMatchObject({ status: 'True' });
  });

  it('removes the constraint once the shoot is no longer to be migrated, and fails naming a missing seed', async () => {
    const done = localShoot('a', 'destination');
    done.status = { seedName: 'destination', constraints: [condition('ReadyForMigration', 'True')] } as Shoot['status'];
    const { client, r } = setup(done);
    await r.reconcile(key, silentContext());
    expect(constraintOf(client)).toBeUndefined();

    const orphan = new FakeGarden(migrating(), readySeed('source'));
    await expect(
      new ShootMigrationReconciler({ client: orphan, clock }).reconcile(key, silentContext()),
    ).rejects.toThrow('failed reading destination seed destination');
  });

  it('is done for a shoot that is gone', async () => {
    const r = new ShootMigrationReconciler({ client: new FakeGarden(), clock });
    expect(await r.reconcile(key, silentContext())).toBeUndefined();
  });
});
