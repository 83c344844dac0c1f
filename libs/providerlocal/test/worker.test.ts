// provider-local's Worker controller and the local machine controller together against the local API server, with
// Gardener's extension and machine CRDs and the example Shoot/CloudProfile in the Cluster: a Worker with one pool of
// two machines yields two machine Pods, succeeds once they run, reports status.machineDeployments; a new machine image
// version rolls the machines onto a new MachineClass; deleting the Worker removes machines, Pods and classes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, Kinds, isNotFound, kind } from '@gardener-ts/controller-runtime';
import { extensionResource } from '@gardener-ts/extensions/testing';
import { waitFor } from '@gardener-ts/testing';
import { MachineClassKind, MachineKind, phaseOf } from '../src/machine/objects.js';
import {
  WorkerKind,
  example,
  namespace,
  startWorkerEnvironment,
  type WorkerEnvironment,
} from './support/worker-environment.js';

let environment: WorkerEnvironment;
let client: ApiClient;

beforeAll(async () => {
  environment = await startWorkerEnvironment({
    shoot: {
      ...example('local', 'shoot.yaml'),
      status: {
        lastOperation: {
          type: 'Reconcile',
          state: 'Processing',
          progress: 10,
          description: '',
          lastUpdateTime: '2026-01-01T00:00:00Z',
        },
      },
    },
  });
  client = environment.client;
}, 60_000);

afterAll(() => environment?.stop());

const pool = (version: string) => ({
  name: 'local',
  machineType: 'local',
  machineImage: { name: 'local', version },
  minimum: 2,
  maximum: 3,
  maxSurge: 1,
  maxUnavailable: 0,
  labels: { team: 'a' },
  userDataSecretRef: { name: 'worker-local-user-data', key: 'userData' },
});

const reconciled = (generation: number) =>
  waitFor(
    `Worker generation ${generation} to succeed`,
    async () => {
      const w = await client.get(WorkerKind, { namespace, name: 'local' });
      return w.status?.observedGeneration === generation && w.status.lastOperation?.state === 'Succeeded'
        ? w
        : undefined;
    },
    { timeoutMs: 30_000 },
  );

describe('the Worker controller', () => {
  it('creates machines for a pool, rolls them on a new image version, scales them to none while the shoot hibernates and deletes them', async () => {
    await client.create(
      extensionResource('Worker', namespace, 'local', {
        type: 'local',
        region: 'local',
        secretRef: { name: 'cloudprovider', namespace },
        pools: [pool('1.0.0')],
      }),
    );
    const worker = await reconciled(1);
    expect(worker.status?.machineDeployments).toEqual([{ name: `${namespace}-local-z1`, minimum: 2, maximum: 3 }]);
    const machines = (await client.list(MachineKind, { namespace })).items;
    expect(machines.map(phaseOf)).toEqual(['Running', 'Running']);
    expect(machines[0]!.spec?.nodeTemplate?.metadata).toMatchObject({
      labels: { team: 'a', 'worker.gardener.cloud/pool': 'local', 'node.kubernetes.io/role': 'node' },
    });
    const classes = (await client.list(MachineClassKind, { namespace })).items;
    expect(classes).toHaveLength(1);
    expect(classes[0]!.providerSpec).toEqual({ image: 'local-skaffold/gardener-extension-provider-local/node:v1.0.0' });
    const classSecret = await client.get(Kinds.Secret, { namespace, name: classes[0]!.metadata!.name! });
    expect(Buffer.from(classSecret.data!.userData!, 'base64').toString()).toBe('#cloud-config\nruncmd: []\n');
    expect((await client.list(Kinds.Pod, { namespace })).items).toHaveLength(2);

    // A new machine image version: gardenlet updates the pool and asks for a reconcile.
    await client.patch(
      WorkerKind,
      { namespace, name: 'local' },
      {
        type: 'merge',
        patch: {
          metadata: { annotations: { 'gardener.cloud/operation': 'reconcile' } },
          spec: { pools: [pool('2.0.0')] },
        },
      },
    );
    await reconciled(2);
    const rolled = (await client.list(MachineKind, { namespace })).items.filter((m) => !m.metadata?.deletionTimestamp);
    const newClass = (await client.list(MachineClassKind, { namespace })).items;
    expect(newClass).toHaveLength(1);
    expect(newClass[0]!.metadata!.name).not.toBe(classes[0]!.metadata!.name);
    expect(rolled.map((m) => m.spec?.class?.name)).toEqual([newClass[0]!.metadata!.name, newClass[0]!.metadata!.name]);
    await expect(client.get(Kinds.Secret, { namespace, name: classes[0]!.metadata!.name! })).rejects.toSatisfy(
      isNotFound,
    );

    // Hibernation, as the gardenlet asks for it: the shoot in the Cluster wants it, then the Worker is reconciled.
    const hibernate = async (enabled: boolean) => {
      await client.patch(
        kind('extensions.gardener.cloud/v1alpha1', 'Cluster'),
        { name: namespace },
        { type: 'merge', patch: { spec: { shoot: { spec: { hibernation: { enabled } } } } } },
      );
      await client.patch(
        WorkerKind,
        { namespace, name: 'local' },
        { type: 'merge', patch: { metadata: { annotations: { 'gardener.cloud/operation': 'reconcile' } } } },
      );
    };
    const running = async () =>
      (await client.list(MachineKind, { namespace })).items.filter((m) => phaseOf(m) === 'Running').length;
    await hibernate(true);
    await waitFor(
      'the hibernated Worker to have no machine and no machine Pod left',
      async () =>
        (await client.list(MachineKind, { namespace })).items.length === 0 &&
        (await client.list(Kinds.Pod, { namespace })).items.length === 0,
      { timeoutMs: 30_000 },
    );
    await hibernate(false);
    await waitFor('the woken-up Worker to run its minimum of 2 machines again', async () => (await running()) === 2, {
      timeoutMs: 30_000,
    });

    await client.delete(WorkerKind, { namespace, name: 'local' });
    await waitFor(
      'the Worker, its machines, Pods and classes to be gone',
      async () => {
        const gone = await client.get(WorkerKind, { namespace, name: 'local' }).then(() => false, isNotFound);
        const left =
          (await client.list(MachineKind, { namespace })).items.length +
          (await client.list(Kinds.Pod, { namespace })).items.length +
          (await client.list(MachineClassKind, { namespace })).items.length;
        return gone && left === 0 ? true : undefined;
      },
      { timeoutMs: 30_000 },
    );
  }, 90_000);
});
