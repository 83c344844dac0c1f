// provider-local's Worker health checks against the local API server (also playing the shoot, whose Nodes the
// EveryNodeReady check reads): a reconciled Worker whose one machine runs with a Ready Node is ControlPlaneHealthy and
// EveryNodeReady; without the shoot access Secret it is not SystemComponentsHealthy; a NotReady Node turns
// EveryNodeReady False at the next sync.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCluster } from '@gardener-ts/gardenlet-controllers';
import {
  ApiClient,
  Kinds,
  Manager,
  kind,
  type Condition,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import type { ExtensionObject } from '@gardener-ts/extensions';
import { gardenerAsset, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addHealthCheckControllers } from '../src/controller/healthcheck/add.js';
import { MachineDeploymentKind, MachineKind } from '../src/machine/objects.js';
import { exampleShootValues } from './support/shoot-values.js';

const crd = (name: string) => gardenerAsset('crds', `10-crd-${name}.yaml`);
const WorkerKind = kind<ExtensionObject>('extensions.gardener.cloud/v1alpha1', 'Worker');

let env: TestEnvironment;
let client: ApiClient;
let mgr: Manager;
const values = exampleShootValues();
const namespace = values.namespace;

const setStatus = <T extends KubernetesObject>(
  k: { kind: string },
  key: { namespace?: string; name: string },
  status: unknown,
) => client.patch(k as never, key, { type: 'merge', patch: { status } }, { subresource: 'status' }) as Promise<T>;

const readyCondition = (status: string) => [
  { type: 'Ready', status, reason: 'KubeletReady', message: '', lastTransitionTime: new Date().toISOString() },
];

beforeAll(async () => {
  env = await startTestEnvironment({
    crds: [
      crd('extensions.gardener.cloud_clusters'),
      crd('extensions.gardener.cloud_workers'),
      crd('extensions.gardener.cloud_controlplanes'),
      crd('machine.sapcloud.io_machinedeployments'),
      crd('machine.sapcloud.io_machines'),
    ],
  });
  client = await ApiClient.create(env.kubeconfigPath);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await client.create(renderCluster(values) as KubernetesObject);

  await client.create({
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'Worker',
    metadata: { name: 'local', namespace },
    spec: { type: 'local', region: 'local', secretRef: { name: 'cloudprovider', namespace }, pools: [] },
  } as KubernetesObject);
  await setStatus(
    WorkerKind,
    { namespace, name: 'local' },
    {
      lastOperation: {
        type: 'Reconcile',
        state: 'Succeeded',
        progress: 100,
        description: '',
        lastUpdateTime: new Date().toISOString(),
      },
    },
  );
  const md = await client.create({
    apiVersion: 'machine.sapcloud.io/v1alpha1',
    kind: 'MachineDeployment',
    metadata: { name: 'pool', namespace },
    spec: {
      replicas: 1,
      selector: { matchLabels: { name: 'pool' } },
      template: { metadata: { labels: { name: 'pool' } }, spec: {} },
    },
  } as KubernetesObject);
  await setStatus(MachineDeploymentKind, { namespace, name: 'pool' }, { observedGeneration: md.metadata?.generation });
  await client.create({
    apiVersion: 'machine.sapcloud.io/v1alpha1',
    kind: 'Machine',
    metadata: { name: 'pool-m1', namespace, labels: { name: 'pool', node: 'machine-pool-m1' } },
    spec: { class: { kind: 'MachineClass', name: 'c' } },
  } as KubernetesObject);
  await setStatus(
    MachineKind,
    { namespace, name: 'pool-m1' },
    {
      currentStatus: { phase: 'Running', lastUpdateTime: new Date().toISOString() },
    },
  );
  await client.create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'machine-pool-m1' },
    spec: {},
  } as KubernetesObject);
  await setStatus(Kinds.Node, { name: 'machine-pool-m1' }, { conditions: readyCondition('True') });

  mgr = await Manager.create({ clusters: { seed: { kubeConfig: env.kubeconfigPath } }, gracefulShutdownTimeoutMs: 0 });
  addHealthCheckControllers(mgr, {
    syncPeriodMs: 300,
    // The test's API server is the shoot too.
    shootClient: async () => ({ list: (k, opts) => client.list(k, opts) }),
  });
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  client?.close();
  await env?.stop();
});

const conditionsOf = async () => {
  const worker = await client.get(WorkerKind, { namespace, name: 'local' });
  return Object.fromEntries(((worker.status?.conditions ?? []) as Condition[]).map((c) => [c.type, c]));
};

describe("the Worker's health checks", () => {
  it('report the machine controller, its shoot access and the Nodes', async () => {
    const conditions = await waitFor(
      'the Worker to have its three conditions',
      async () => {
        const c = await conditionsOf();
        return c.ControlPlaneHealthy && c.SystemComponentsHealthy && c.EveryNodeReady ? c : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(conditions.ControlPlaneHealthy.status).toBe('True');
    expect(conditions.EveryNodeReady.status).toBe('True');
    expect(conditions.SystemComponentsHealthy).toMatchObject({
      status: 'False',
      message: `the shoot access Secret "gardener" of the machine controller in namespace "${namespace}" not found`,
    });
  });

  it('turn EveryNodeReady False when the Node is no longer Ready', async () => {
    await setStatus(Kinds.Node, { name: 'machine-pool-m1' }, { conditions: readyCondition('False') });
    const condition = await waitFor(
      'EveryNodeReady to turn False',
      async () => {
        const c = (await conditionsOf()).EveryNodeReady;
        return c?.status === 'False' ? c : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(condition.message).toBe('not enough ready worker nodes registered in the cluster (0/1)');
  });
});
