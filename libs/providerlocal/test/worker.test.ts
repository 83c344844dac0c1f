// provider-local's Worker controller and the local machine controller together against the local API server, with
// Gardener's extension and machine CRDs and the example Shoot/CloudProfile in the Cluster: a Worker with one pool of
// two machines yields two machine Pods, succeeds once they run, reports status.machineDeployments; a new machine image
// version rolls the machines onto a new MachineClass; deleting the Worker removes machines, Pods and classes.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseManifests } from '@gardener-ts/api';
import { ApiClient, Kinds, Manager, isNotFound, kind } from '@gardener-ts/controller-runtime';
import type { ExtensionObject } from '@gardener-ts/extensions';
import { clusterObject, extensionResource } from '@gardener-ts/extensions/testing';
import { gardenerAsset, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addWorkerController } from '../src/controller/worker/add.js';
import { addMachineControllers } from '../src/machine/add.js';
import { MachineClassKind, MachineKind, phaseOf } from '../src/machine/objects.js';

const crd = (name: string) => gardenerAsset('crds', `10-crd-${name}.yaml`);
const example = (...path: string[]) =>
  parseManifests(readFileSync(gardenerAsset('examples', ...path), 'utf8'))[0] as Record<string, any>;
const WorkerKind = kind<ExtensionObject>('extensions.gardener.cloud/v1alpha1', 'Worker');
const namespace = 'shoot--local--local';

let env: TestEnvironment;
let client: ApiClient;
let mgr: Manager;
let stopKubelet = false;

/** Plays the kubelet of the seed: machine Pods become Running and ready. */
async function kubelet(): Promise<void> {
  while (!stopKubelet) {
    for (const pod of (await client.list(Kinds.Pod, { namespace }).catch(() => ({ items: [] }))).items) {
      if (pod.metadata?.deletionTimestamp || pod.status?.phase === 'Running') continue;
      await client
        .patch(
          Kinds.Pod,
          { namespace, name: pod.metadata!.name! },
          {
            type: 'merge',
            patch: {
              status: { phase: 'Running', podIP: '127.0.0.1', conditions: [{ type: 'Ready', status: 'True' }] },
            },
          },
          { subresource: 'status' },
        )
        .catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  env = await startTestEnvironment({
    crds: [
      crd('extensions.gardener.cloud_clusters'),
      crd('extensions.gardener.cloud_workers'),
      ...['machineclasses', 'machinedeployments', 'machinesets', 'machines'].map((p) =>
        crd(`machine.sapcloud.io_${p}`),
      ),
    ],
  });
  client = await ApiClient.create(env.kubeconfigPath);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const shoot = {
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
  };
  await client.create(
    clusterObject(namespace, {
      shoot,
      seed: example('50-seed.yaml'),
      cloudProfile: example('local', 'cloudprofile.yaml'),
    }),
  );
  await client.create({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'worker-local-user-data', namespace },
    stringData: { userData: '#cloud-config\nruncmd: []\n' },
  });
  mgr = await Manager.create({ clusters: { seed: { kubeConfig: env.kubeconfigPath } }, gracefulShutdownTimeoutMs: 0 });
  addMachineControllers(mgr);
  addWorkerController(mgr, { pollMs: 100 });
  await mgr.start();
  void kubelet();
}, 60_000);

afterAll(async () => {
  stopKubelet = true;
  await mgr?.stop();
  client?.close();
  await env?.stop();
});

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
