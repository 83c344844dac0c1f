// The Shoot reconciler's restore without a ShootState, on fakes: the Restore starts its retry cycle, fails as Error
// naming the missing ShootState, is retried, and turns Failed once controllers.shoot.retryDuration has passed (then
// the shoot is left alone, as Gardener leaves failed shoots).
import { describe, expect, it } from 'vitest';
import { ApiError, type Patch } from '@gardener-ts/controller-runtime';
import { exampleSeed, exampleShoot } from '../../component/testdata/fixtures.js';
import type { Shoot } from '../../shoot/kinds.js';
import { ShootReconciler } from './reconciler.js';

const version = 'v1.130.0';
const HOUR = 3600_000;
const condition = (type: string) => ({
  type,
  status: 'True',
  reason: 'r',
  message: 'm',
  lastTransitionTime: '',
  lastUpdateTime: '',
});

function setup() {
  const shoot: Shoot = exampleShoot((s) => {
    s.metadata = { ...s.metadata, uid: 'shoot-uid', generation: 1, finalizers: ['gardener'] };
    s.spec.seedName = 'local';
    s.status = {
      seedName: 'local',
      technicalID: 'shoot--local--local',
      lastOperation: {
        type: 'Migrate',
        state: 'Succeeded',
        progress: 100,
        description: 'Shoot cluster has been successfully prepared for migration.',
        lastUpdateTime: '2026-11-29T11:00:00Z',
      },
    } as never;
  });
  const seed = exampleSeed((s) => {
    s.metadata = { ...s.metadata, name: 'local', generation: 1 };
    s.status = {
      gardener: { id: 'x', name: 'gardenlet', version },
      observedGeneration: 1,
      conditions: [condition('GardenletReady'), condition('SeedSystemComponentsHealthy')],
    } as never;
  });
  let now = new Date('2026-11-29T12:00:00Z');
  const garden = {
    async get(kind: { kind: string }) {
      return structuredClone(kind.kind === 'Seed' ? seed : shoot);
    },
    async patch(_kind: unknown, _key: unknown, patch: Patch) {
      const status = (patch.patch as { status?: Record<string, unknown> }).status ?? {};
      shoot.status = { ...shoot.status, ...status } as never;
      return structuredClone(shoot);
    },
  };
  const gardenApi = {
    async get(kind: { kind: string }) {
      if (kind.kind === 'ShootState') throw new ApiError(404, 'NotFound', 'shootstates "local" not found');
      return { apiVersion: 'core.gardener.cloud/v1beta1', kind: kind.kind, metadata: { name: 'local' }, spec: {} };
    },
  };
  const reconciler = new ShootReconciler({
    garden: garden as never,
    gardenApi: gardenApi as never,
    // The seed only sees the Cluster resource synced for the failed shoot.
    seed: { patch: async (_k: unknown, _key: unknown, p: Patch) => p.patch, create: async (o: unknown) => o } as never,
    seedName: 'local',
    sync: { syncPeriod: HOUR, respectSyncPeriodOverwrite: false, reconcileInMaintenanceOnly: false, waitSyncPeriod: 1 },
    gardener: { id: 'x', name: 'gardenlet', version },
    retryDurationMs: 12 * HOUR,
    now: () => now,
  });
  const ctx = { log: { info: () => undefined, debug: () => undefined, error: () => undefined } } as never;
  return {
    shoot,
    advance: (ms: number) => (now = new Date(now.getTime() + ms)),
    reconcile: () => reconciler.reconcile({ namespace: 'garden-local', name: 'local' }, ctx),
  };
}

describe('ShootReconciler restoring without a ShootState', () => {
  it('retries the Restore as Error, then turns it Failed after the retry duration', async () => {
    const { shoot, advance, reconcile } = setup();
    expect(await reconcile()).toEqual({ requeueAfter: 1 });
    expect(shoot.status?.lastOperation).toMatchObject({ type: 'Restore', state: 'Error' });
    expect(shoot.status?.lastOperation?.description).toMatch(/Operation will be retried\.$/);
    expect(shoot.status?.lastErrors).toEqual([
      expect.objectContaining({
        taskID: 'restore',
        description:
          'ShootState garden-local/local not found: the control plane cannot be restored without the state the source seed persisted',
      }),
    ]);
    expect(shoot.status?.retryCycleStartTime).toBe('2026-11-29T12:00:00Z');

    advance(HOUR);
    await reconcile();
    expect(shoot.status?.lastOperation).toMatchObject({ type: 'Restore', state: 'Error' });

    advance(12 * HOUR);
    await reconcile();
    expect(shoot.status?.lastOperation).toMatchObject({ type: 'Restore', state: 'Failed' });
    expect(shoot.status?.lastOperation?.description).toMatch(/^ShootState garden-local\/local not found/);

    // A failed shoot is left alone (only its Cluster resource is synced).
    const failed = structuredClone(shoot.status);
    advance(HOUR);
    expect(await reconcile()).toBeUndefined();
    expect(shoot.status).toEqual(failed);
  });
});
