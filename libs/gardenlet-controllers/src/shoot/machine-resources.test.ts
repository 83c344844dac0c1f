// The migrate flow's shallow deletion of the machine objects: machine-controller-manager's finalizers removed, the
// objects deleted (a machine controller gets no deletion to act on, so no Node is drained or deleted), the
// `cloudprovider` Secret kept.
import { describe, expect, it } from 'vitest';
import { ApiError, NoKindMatchError, type Patch } from '@gardener-ts/controller-runtime';
import {
  MachineControllerManagerFinalizers,
  shallowDeleteMachineResources,
  waitUntilMachineResourcesDeleted,
} from './machine-resources.js';

const ns = 'shoot--local--local';

type Obj = { kind: string; metadata: { name: string; finalizers?: string[]; labels?: Record<string, string> } };

function seed(objects: Obj[]) {
  const store = new Map(objects.map((o) => [`${o.kind}/${o.metadata.name}`, structuredClone(o)]));
  const deleted: string[] = [];
  const client = {
    list: async (k: { kind: string }, opts: { labelSelector?: Record<string, string> }) => ({
      items: [...store.values()]
        .filter((o) => o.kind === k.kind)
        .filter((o) => Object.entries(opts.labelSelector ?? {}).every(([l, v]) => o.metadata.labels?.[l] === v))
        .map((o) => ({ ...structuredClone(o), metadata: { ...o.metadata, resourceVersion: '1' } })),
    }),
    get: async (k: { kind: string }, key: { name: string }) => {
      const o = store.get(`${k.kind}/${key.name}`);
      if (!o) throw new ApiError(404, 'NotFound', 'gone');
      return { ...structuredClone(o), metadata: { ...o.metadata, resourceVersion: '1' } };
    },
    patch: async (k: { kind: string }, key: { name: string }, body: Patch) => {
      const o = store.get(`${k.kind}/${key.name}`)!;
      o.metadata.finalizers = (body.patch as { metadata: { finalizers: string[] } }).metadata.finalizers;
      return { ...structuredClone(o), metadata: { ...o.metadata, resourceVersion: '1' } };
    },
    delete: async (k: { kind: string }, key: { name: string }) => {
      const o = store.get(`${k.kind}/${key.name}`);
      if (o?.metadata.finalizers?.length) throw new Error(`${k.kind} ${key.name} deleted with finalizers`);
      store.delete(`${k.kind}/${key.name}`);
      deleted.push(`${k.kind}/${key.name}`);
    },
  };
  return { client, store, deleted };
}

describe('shallowDeleteMachineResources', () => {
  it("removes machine-controller-manager's finalizers and deletes the machine objects, keeping cloudprovider", async () => {
    const finalizers = [...MachineControllerManagerFinalizers];
    const { client, store, deleted } = seed([
      { kind: 'Machine', metadata: { name: 'm1', finalizers } },
      { kind: 'MachineSet', metadata: { name: 's1', finalizers } },
      { kind: 'MachineDeployment', metadata: { name: 'd1', finalizers } },
      { kind: 'MachineClass', metadata: { name: 'c1' } },
      { kind: 'Secret', metadata: { name: 'c1', labels: { 'gardener.cloud/purpose': 'machineclass' } } },
      {
        kind: 'Secret',
        metadata: { name: 'cloudprovider', finalizers, labels: { 'gardener.cloud/purpose': 'cloudprovider' } },
      },
      { kind: 'Secret', metadata: { name: 'unrelated' } },
    ]);

    await shallowDeleteMachineResources(client as never, ns);
    expect(deleted).toEqual(['Machine/m1', 'MachineSet/s1', 'MachineDeployment/d1', 'MachineClass/c1', 'Secret/c1']);
    expect(store.get('Secret/cloudprovider')?.metadata.finalizers).toEqual([]);
    expect(store.has('Secret/unrelated')).toBe(true);
    await waitUntilMachineResourcesDeleted(
      client as never,
      ns,
      { interval: 1, timeout: 10 },
      new AbortController().signal,
    );
  });

  it('is done at once where the seed has no machine API', async () => {
    const client = {
      list: async (k: { kind: string }) => {
        if (k.kind !== 'Secret')
          throw new NoKindMatchError({ group: 'machine.sapcloud.io', version: 'v1alpha1', kind: k.kind });
        return { items: [] };
      },
    };
    await shallowDeleteMachineResources(client as never, ns);
    await waitUntilMachineResourcesDeleted(
      client as never,
      ns,
      { interval: 1, timeout: 10 },
      new AbortController().signal,
    );
  });

  it('waits while machine objects are left and names them on timeout', async () => {
    const { client } = seed([{ kind: 'Machine', metadata: { name: 'm1' } }]);
    await expect(
      waitUntilMachineResourcesDeleted(client as never, ns, { interval: 1, timeout: 5 }, new AbortController().signal),
    ).rejects.toThrow('1 Machine(s)');
  });
});
