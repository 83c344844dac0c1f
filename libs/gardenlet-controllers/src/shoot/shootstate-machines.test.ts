// The machine state of a ShootState: what is kept of the machine objects, its compressed form (Gardener's: a gzipped
// JSON in `{"state": <base64>}`, so the entry Gardener writes reads here and back), the `machine-state` entry the
// ShootState writer adds, and the Worker state the restore hands over.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NoKindMatchError, type KubernetesObject, type Patch } from '@gardener-ts/controller-runtime';
import {
  DataTypeMachineState,
  decodeMachineState,
  encodeMachineState,
  machineStateEntry,
  machineStateFrom,
  machineStateOf,
  workerRestoreState,
  type MachineState,
} from './shootstate-machines.js';
import { computeShootStateSpec } from './shootstate-writer.js';
import { restoringSeedClient } from './shootstate-restore.js';

const ns = 'shoot--local--local';
const md = 'shoot--local--local-worker-z1';
const owner = (kind: string, name: string) => [{ kind, name, apiVersion: 'machine.sapcloud.io/v1alpha1', uid: 'u' }];
const machineSet = (hash: string, extra: object = {}) => ({
  apiVersion: 'machine.sapcloud.io/v1alpha1' as const,
  kind: 'MachineSet' as const,
  metadata: {
    name: `${md}-${hash}`,
    namespace: ns,
    uid: `uid-${hash}`,
    resourceVersion: '5',
    labels: { name: md, 'machine-template-hash': hash },
    ownerReferences: owner('MachineDeployment', md),
    ...extra,
  },
  spec: { replicas: 1, selector: { matchLabels: { name: md, 'machine-template-hash': hash } } },
  status: { replicas: 1, availableReplicas: 1 },
});
const machine = (name: string, set: string, labels: Record<string, string> = { node: `machine-${name}` }) => ({
  apiVersion: 'machine.sapcloud.io/v1alpha1' as const,
  kind: 'Machine' as const,
  metadata: {
    name,
    namespace: ns,
    uid: `uid-${name}`,
    finalizers: ['machine.sapcloud.io/machine-controller-manager'],
    annotations: { a: 'b' },
    labels: { name: md, ...labels },
    ownerReferences: owner('MachineSet', set),
  },
  spec: { class: { name: 'c' } },
  status: { currentStatus: { phase: 'Running' }, addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] },
});

describe('machineStateOf (Gardener computeMachineState)', () => {
  it('keeps per deployment its replicas, sets and machines with name, labels, annotations and spec only', () => {
    const state = machineStateOf(
      [
        { metadata: { name: md }, spec: { replicas: 2 } },
        { metadata: { name: 'no-sets' }, spec: { replicas: 1 } },
      ],
      [machineSet('h2'), machineSet('h1')],
      [
        machine('m2', `${md}-h1`),
        machine('m1', `${md}-h1`),
        machine('m3', `${md}-h2`),
        // Created, never joined: not kept.
        machine('m4', `${md}-h2`, {}),
      ],
    );
    expect(Object.keys(state.machineDeployments ?? {})).toEqual([md]);
    const kept = state.machineDeployments![md]!;
    expect(kept.replicas).toBe(2);
    expect(kept.machineSets!.map((s) => s.metadata.name)).toEqual([`${md}-h1`, `${md}-h2`]);
    expect(kept.machines!.map((m) => m.metadata.name)).toEqual(['m1', 'm2', 'm3']);
    expect(kept.machines![0]).toEqual({
      apiVersion: 'machine.sapcloud.io/v1alpha1',
      kind: 'Machine',
      metadata: { name: 'm1', namespace: ns, annotations: { a: 'b' }, labels: { name: md, node: 'machine-m1' } },
      spec: { class: { name: 'c' } },
    });
    expect(kept.machineSets![0]).not.toHaveProperty('status');
  });

  it('groups objects without owner references by their `name` label, and keeps nothing without deployments', () => {
    const orphanSet = machineSet('h1', { ownerReferences: undefined });
    const orphanMachine = { ...machine('m1', ''), metadata: { ...machine('m1', '').metadata, ownerReferences: [] } };
    const state = machineStateOf([{ metadata: { name: md } }], [orphanSet], [orphanMachine]);
    expect(state.machineDeployments![md]!.machineSets!.map((s) => s.metadata.name)).toEqual([`${md}-h1`]);
    expect(state.machineDeployments![md]!.machines!.map((m) => m.metadata.name)).toEqual(['m1']);
    expect(machineStateOf([], [orphanSet], [orphanMachine])).toEqual({});
    expect(machineStateEntry({})).toBeUndefined();
  });
});

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/);
const labels = fc.dictionary(name, fc.string({ maxLength: 8 }), { maxKeys: 3 });
const kept = <S>(spec: fc.Arbitrary<S>) =>
  fc.record({ metadata: fc.record({ name, labels }), spec }, { requiredKeys: ['metadata'] });
const machineStates: fc.Arbitrary<MachineState> = fc.oneof(
  fc.constant({}),
  fc.record({
    machineDeployments: fc.dictionary(
      name,
      fc.record(
        {
          replicas: fc.integer({ min: 1, max: 50 }),
          machineSets: fc.array(kept(fc.record({ replicas: fc.nat(10) })), { maxLength: 3 }),
          machines: fc.array(kept(fc.record({ class: fc.record({ name }) })), { maxLength: 5 }),
        },
        { requiredKeys: [] },
      ),
      { minKeys: 1, maxKeys: 3 },
    ),
  }),
);

