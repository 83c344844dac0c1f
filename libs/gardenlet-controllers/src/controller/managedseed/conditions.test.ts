// The ManagedSeed's status rules: a reconciled shoot, the responsible seed, a registered seed and the conditions
// ShootReconciled and SeedRegistered with their reasons and transition times.
import { describe, expect, it } from 'vitest';
import {
  responsibleSeedName,
  seedDeletingCondition,
  seedRegistered,
  seedRegisteredCondition,
  seedRegisteredError,
  shootReconciled,
  shootReconciledCondition,
} from './conditions.js';
import type { Seed, Shoot } from './kinds.js';

const clockAt = (iso: string) => ({ now: () => new Date(iso) });
const shoot = (generation: number, observed: number | undefined, state?: string) =>
  ({
    metadata: { name: 'infra', namespace: 'garden', generation },
    spec: { seedName: 'local' },
    status: { observedGeneration: observed, ...(state ? { lastOperation: { state } } : {}) },
  }) as unknown as Shoot;
const seed = (ready?: string) =>
  ({
    metadata: { name: 'infra' },
    status: ready ? { conditions: [{ type: 'GardenletReady', status: ready }] } : {},
  }) as unknown as Seed;

describe('ManagedSeed conditions', () => {
  it('calls a shoot reconciled when its generation is observed and its last operation succeeded', () => {
    expect(shootReconciled(shoot(2, 2, 'Succeeded'))).toBe(true);
    expect(shootReconciled(shoot(3, 2, 'Succeeded'))).toBe(false);
    expect(shootReconciled(shoot(2, 2, 'Processing'))).toBe(false);
    expect(shootReconciled(shoot(1, 1))).toBe(false);
  });

  it('finds the responsible seed: none without spec.seedName, status.seedName during a migration', () => {
    expect(responsibleSeedName({ spec: {} } as Shoot)).toBeUndefined();
    expect(responsibleSeedName({ spec: { seedName: 'b' } } as Shoot)).toBe('b');
    expect(responsibleSeedName({ spec: { seedName: 'b' }, status: { seedName: 'a' } } as unknown as Shoot)).toBe('a');
  });

  it('calls a seed registered when it exists with GardenletReady True', () => {
    expect(seedRegistered(seed('True'))).toBe(true);
    expect(seedRegistered(seed('Unknown'))).toBe(false);
    expect(seedRegistered(seed())).toBe(false);
    expect(seedRegistered(undefined)).toBe(false);
  });

  it('writes ShootReconciled, unchanged while nothing changes', () => {
    const waiting = shootReconciledCondition(undefined, shoot(1, 0), clockAt('2026-11-30T12:00:00Z'));
    expect(waiting).toEqual([
      expect.objectContaining({
        type: 'ShootReconciled',
        status: 'False',
        reason: 'Reconciling',
        message: 'Waiting for shoot "garden/infra" to be reconciled',
        lastTransitionTime: '2026-11-30T12:00:00Z',
      }),
    ]);
    const still = shootReconciledCondition(waiting, shoot(1, 0), clockAt('2026-11-30T12:05:00Z'));
    // Nothing changed: the condition is written as it was (no status churn every wait).
    expect(still).toEqual(waiting);
    const done = shootReconciledCondition(still, shoot(1, 1, 'Succeeded'), clockAt('2026-11-30T12:10:00Z'));
    expect(done[0]).toMatchObject({
      status: 'True',
      reason: 'Reconciled',
      message: 'Shoot "garden/infra" has been reconciled',
      lastTransitionTime: '2026-11-30T12:10:00Z',
    });
  });

  it('writes SeedRegistered while waiting for the Seed, once it is ready, on errors and while deleting', () => {
    const clock = clockAt('2026-11-30T12:00:00Z');
    const shootCondition = shootReconciledCondition(undefined, shoot(1, 1, 'Succeeded'), clock);
    const missing = seedRegisteredCondition(shootCondition, 'infra', undefined, clock);
    expect(missing.map((c) => c.type)).toEqual(['ShootReconciled', 'SeedRegistered']);
    expect(missing[1]).toMatchObject({
      status: 'False',
      reason: 'Reconciling',
      message: 'Waiting for seed infra to be registered by its gardenlet',
    });
    expect(seedRegisteredCondition(missing, 'infra', seed('False'), clock)[1]).toMatchObject({
      status: 'False',
      message: 'Waiting for the gardenlet of seed infra to be ready',
    });
    expect(seedRegisteredCondition(missing, 'infra', seed('True'), clock)[1]).toMatchObject({
      status: 'True',
      reason: 'Reconciled',
      message: 'Seed infra has been registered',
    });
    expect(seedRegisteredError(missing, 'ReconcileError', 'boom', clock)[1]).toMatchObject({
      status: 'False',
      reason: 'ReconcileError',
      message: 'boom',
    });
    expect(seedDeletingCondition(missing, 'Unregistering seed infra', false, clock)[1]).toMatchObject({
      reason: 'Deleting',
      message: 'Unregistering seed infra',
    });
    expect(seedDeletingCondition(missing, 'done', true, clock)[1]).toMatchObject({
      status: 'False',
      reason: 'Deleted',
    });
  });
});
