// The ManagedSeed controller's wiring: which ManagedSeeds belong to this seed, which of their events and which Seed
// events are reconciled, and the mapping of a Seed to its ManagedSeed.
import { describe, expect, it } from 'vitest';
import type { ObjectEvent } from '@gardener-ts/controller-runtime';
import { managedSeedChanged, managedSeedOf, managedSeedOfSeed, seedChanged } from './add.js';
import type { ManagedSeed, Seed, Shoot } from './kinds.js';

const ms = (metadata: Record<string, unknown> = {}, shoot = 'infra') =>
  ({
    metadata: { name: 'infra', namespace: 'garden', generation: 1, ...metadata },
    spec: { shoot: { name: shoot } },
  }) as unknown as ManagedSeed;
const shoots = (entries: Record<string, Partial<Shoot>>) => ({
  get: (key: string) => entries[key] as Shoot | undefined,
});
const update = <T>(oldObject: T, object: T) => ({ type: 'update', oldObject, object }) as unknown as ObjectEvent<any>;
const seed = (ready?: string, deletionTimestamp?: string) =>
  ({
    metadata: { name: 'infra', ...(deletionTimestamp ? { deletionTimestamp } : {}) },
    status: ready ? { conditions: [{ type: 'GardenletReady', status: ready }] } : {},
  }) as unknown as Seed;

describe('ManagedSeed controller wiring', () => {
  it('takes the ManagedSeeds whose shoot this seed is responsible for', () => {
    const store = shoots({
      'garden/infra': { spec: { seedName: 'local' } } as Partial<Shoot>,
      'garden/moving': { spec: { seedName: 'new' }, status: { seedName: 'local' } } as unknown as Partial<Shoot>,
      'garden/elsewhere': { spec: { seedName: 'other' } } as Partial<Shoot>,
    });
    expect(managedSeedOfSeed(ms(), store, 'local')).toBe(true);
    expect(managedSeedOfSeed(ms({}, 'moving'), store, 'local')).toBe(true);
    expect(managedSeedOfSeed(ms({}, 'elsewhere'), store, 'local')).toBe(false);
    expect(managedSeedOfSeed(ms({}, 'missing'), store, 'local')).toBe(false);
    expect(managedSeedOfSeed({ metadata: { name: 'x', namespace: 'garden' }, spec: {} } as never, store, 'local')).toBe(
      false,
    );
  });

  it('reconciles ManagedSeeds on creation, a new generation, the start of deletion and renew-kubeconfig', () => {
    expect(managedSeedChanged({ type: 'create', object: ms() } as ObjectEvent<ManagedSeed>)).toBe(true);
    expect(managedSeedChanged(update(ms(), ms({ generation: 2 })))).toBe(true);
    expect(managedSeedChanged(update(ms(), ms({ deletionTimestamp: '2026-11-30T12:00:00Z' })))).toBe(true);
    const renew = ms({ annotations: { 'gardener.cloud/operation': 'renew-kubeconfig' } });
    expect(managedSeedChanged(update(ms(), renew))).toBe(true);
    expect(managedSeedChanged(update(renew, renew))).toBe(false);
    expect(managedSeedChanged(update(ms(), ms({ labels: { a: 'b' } })))).toBe(false);
  });

  it("reconciles a Seed's ManagedSeed when the Seed comes, goes, starts deletion or its GardenletReady changes", () => {
    expect(seedChanged({ type: 'create', object: seed() } as ObjectEvent<Seed>)).toBe(true);
    expect(seedChanged({ type: 'delete', object: seed() } as ObjectEvent<Seed>)).toBe(true);
    expect(seedChanged(update(seed('Unknown'), seed('True')))).toBe(true);
    expect(seedChanged(update(seed('True'), seed('True', '2026-11-30T12:00:00Z')))).toBe(true);
    expect(seedChanged(update(seed('True'), seed('True')))).toBe(false);
  });

  it('maps a Seed to the ManagedSeed garden/<name> when it exists and is ours', () => {
    const store = shoots({ 'garden/infra': { spec: { seedName: 'local' } } as Partial<Shoot> });
    const managedSeeds = { get: (key: string) => (key === 'garden/infra' ? ms() : undefined) };
    expect(managedSeedOf(seed(), managedSeeds, store, 'local')).toEqual([{ namespace: 'garden', name: 'infra' }]);
    expect(managedSeedOf(seed(), managedSeeds, store, 'other')).toEqual([]);
    expect(managedSeedOf({ metadata: { name: 'local' } } as Seed, managedSeeds, store, 'local')).toEqual([]);
  });
});