describe('the compressed machine state', () => {
  it('reads back what was written (round trip); an empty state writes nothing', () => {
    fc.assert(
      fc.property(machineStates, (state) => {
        const data = encodeMachineState(state);
        if (JSON.stringify(state) === '{}') return data === undefined && machineStateEntry(state) === undefined;
        expect(decodeMachineState(data)).toEqual(state);
        const entry = machineStateEntry(state)!;
        expect(machineStateFrom({ gardener: [{ name: 'ca', type: 'secret', data: {} }, entry] })).toEqual(state);
        return entry.name === DataTypeMachineState && entry.type === DataTypeMachineState;
      }),
    );
  });

  it("reads Gardener's form: base64 of gzipped JSON under `state`; none, null or empty is no state", () => {
    const state = { machineDeployments: { d: { replicas: 1, machineSets: [{ metadata: { name: 'd-s' } }] } } };
    const gardener = { state: gzipSync(JSON.stringify(state)).toString('base64') };
    expect(decodeMachineState(gardener)).toEqual(state);
    expect(decodeMachineState(null)).toEqual({});
    expect(decodeMachineState({ state: '' })).toEqual({});
    expect(machineStateFrom(undefined)).toEqual({});
  });

  it('names what is wrong with data that is not machine state', () => {
    expect(() => decodeMachineState({ state: 'bm90IGd6aXA=' })).toThrow('failed decompressing machine state');
    expect(() => decodeMachineState({ state: gzipSync('{').toString('base64') })).toThrow(
      'failed decoding machine state',
    );
    expect(() => decodeMachineState({ state: 3 })).toThrow('the machine state data is not {"state": "<base64 gzip>"}');
  });
});

describe('computeShootStateSpec with machines', () => {
  const seed = (machineAPI = true) => ({
    get: async () => ({}),
    list: async (k: { kind: string }) => {
      if (['MachineDeployment', 'MachineSet', 'Machine'].includes(k.kind) && !machineAPI) {
        throw new NoKindMatchError({ group: 'machine.sapcloud.io', version: 'v1alpha1', kind: k.kind });
      }
      const items: Record<string, object[]> = {
        MachineDeployment: [{ metadata: { name: md }, spec: { replicas: 1 } }],
        MachineSet: [machineSet('h1')],
        Machine: [machine('m1', `${md}-h1`)],
      };
      return { items: items[k.kind] ?? [] };
    },
  });

  it("adds the namespace's machine state as the `machine-state` entry of spec.gardener", async () => {
    const spec = await computeShootStateSpec(seed() as never, ns);
    const entry = spec.gardener?.find((d) => d.name === 'machine-state');
    expect(entry?.type).toBe('machine-state');
    expect(machineStateFrom(spec).machineDeployments?.[md]?.machines?.map((m) => m.metadata.name)).toEqual(['m1']);
  });

  it('keeps no machine state where the seed has no machine API', async () => {
    const spec = await computeShootStateSpec(seed(false) as never, ns);
    expect(spec.gardener ?? []).toEqual([]);
  });
});

describe('restoring the Worker with the machine state', () => {
  it("hands the ShootState's machine state to the Worker's status.state before asking for restore", async () => {
    const state = { machineDeployments: { [md]: { replicas: 1, machineSets: [{ metadata: { name: `${md}-h1` } }] } } };
    const spec = {
      gardener: [machineStateEntry(state)!],
      extensions: [{ kind: 'Worker', name: 'local', state: { own: 1 } }],
    };
    const patches: { kind: string; body: Patch; subresource?: string }[] = [];
    const seed = {
      get: async () => ({}),
      list: async () => ({ items: [] }),
      create: async (o: KubernetesObject) => o,
      delete: async () => undefined,
      patch: async (k: { kind: string }, _key: unknown, body: Patch, opts?: { subresource?: string }) => {
        patches.push({ kind: k.kind, body, ...(opts?.subresource ? { subresource: opts.subresource } : {}) });
        return {};
      },
    };
    const restoring = restoringSeedClient(seed as unknown as Parameters<typeof restoringSeedClient>[0], spec);
    const apply = (kind: string) =>
      restoring.patch(
        { group: 'extensions.gardener.cloud', version: 'v1alpha1', kind } as never,
        { namespace: ns, name: 'local' },
        {
          type: 'apply',
          patch: { kind, metadata: { name: 'local', annotations: { 'gardener.cloud/operation': 'reconcile' } } },
          fieldManager: 'gardenlet',
          force: true,
        },
      );
    await apply('Worker');
    const status = patches.find((p) => p.kind === 'Worker' && p.subresource === 'status');
    expect((status?.body.patch as { status: unknown }).status).toEqual({
      state: { own: 1, ...state },
      resources: null,
    });
    // The machine state is the Worker's only: a Network gets none.
    await apply('Network');
    expect(patches.some((p) => p.kind === 'Network' && p.subresource === 'status')).toBe(false);
  });

  it('gives the Worker only the machine state when it kept no state of its own', () => {
    const machines = { machineDeployments: { d: {} } };
    expect(workerRestoreState(undefined, machines)).toEqual(machines);
    expect(workerRestoreState({ a: 1 }, {})).toEqual({ a: 1 });
    expect(workerRestoreState(undefined, {})).toBeUndefined();
  });
});
