// The Shoot reconciler's start of a credentials rotation, on fakes: the operation annotation is recorded in
// `status.credentials.rotation` together with the start status, then removed from the Shoot (as Gardener does);
// another operation value is left for the end of the flow. The garden fakes stop the reconcile right after the start
// (listing the ControllerRegistrations fails), before the flow would need a seed.
import { describe, expect, it } from 'vitest';
import { applyMergePatch, type Patch } from '@gardener-ts/controller-runtime';
import { exampleCloudProfile, exampleSeed, exampleShoot } from '../../component/testdata/fixtures.js';
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

function setup(operation: string, rotation?: object) {
  const shoot: Shoot = exampleShoot((s) => {
    s.metadata = {
      ...s.metadata,
      uid: 'shoot-uid',
      generation: 1,
      finalizers: ['gardener'],
      annotations: { 'gardener.cloud/operation': operation },
    };
    s.status = {
      seedName: 'local',
      technicalID: 'shoot--local--local',
      observedGeneration: 1,
      lastOperation: {
        type: 'Reconcile',
        state: 'Succeeded',
        progress: 100,
        description: 'Shoot cluster has been successfully reconciled.',
        lastUpdateTime: '2026-11-29T11:55:00Z',
      },
      ...(rotation ? { credentials: { rotation } } : {}),
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
  const patches: { subresource?: string; patch: unknown }[] = [];
  let current = shoot;
  const garden = {
    async get(kind: { kind: string }) {
      return structuredClone(kind.kind === 'Seed' ? seed : current);
    },
    async patch(_kind: unknown, _key: unknown, patch: Patch, options?: { subresource?: string }) {
      patches.push({ subresource: options?.subresource, patch: patch.patch });
      const body = patch.patch as { status?: object; metadata?: object };
      current = (
        options?.subresource === 'status'
          ? { ...current, status: applyMergePatch(current.status, body.status ?? {}) }
          : applyMergePatch(current, { metadata: { ...body.metadata, resourceVersion: undefined } })
      ) as Shoot;
      return structuredClone(current);
    },
  };
  const gardenApi = {
    async get() {
      return exampleCloudProfile();
    },
    async list() {
      throw new Error('stop after the start');
    },
  };
  const reconciler = new ShootReconciler({
    garden: garden as never,
    gardenApi: gardenApi as never,
    seed: {} as never,
    seedName: 'local',
    sync: { syncPeriod: HOUR, respectSyncPeriodOverwrite: false, reconcileInMaintenanceOnly: false, waitSyncPeriod: 1 },
    gardener: { id: 'x', name: 'gardenlet', version },
    retryDurationMs: 12 * HOUR,
    now: () => new Date('2026-11-29T12:00:00Z'),
  });
  const ctx = { log: { info: () => undefined, debug: () => undefined, error: () => undefined } } as never;
  return {
    shoot: () => current,
    patches,
    reconcile: () => reconciler.reconcile({ namespace: 'garden-local', name: 'local' }, ctx),
  };
}

describe('ShootReconciler starting a credentials rotation', () => {
  it('writes the rotation start with the start status, then removes the operation annotation', async () => {
    const { shoot, patches, reconcile } = setup('rotate-ca-start');
    await expect(reconcile()).rejects.toThrow('stop after the start');
    expect(shoot().status?.credentials?.rotation?.certificateAuthorities).toEqual({
      phase: 'Preparing',
      lastInitiationTime: '2026-11-29T12:00:00Z',
    });
    expect(shoot().status?.lastOperation).toMatchObject({ type: 'Reconcile', state: 'Processing' });
    expect(shoot().metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
    // One status patch carries both; the annotation goes after it.
    expect(patches[0]).toMatchObject({
      subresource: 'status',
      patch: { status: { lastOperation: { state: 'Processing' }, credentials: { rotation: {} } } },
    });
    expect(patches[1]).toMatchObject({ patch: { metadata: { annotations: { 'gardener.cloud/operation': null } } } });
  });

  it('completes a Prepared rotation: Completing with its trigger time', async () => {
    const { shoot, reconcile } = setup('rotate-ca-complete', {
      certificateAuthorities: {
        phase: 'Prepared',
        lastInitiationTime: '2026-11-29T10:00:00Z',
        lastInitiationFinishedTime: '2026-11-29T10:05:00Z',
      },
    });
    await expect(reconcile()).rejects.toThrow('stop after the start');
    expect(shoot().status?.credentials?.rotation?.certificateAuthorities).toEqual({
      phase: 'Completing',
      lastInitiationTime: '2026-11-29T10:00:00Z',
      lastInitiationFinishedTime: '2026-11-29T10:05:00Z',
      lastCompletionTriggeredTime: '2026-11-29T12:00:00Z',
    });
    expect(shoot().metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
  });

  it('leaves another operation annotation for the end of the flow and writes no rotation', async () => {
    const { shoot, patches, reconcile } = setup('reconcile');
    await expect(reconcile()).rejects.toThrow('stop after the start');
    expect(shoot().metadata?.annotations?.['gardener.cloud/operation']).toBe('reconcile');
    expect(shoot().status?.credentials).toBeUndefined();
    expect(patches.every((p) => p.subresource === 'status')).toBe(true);
  });
});
