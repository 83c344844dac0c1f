import { describe, expect, it } from 'vitest';
import type { KubernetesObject, Patch } from '@gardener-ts/controller-runtime';
import type { SeedSystem } from './flow.js';
import { SeedReconciler } from './reconciler.js';

type Obj = KubernetesObject & Record<string, any>;

function fakeGarden(seed: Obj, lists: Record<string, Obj[]> = {}) {
  const statuses: Record<string, any>[] = [];
  const calls: string[] = [];
  return {
    statuses,
    calls,
    seed,
    lists,
    async get() {
      return structuredClone(seed);
    },
    async list(k: { kind: string }) {
      return { items: structuredClone(lists[k.kind] ?? []) };
    },
    async delete(k: { kind: string }, key: { name: string }) {
      calls.push(`delete ${k.kind}/${key.name}`);
      lists[k.kind] = (lists[k.kind] ?? []).filter((o) => o.metadata?.name !== key.name);
    },
    async patch(_k: unknown, _key: unknown, patch: Patch) {
      const body = patch.patch as { status?: Record<string, unknown>; metadata?: { finalizers?: string[] } };
      if (body.metadata?.finalizers) {
        calls.push(`finalizers ${body.metadata.finalizers.join(',')}`);
        seed.metadata = { ...seed.metadata, finalizers: body.metadata.finalizers };
      }
      if (body.status) {
        statuses.push(structuredClone(body.status));
        seed.status = { ...seed.status, ...body.status };
      }
      return structuredClone(seed);
    },
  };
}

function fakeSystem(overrides: Partial<SeedSystem> = {}) {
  const applied: string[] = [];
  const deleted: string[] = [];
  const system: SeedSystem = {
    isGarden: async () => false,
    delete: async (objects) => void deleted.push(...objects.map((o) => `${o.kind}/${o.metadata!.name}`)),
    checkGone: async () => undefined,
    seedManagedResources: async () => [],
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
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'gardener-resource-manager' } },
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'gardener-resource-manager' } },
    ],
    ...overrides,
  };
  return { system, applied, deleted };
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
    // The finalizer that lets the gardenlet clean up the seed before the Seed goes.
    expect(garden.seed.metadata!.finalizers).toEqual(['gardener']);
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
});

