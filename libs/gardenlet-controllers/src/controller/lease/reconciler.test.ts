import { describe, expect, it } from 'vitest';
import { ApiError, type KubernetesObject, type Patch } from '@gardener-ts/controller-runtime';
import { HealthManager } from './health.js';
import { microTime } from './lease.js';
import { LeaseReconciler } from './reconciler.js';

type Obj = KubernetesObject & Record<string, any>;

function fakeGarden(seed: Obj) {
  const leases = new Map<string, Obj>();
  const writes: string[] = [];
  const statusPatches: Record<string, unknown>[] = [];
  return {
    leases,
    writes,
    statusPatches,
    async get(kind: { kind: string }, key: { namespace?: string; name: string }) {
      if (kind.kind === 'Seed') {
        if (key.name !== seed.metadata!.name) throw new ApiError(404, 'NotFound', 'seed not found');
        return structuredClone(seed);
      }
      const lease = leases.get(`${key.namespace}/${key.name}`);
      if (!lease) throw new ApiError(404, 'NotFound', 'lease not found');
      return structuredClone(lease);
    },
    async create(o: Obj) {
      writes.push('create');
      leases.set(`${o.metadata!.namespace}/${o.metadata!.name}`, {
        ...o,
        metadata: { ...o.metadata, resourceVersion: '1' },
      });
      return o;
    },
    async update(o: Obj) {
      writes.push(`update@${o.metadata!.resourceVersion}`);
      leases.set(`${o.metadata!.namespace}/${o.metadata!.name}`, o);
      return o;
    },
    async patch(_kind: unknown, _key: unknown, patch: Patch, opts?: { subresource?: string }) {
      expect(opts?.subresource).toBe('status');
      const status = (patch.patch as { status: Record<string, unknown> }).status;
      statusPatches.push(status);
      seed.status = { ...seed.status, ...status };
      return seed;
    },
  };
}

const seed = (): Obj => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'Seed',
  metadata: { name: 'local', uid: 'uid-1' },
  spec: {},
});
const clock = (iso: string) => ({ now: () => new Date(iso) });

describe('LeaseReconciler', () => {
  it('renews the Lease, sets GardenletReady once and reports healthy', async () => {
    const garden = fakeGarden(seed());
    const health = new HealthManager(20_000);
    health.start();
    health.set(false);
    const r = new LeaseReconciler({
      garden: garden as never,
      seedHealthz: async () => undefined,
      health,
      leaseResyncSeconds: 2,
      clock: clock('2026-11-25T01:00:00.123Z'),
    });
    expect(await r.reconcile({ namespace: '', name: 'local' })).toEqual({ requeueAfter: 2000 });
    expect(garden.leases.get('gardener-system-seed-lease/local')).toMatchObject({
      metadata: {
        ownerReferences: [{ apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Seed', name: 'local', uid: 'uid-1' }],
      },
      spec: { holderIdentity: 'local', leaseDurationSeconds: 2, renewTime: '2026-11-25T01:00:00.123000Z' },
    });
    expect(garden.statusPatches).toHaveLength(1);
    expect(garden.statusPatches[0]!.conditions).toEqual([
      expect.objectContaining({
        type: 'GardenletReady',
        status: 'True',
        reason: 'GardenletReady',
        message: 'Gardenlet is posting ready status.',
      }),
    ]);
    expect(health.get()).toBe(true);

    await r.reconcile({ namespace: '', name: 'local' });
    expect(garden.writes).toEqual(['create', 'update@1']); // optimistic update of the existing Lease
    expect(garden.statusPatches).toHaveLength(1); // the condition already says so: no status write
  });

  it('reports unhealthy and renews nothing while the seed API server is not healthy', async () => {
    const garden = fakeGarden(seed());
    const health = new HealthManager(20_000);
    health.start();
    const r = new LeaseReconciler({
      garden: garden as never,
      seedHealthz: async () => {
        throw new ApiError(500, 'InternalError', 'etcd not ready');
      },
      health,
      leaseResyncSeconds: 2,
    });
    await expect(r.reconcile({ namespace: '', name: 'local' })).rejects.toThrow(
      /seed API server \/healthz failed: .*etcd not ready/,
    );
    expect(health.get()).toBe(false);
    expect(garden.writes).toEqual([]);
    expect(garden.statusPatches).toEqual([]);
  });

  it('reports unhealthy when the Lease cannot be written', async () => {
    const garden = fakeGarden(seed());
    garden.create = async () => {
      throw new ApiError(403, 'Forbidden', 'leases is forbidden');
    };
    const health = new HealthManager(20_000);
    health.start();
    const r = new LeaseReconciler({
      garden: garden as never,
      seedHealthz: async () => undefined,
      health,
      leaseResyncSeconds: 2,
    });
    await expect(r.reconcile({ namespace: '', name: 'local' })).rejects.toThrow(
      /renewing Lease gardener-system-seed-lease\/local/,
    );
    expect(health.get()).toBe(false);
  });

  it('does nothing for a Seed that is gone', async () => {
    const garden = fakeGarden(seed());
    const r = new LeaseReconciler({
      garden: garden as never,
      seedHealthz: async () => undefined,
      health: new HealthManager(1),
      leaseResyncSeconds: 2,
    });
    expect(await r.reconcile({ namespace: '', name: 'other' })).toBeUndefined();
  });

  it('writes MicroTime with microseconds', () => {
    expect(microTime(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05.678000Z');
  });
});
