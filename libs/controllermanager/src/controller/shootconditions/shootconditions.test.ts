import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Seed, Shoot } from '@gardener-ts/api';
import type { Condition } from '@gardener-ts/controller-runtime';
import { silentContext } from '../../../test/support/csr.js';
import { localSeed, localShoot } from '../../../test/support/examples.js';
import type { ManagedSeed } from '../../kinds.js';
import { FakeGarden } from '../testing/fake-garden.js';
import { mapSeedToShoot, seedConditionsChanged, shootCreated } from './add.js';
import { managedSeedOfShoot, ShootConditionTypes, shootConditionsWithSeed } from './conditions.js';
import { ShootConditionsReconciler } from './reconciler.js';

const condition = (type: string, status = 'True', message = 'm'): Condition =>
  ({ type, status, reason: 'R', message, lastTransitionTime: 't', lastUpdateTime: 't' }) as Condition;

const managedSeed = (name: string, shootName: string | undefined, namespace = 'garden'): ManagedSeed =>
  ({
    apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
    kind: 'ManagedSeed',
    metadata: { name, namespace },
    spec: { ...(shootName ? { shoot: { name: shootName } } : {}), gardenlet: {} },
  }) as ManagedSeed;

const seedWith = (name: string, conditions: Condition[]): Seed => {
  const seed = localSeed(name);
  seed.status = { conditions } as Seed['status'];
  return seed;
};

const shootWith = (name: string, conditions: Condition[], namespace = 'garden'): Shoot => {
  const shoot = localShoot(name, 'local', namespace);
  shoot.status = { conditions } as Shoot['status'];
  return shoot;
};

describe('shootConditionsWithSeed', () => {
  it('keeps the shoot’s own conditions in place, replaces stale seed conditions and appends new ones', () => {
    const own = [condition('APIServerAvailable'), condition('EveryNodeReady', 'False')];
    const stale = [condition('GardenletReady', 'False', 'old'), condition('ExtensionsReady')];
    const result = shootConditionsWithSeed([...own, ...stale], [condition('GardenletReady', 'True', 'new')]);
    expect(result.map((c) => [c.type, c.status, c.message])).toEqual([
      ['APIServerAvailable', 'True', 'm'],
      ['EveryNodeReady', 'False', 'm'],
      ['GardenletReady', 'True', 'new'],
    ]);
    // Not registered (any more): only the shoot's own remain.
    expect(shootConditionsWithSeed([...own, ...stale], undefined)).toEqual(own);
  });

  it('property: the result is the shoot’s own conditions followed by exactly the seed’s, and applying it twice changes nothing', () => {
    const ownType = fc.constantFrom(...ShootConditionTypes);
    const seedType = fc.constantFrom(
      'GardenletReady',
      'BackupBucketsReady',
      'ExtensionsReady',
      'SeedSystemComponentsHealthy',
    );
    const status = fc.constantFrom('True', 'False', 'Unknown');
    const list = (type: fc.Arbitrary<string>) =>
      fc.uniqueArray(fc.tuple(type, status), { selector: ([t]) => t }).map((xs) => xs.map(([t, s]) => condition(t, s)));
    fc.assert(
      fc.property(list(ownType), list(seedType), list(seedType), (own, stale, seed) => {
        const result = shootConditionsWithSeed([...own, ...stale], seed);
        expect(result.slice(0, own.length)).toEqual(own);
        expect([...result.slice(own.length)].sort((a, b) => a.type.localeCompare(b.type))).toEqual(
          [...seed].sort((a, b) => a.type.localeCompare(b.type)),
        );
        expect(shootConditionsWithSeed(result, seed)).toEqual(result);
      }),
    );
  });
});

describe('managedSeedOfShoot', () => {
  it('finds the ManagedSeed of the shoot in its namespace, none, or fails for two', () => {
    const items = [managedSeed('a', 'shoot-a'), managedSeed('b', 'shoot-b'), managedSeed('c', 'shoot-a', 'other')];
    expect(managedSeedOfShoot(items, 'garden', 'shoot-a')?.metadata?.name).toBe('a');
    expect(managedSeedOfShoot(items, 'garden', 'shoot-x')).toBeUndefined();
    expect(() => managedSeedOfShoot([...items, managedSeed('d', 'shoot-b')], 'garden', 'shoot-b')).toThrow(
      'found more than one ManagedSeed objects for shoot garden/shoot-b',
    );
  });
});

