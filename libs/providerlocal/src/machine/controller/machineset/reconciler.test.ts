import { describe, expect, it } from 'vitest';
import { ApiError, type Client } from '@gardener-ts/controller-runtime';
import { MachineSetReconciler } from './reconciler.js';

describe('MachineSetReconciler', () => {
  const ms = {
    apiVersion: 'machine.sapcloud.io/v1alpha1',
    kind: 'MachineSet',
    metadata: { name: 'set', namespace: 'ns', uid: 'set-uid', generation: 1 },
    spec: { replicas: 2, template: { spec: { class: { kind: 'MachineClass', name: 'c' } } } },
  };
  /** A seed with the set and its machines (name → phase, `-deleting` suffix: being deleted); records what changed. */
  const seed = (machines: Record<string, string>) => {
    const created: string[] = [];
    const deleted: string[] = [];
    const items = Object.entries(machines).map(([name, phase]) => ({
      metadata: {
        name,
        namespace: 'ns',
        creationTimestamp: '2026-11-29T10:00:00Z',
        ownerReferences: [{ controller: true, uid: 'set-uid' }],
        ...(phase.endsWith('-deleting') ? { deletionTimestamp: '2026-11-29T11:00:00Z' } : {}),
      },
      status: { currentStatus: { phase: phase.replace(/-deleting$/, '') } },
    }));
    const client = {
      get: async (kind: { kind: string }) => {
        if (kind.kind === 'MachineSet') return structuredClone(ms);
        throw new ApiError(404, 'NotFound', 'not found');
      },
      list: async () => ({ items: structuredClone(items) }),
      create: async (obj: any) => {
        created.push(obj.metadata.name);
        return obj;
      },
      delete: async (_kind: unknown, key: { name: string }) => void deleted.push(key.name),
      patch: async () => ms,
    } as unknown as Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'>;
    let n = 0;
    return { reconciler: new MachineSetReconciler(client, () => `new${n++}`), created, deleted };
  };
  const req = { namespace: 'ns', name: 'set' };

  it('replaces a Failed machine: deletes it and creates a new one', async () => {
    const s = seed({ ok: 'Running', broken: 'Failed' });
    await s.reconciler.reconcile(req);
    expect(s.deleted).toEqual(['broken']);
    expect(s.created).toEqual(['set-new0']);
  });

  it('deletes a Failed machine without a replacement when the set has enough machines without it', async () => {
    const s = seed({ a: 'Running', b: 'Unknown', broken: 'Failed' });
    await s.reconciler.reconcile(req);
    expect(s.deleted).toEqual(['broken']);
    expect(s.created).toEqual([]);
  });

  it('counts neither machines being deleted nor Failed ones, and deletes the surplus pending first', async () => {
    const gone = seed({ a: 'Running', b: 'Terminating-deleting' });
    await gone.reconciler.reconcile(req);
    expect(gone.created).toEqual(['set-new0']);
    expect(gone.deleted).toEqual([]);
    const surplus = seed({ a: 'Running', b: 'Running', c: 'Pending' });
    await surplus.reconciler.reconcile(req);
    expect(surplus.deleted).toEqual(['c']);
    expect(surplus.created).toEqual([]);
  });
});