describe('SeedReconciler deleting the Seed', () => {
  const crd = (name: string, group: string): Obj => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: { group },
  });
  const crds = [
    crd('machines.machine.sapcloud.io', 'machine.sapcloud.io'),
    crd('workers.extensions.gardener.cloud', 'extensions.gardener.cloud'),
    crd('etcds.druid.gardener.cloud', 'druid.gardener.cloud'),
    crd('managedresources.resources.gardener.cloud', 'resources.gardener.cloud'),
  ];
  const deletedSeed = (spec: Record<string, unknown> = {}): Obj => ({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Seed',
    metadata: {
      name: 'local',
      uid: 'seed-uid',
      generation: 2,
      resourceVersion: '7',
      finalizers: ['gardener'],
      deletionTimestamp: '2026-01-01T00:00:00Z',
    },
    spec,
  });
  const shoot = (name: string, spec: string | undefined, status?: string): Obj => ({
    metadata: { namespace: 'garden-dev', name },
    spec: { seedName: spec },
    ...(status ? { status: { seedName: status } } : {}),
  });
  function setup(seed: Obj, lists: Record<string, Obj[]> = {}, overrides: Partial<SeedSystem> = {}) {
    const garden = fakeGarden(seed, lists);
    const { system, deleted } = fakeSystem({ crds: async () => crds, ...overrides });
    const events: string[] = [];
    const r = new SeedReconciler({
      garden: garden as never,
      system,
      gardener,
      syncPeriodMs: 1,
      deleteWaitTimeoutMs: 50,
      events: { event: (_o, type, reason, message) => void events.push(`${type} ${reason} ${message}`) },
    });
    return { garden, deleted, events, reconcile: () => r.reconcile({ namespace: '', name: 'local' }) };
  }

  it('leaves a Seed without its finalizer alone', async () => {
    const seed = deletedSeed();
    seed.metadata!.finalizers = [];
    const { garden, deleted, reconcile } = setup(seed);
    expect(await reconcile()).toBeUndefined();
    expect(garden.statuses).toEqual([]);
    expect(deleted).toEqual([]);
  });

  it('waits while Shoots are scheduled on or still run on the seed, naming them in an Event', async () => {
    const { garden, deleted, events, reconcile } = setup(deletedSeed(), {
      Shoot: [shoot('a', 'local'), shoot('b', 'other', 'local'), shoot('c', 'other', 'other'), shoot('d', undefined)],
    });
    expect(await reconcile()).toEqual({ requeueAfter: 60_000 });
    expect(events).toEqual([
      "Normal ResourceReferenced Can't delete Seed, because the following objects are still referencing it: Shoots=[garden-dev/a garden-dev/b]",
    ]);
    expect(garden.statuses.at(-1)!.lastOperation).toMatchObject({
      type: 'Delete',
      state: 'Processing',
      description: 'Deletion of Seed cluster in progress.',
    });
    expect(deleted).toEqual([]);
    expect(garden.calls).toEqual([]);
    expect(garden.seed.metadata!.finalizers).toEqual(['gardener']);
  });

  it("deletes the seed's own BackupBucket and waits while BackupBuckets are bound to it", async () => {
    const { garden, deleted, events, reconcile } = setup(deletedSeed({ backup: { provider: 'local' } }), {
      BackupBucket: [
        { metadata: { name: 'seed-uid' }, spec: { seedName: 'local' } },
        { metadata: { name: 'other' }, spec: { seedName: 'local' } },
        { metadata: { name: 'elsewhere' }, spec: { seedName: 'other' } },
      ],
    });
    expect(await reconcile()).toEqual({ requeueAfter: 5_000 });
    expect(garden.calls).toEqual(['delete BackupBucket/seed-uid']);
    expect(events).toEqual([
      "Normal ResourceReferenced Can't delete Seed, because the following objects are still referencing it: BackupBuckets=[other]",
    ]);
    expect(deleted).toEqual([]);
    expect(garden.seed.metadata!.finalizers).toEqual(['gardener']);
  });

  it('fails naming the ControllerInstallations left, before deleting anything in the seed', async () => {
    const { garden, deleted, reconcile } = setup(deletedSeed(), {
      ControllerInstallation: [
        { metadata: { name: 'provider-local-x' }, spec: { seedRef: { name: 'local' } } },
        { metadata: { name: 'elsewhere' }, spec: { seedRef: { name: 'other' } } },
      ],
    });
    await expect(reconcile()).rejects.toThrow(/deleting Seed local/);
    expect(garden.statuses.at(-1)!.lastOperation).toMatchObject({ type: 'Delete', state: 'Error' });
    expect(garden.statuses.at(-1)!.lastOperation.description).toContain(
      "can't continue with Seed deletion, because the following objects are still referencing it: ControllerInstallations=[provider-local-x] Operation will be retried.",
    );
    expect(deleted).toEqual([]);
    expect(garden.seed.metadata!.finalizers).toEqual(['gardener']);
  });

  it('deletes the CRDs, then the PriorityClasses, then gardener-resource-manager, then removes the finalizer', async () => {
    const { garden, deleted, reconcile } = setup(deletedSeed(), { Shoot: [shoot('c', 'other')] });
    expect(await reconcile()).toBeUndefined();
    const at = (name: string) => deleted.indexOf(name);
    for (const name of [
      'CustomResourceDefinition/machines.machine.sapcloud.io',
      'CustomResourceDefinition/workers.extensions.gardener.cloud',
      'CustomResourceDefinition/etcds.druid.gardener.cloud',
    ]) {
      expect(at(name)).toBeGreaterThanOrEqual(0);
      expect(at(name)).toBeLessThan(at('PriorityClass/gardener-system-critical'));
    }
    // ManagedResources need their CRD and the resource manager; the garden namespace stays.
    expect(deleted).not.toContain('CustomResourceDefinition/managedresources.resources.gardener.cloud');
    expect(deleted).not.toContain('Namespace/garden');
    expect(at('PriorityClass/gardener-system-critical')).toBeLessThan(at('Deployment/gardener-resource-manager'));
    expect(at('Deployment/gardener-resource-manager')).toBeLessThan(at('ServiceAccount/gardener-resource-manager'));
    expect(garden.calls.at(-1)).toBe('finalizers ');
    expect(garden.seed.metadata!.finalizers).toEqual([]);
  });

  it('keeps gardener-resource-manager while ManagedResources of class seed are left', async () => {
    const { garden, deleted, reconcile } = setup(
      deletedSeed(),
      {},
      {
        seedManagedResources: async () => ['garden/extension-provider-local'],
      },
    );
    await expect(reconcile()).rejects.toThrow(/deleting Seed local/);
    expect(garden.statuses.at(-1)!.lastOperation.description).toContain(
      'at least one ManagedResource still exists, cannot delete gardener-resource-manager: garden/extension-provider-local',
    );
    expect(deleted).toContain('PriorityClass/gardener-system-critical');
    expect(deleted).not.toContain('Deployment/gardener-resource-manager');
    expect(garden.seed.metadata!.finalizers).toEqual(['gardener']);
  });

  it('keeps what a garden cluster needs when the seed is the garden', async () => {
    const { garden, deleted, reconcile } = setup(
      deletedSeed(),
      {},
      {
        isGarden: async () => true,
        seedManagedResources: async () => ['garden/something-of-the-garden'],
      },
    );
    expect(await reconcile()).toBeUndefined();
    expect(deleted).toContain('CustomResourceDefinition/machines.machine.sapcloud.io');
    expect(deleted).toContain('PriorityClass/gardener-system-critical');
    expect(deleted).not.toContain('CustomResourceDefinition/workers.extensions.gardener.cloud');
    expect(deleted).not.toContain('CustomResourceDefinition/etcds.druid.gardener.cloud');
    expect(deleted).not.toContain('Deployment/gardener-resource-manager');
    expect(garden.seed.metadata!.finalizers).toEqual([]);
  });

  it('retries a deletion that does not finish in time and keeps the finalizer', async () => {
    const { garden, reconcile } = setup(
      deletedSeed(),
      {},
      {
        checkGone: async () => {
          throw new Error('still waiting for the deletion of CustomResourceDefinition machines.machine.sapcloud.io');
        },
      },
    );
    await expect(reconcile()).rejects.toThrow(/deleting Seed local/);
    expect(garden.statuses.at(-1)!.lastOperation.description).toContain('machines.machine.sapcloud.io');
    expect(garden.seed.metadata!.finalizers).toEqual(['gardener']);
  });
});