describe('shoot conditions triggers', () => {
  it('maps a seed to the shoot of its ManagedSeed in garden, only when both exist', () => {
    const managedSeeds = new Map([
      ['garden/infra', managedSeed('infra', 'infra-shoot')],
      ['garden/no-shoot', managedSeed('no-shoot', undefined)],
      ['garden/dangling', managedSeed('dangling', 'gone')],
    ]);
    const map = mapSeedToShoot(
      (k) => managedSeeds.get(k),
      (k) => k === 'garden/infra-shoot',
    );
    expect(map(localSeed('infra'))).toEqual([{ namespace: 'garden', name: 'infra-shoot' }]);
    expect(map(localSeed('no-shoot'))).toEqual([]);
    expect(map(localSeed('dangling'))).toEqual([]);
    expect(map(localSeed('unmanaged'))).toEqual([]);
  });

  it('passes seed creations, deletions, condition changes and resyncs; shoots only on creation', () => {
    const a = seedWith('s', [condition('GardenletReady')]);
    a.metadata!.resourceVersion = '1';
    const b = { ...structuredClone(a), metadata: { ...a.metadata, resourceVersion: '2' } };
    expect(seedConditionsChanged({ type: 'create', object: a })).toBe(true);
    expect(seedConditionsChanged({ type: 'delete', object: a })).toBe(true);
    expect(seedConditionsChanged({ type: 'update', oldObject: a, object: b })).toBe(false);
    expect(seedConditionsChanged({ type: 'update', oldObject: a, object: a })).toBe(true);
    const changed = seedWith('s', [condition('GardenletReady', 'Unknown')]);
    changed.metadata!.resourceVersion = '3';
    expect(seedConditionsChanged({ type: 'update', oldObject: a, object: changed })).toBe(true);
    expect(shootCreated({ type: 'create', object: shootWith('x', []) })).toBe(true);
    expect(shootCreated({ type: 'update', oldObject: shootWith('x', []), object: shootWith('x', []) })).toBe(false);
  });
});

describe('ShootConditionsReconciler', () => {
  const key = { namespace: 'garden', name: 'infra-shoot' };
  const stored = (g: FakeGarden) => g.find<Shoot>('Shoot', 'garden', 'infra-shoot')!.status!.conditions as Condition[];

  it('copies the seed’s conditions to the shoot of its ManagedSeed, and writes nothing when in step', async () => {
    const garden = new FakeGarden(
      shootWith('infra-shoot', [condition('APIServerAvailable')]),
      managedSeed('infra', 'infra-shoot'),
      seedWith('infra', [condition('GardenletReady'), condition('BackupBucketsReady', 'False')]),
    );
    const r = new ShootConditionsReconciler({ client: garden });
    await r.reconcile(key, silentContext());
    expect(stored(garden).map((c) => `${c.type}=${c.status}`)).toEqual([
      'APIServerAvailable=True',
      'GardenletReady=True',
      'BackupBucketsReady=False',
    ]);
    expect(garden.writes).toEqual(['patch/status Shoot garden/infra-shoot']);
    await r.reconcile(key, silentContext());
    expect(garden.writes).toHaveLength(1);
  });

  it('removes the seed’s conditions once the ManagedSeed or the Seed is gone', async () => {
    const garden = new FakeGarden(
      shootWith('infra-shoot', [condition('APIServerAvailable'), condition('GardenletReady')]),
      managedSeed('infra', 'infra-shoot'),
    );
    await new ShootConditionsReconciler({ client: garden }).reconcile(key, silentContext());
    expect(stored(garden).map((c) => c.type)).toEqual(['APIServerAvailable']);
  });

  it('fails naming the shoot when two ManagedSeeds register it; is done for a shoot that is gone', async () => {
    const garden = new FakeGarden(
      shootWith('infra-shoot', []),
      managedSeed('a', 'infra-shoot'),
      managedSeed('b', 'infra-shoot'),
    );
    const r = new ShootConditionsReconciler({ client: garden });
    await expect(r.reconcile(key, silentContext())).rejects.toThrow('garden/infra-shoot');
    expect(await r.reconcile({ namespace: 'garden', name: 'gone' }, silentContext())).toBeUndefined();
  });
});
