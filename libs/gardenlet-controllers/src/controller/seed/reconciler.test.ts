import { describe, expect, it } from 'vitest';
import type { KubernetesObject, Patch } from '@gardener-ts/controller-runtime';
import type { SeedSystem } from './flow.js';
import { SeedReconciler } from './reconciler.js';

type Obj = KubernetesObject & Record<string, any>;

function fakeGarden(seed: Obj) {
  const statuses: Record<string, any>[] = [];
  return {
    statuses,
    async get() {
      return structuredClone(seed);
    },
    async patch(_k: unknown, _key: unknown, patch: Patch) {
      const status = (patch.patch as { status: Record<string, unknown> }).status;
      statuses.push(structuredClone(status));
      seed.status = { ...seed.status, ...status };
      return seed;
    },
  };
}

function fakeSystem(overrides: Partial<SeedSystem> = {}) {
  const applied: string[] = [];
  const system: SeedSystem = {
    kubernetesVersion: async () => 'v1.35.0',
    apply: async (objects) => void applied.push(...objects.map((o) => `${o.kind}/${o.metadata!.name}`)),
    crds: async () => [
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'workers.extensions.gardener.cloud' },
      },
    ],
    checkEstablished: async () => undefined,
    resourceManager: async () => [
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'gardener-resource-manager' } },
    ],
    ...overrides,
  };
  return { system, applied };
}

const gardener = { id: 'abc', name: 'gardenlet-0', version: '1.2.3' };
const newSeed = (): Obj => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'Seed',
  metadata: { name: 'local', generation: 1 },
  spec: {},
});

describe('SeedReconciler', () => {
  it('sets Bootstrapped Progressing, runs the flow, then Bootstrapped True with the status', async () => {
    const garden = fakeGarden(newSeed());
    const { system, applied } = fakeSystem();
    const r = new SeedReconciler({
      garden: garden as never,
      system,
      gardener,
      resources: { capacity: { shoots: 200 } },
      syncPeriodMs: 3600_000,
    });
    expect(await r.reconcile({ namespace: '', name: 'local' })).toEqual({ requeueAfter: 3600_000 });
    expect(garden.statuses.map((s) => s.conditions[0].status)).toEqual(['Progressing', 'True']);
    expect(garden.statuses[1]).toMatchObject({
      conditions: [{ type: 'Bootstrapped', status: 'True', reason: 'BootstrappingSucceeded' }],
      gardener,
      kubernetesVersion: 'v1.35.0',
      observedGeneration: 1,
      capacity: { shoots: '200' },
      allocatable: { shoots: '200' },
    });
    expect(applied).toEqual(
      expect.arrayContaining([
        'Namespace/garden',
        'PriorityClass/gardener-system-critical',
        'CustomResourceDefinition/workers.extensions.gardener.cloud',
        'Deployment/gardener-resource-manager',
      ]),
    );
    // gardener-resource-manager comes after the CRDs are established.
    expect(applied.indexOf('Deployment/gardener-resource-manager')).toBeGreaterThan(
      applied.indexOf('CustomResourceDefinition/workers.extensions.gardener.cloud'),
    );

    // A periodic run of a bootstrapped seed does not flip it to Progressing.
    await r.reconcile({ namespace: '', name: 'local' });
    expect(garden.statuses.slice(2).map((s) => s.conditions[0].status)).toEqual(['True']);
  });

  it('sets Bootstrapped False with the failing task and retries with back-off', async () => {
    const garden = fakeGarden(newSeed());
    const { system, applied } = fakeSystem({ kubernetesVersion: async () => 'v1.28.4' });
    const r = new SeedReconciler({ garden: garden as never, system, gardener, syncPeriodMs: 1000 });
    await expect(r.reconcile({ namespace: '', name: 'local' })).rejects.toThrow(/reconciling Seed local/);
    const last = garden.statuses.at(-1)!;
    expect(last.conditions[0]).toMatchObject({ type: 'Bootstrapped', status: 'False', reason: 'BootstrappingFailed' });
    expect(last.conditions[0].message).toContain(
      'the Kubernetes version of the Seed cluster must be at least 1.30, but it is v1.28.4',
    );
    expect(last.kubernetesVersion).toBe('v1.28.4');
    expect(applied).toEqual([]);
  });

  it('leaves a Seed being deleted alone', async () => {
    const garden = fakeGarden({ ...newSeed(), metadata: { name: 'local', deletionTimestamp: '2026-01-01T00:00:00Z' } });
    const r = new SeedReconciler({ garden: garden as never, system: fakeSystem().system, gardener, syncPeriodMs: 1 });
    expect(await r.reconcile({ namespace: '', name: 'local' })).toBeUndefined();
    expect(garden.statuses).toEqual([]);
  });
});
