// A local Worker's machines through a control plane migration against the local API server, with provider-local's
// Worker controller and the local machine controllers running: migrate releases the machines (held, finalizers gone,
// Pods deleted, the objects kept for the ShootState); after the namespace's machine objects are gone, a restore with
// the machine state the gardenlet hands over (`status.state.machineDeployments`) brings back the same Machines — same
// names, same `node` labels — with new Pods, and the deployments roll nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, Kinds, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { extensionResource } from '@gardener-ts/extensions/testing';
import { waitFor } from '@gardener-ts/testing';
import {
  MachineDeploymentKind,
  MachineKind,
  MachineMigrationAnnotation,
  MachineSetKind,
  phaseOf,
} from '../src/machine/objects.js';
import { WorkerKind, namespace, startWorkerEnvironment, type WorkerEnvironment } from './support/worker-environment.js';

let environment: WorkerEnvironment;
let client: ApiClient;

beforeAll(async () => {
  environment = await startWorkerEnvironment();
  client = environment.client;
}, 60_000);

afterAll(() => environment?.stop());

const spec = {
  type: 'local',
  region: 'local',
  secretRef: { name: 'cloudprovider', namespace },
  pools: [
    {
      name: 'local',
      machineType: 'local',
      machineImage: { name: 'local', version: '1.0.0' },
      minimum: 2,
      maximum: 3,
      maxSurge: 1,
      maxUnavailable: 0,
      userDataSecretRef: { name: 'worker-local-user-data', key: 'userData' },
    },
  ],
};

const operation = (type: string) =>
  waitFor(
    `Worker ${type} to succeed`,
    async () => {
      const w = await client.get(WorkerKind, { namespace, name: 'local' }).catch(() => undefined);
      return w?.status?.lastOperation?.type === type && w.status.lastOperation.state === 'Succeeded' ? w : undefined;
    },
    { timeoutMs: 30_000 },
  );

/** What the machine state keeps of a machine object (the gardenlet's `machineStateOf`). */
const kept = (obj: KubernetesObject & { spec?: unknown }) => ({
  metadata: { name: obj.metadata!.name, labels: obj.metadata!.labels, annotations: obj.metadata!.annotations },
  spec: obj.spec,
});

const annotate = (value: string) =>
  client.patch(
    WorkerKind,
    { namespace, name: 'local' },
    { type: 'merge', patch: { metadata: { annotations: { 'gardener.cloud/operation': value } } } },
  );

describe('a local Worker through a control plane migration', () => {
  it('keeps its machines and Node names: released on migrate, recreated under their names on restore', async () => {
    await client.create(extensionResource('Worker', namespace, 'local', spec));
    await operation('Create');
    const before = (await client.list(MachineKind, { namespace })).items;
    expect(before.map(phaseOf)).toEqual(['Running', 'Running']);
    const names = before.map((m) => m.metadata!.name!).sort();
    const nodes = before.map((m) => m.metadata!.labels!.node).sort();

    // Migrate (source seed).
    await annotate('migrate');
    await operation('Migrate');
    expect((await client.list(Kinds.Pod, { namespace })).items).toEqual([]);
    const released = (await client.list(MachineKind, { namespace })).items;
    expect(released.map((m) => m.metadata!.name).sort()).toEqual(names);
    for (const m of released) {
      expect(m.metadata?.annotations?.[MachineMigrationAnnotation]).toBe('migrate');
      expect(m.metadata?.finalizers ?? []).toEqual([]);
    }
    // What the ShootState keeps (as the gardenlet computes it), then the namespace's machine objects go.
    const deployments = (await client.list(MachineDeploymentKind, { namespace })).items;
    const sets = (await client.list(MachineSetKind, { namespace })).items;
    const state = Object.fromEntries(
      deployments.map((d) => [
        d.metadata!.name!,
        {
          replicas: d.spec?.replicas,
          machineSets: sets.map(kept),
          machines: released.map(kept),
        },
      ]),
    );
    await client.delete(WorkerKind, { namespace, name: 'local' });
    for (const k of [MachineKind, MachineSetKind, MachineDeploymentKind] as const) {
      for (const obj of (await client.list(k as typeof MachineKind, { namespace })).items) {
        await client.delete(k as typeof MachineKind, { namespace, name: obj.metadata!.name! });
      }
    }
    await waitFor(
      'the machine objects to be gone',
      async () => (await client.list(MachineKind, { namespace })).items.length === 0,
      {
        timeoutMs: 10_000,
      },
    );

    // Restore (destination seed): written waiting for its state, the state copied in, then asked to restore.
    await client.create(extensionResource('Worker', namespace, 'local', spec, { operation: 'wait-for-state' }));
    const waiting = await client.get(WorkerKind, { namespace, name: 'local' });
    await client.updateStatus({ ...waiting, status: { ...waiting.status, state: { machineDeployments: state } } });
    await annotate('restore');
    const restoredWorker = await operation('Restore');
    expect(restoredWorker.status?.state ?? {}).not.toHaveProperty('machineDeployments');

    const after = (await client.list(MachineKind, { namespace })).items;
    expect(after.map((m) => m.metadata!.name!).sort()).toEqual(names);
    expect(after.map((m) => m.metadata!.labels!.node).sort()).toEqual(nodes);
    expect(after.map(phaseOf)).toEqual(['Running', 'Running']);
    expect(after.every((m) => m.metadata?.annotations?.[MachineMigrationAnnotation] === undefined)).toBe(true);
    expect((await client.list(Kinds.Pod, { namespace })).items.map((p) => p.metadata!.name).sort()).toEqual(
      names.map((n) => `machine-${n}`),
    );
    // The restored deployment found its set: nothing was rolled.
    expect((await client.list(MachineSetKind, { namespace })).items.map((s) => s.metadata!.name)).toEqual(
      sets.map((s) => s.metadata!.name),
    );
  }, 90_000);
});
