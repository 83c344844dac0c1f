// The ready-made health checks against an in-memory seed and shoot: StatefulSets, DaemonSets, ManagedResources and
// the shoot's Nodes (Deployments run end to end in test/hello.test.ts).
import { describe, expect, it } from 'vitest';
import { ApiError, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { extensionResource } from '../testing.js';
import {
  managedResourceCheck,
  managedResourceProblem,
  seedDaemonSetCheck,
  seedStatefulSetCheck,
  shootDaemonSetCheck,
  shootNodesCheck,
  type HealthCheckContext,
} from './checks.js';

const NS = 'shoot--dev--demo';

/** Reads of a fixed set of objects; list ignores namespaces (Nodes are cluster-scoped). */
function reader(...objects: KubernetesObject[]): Pick<Client, 'get' | 'list'> {
  const find = (kind: string, namespace: string | undefined, name: string) =>
    objects.find(
      (o) => o.kind === kind && (o.metadata?.namespace ?? '') === (namespace ?? '') && o.metadata?.name === name,
    );
  return {
    get: (async (kind: { kind: string }, key: { namespace?: string; name: string }) => {
      const obj = find(kind.kind, key.namespace, key.name);
      if (!obj) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
      return structuredClone(obj);
    }) as Client['get'],
    list: (async (kind: { kind: string }) => ({
      items: objects.filter((o) => o.kind === kind.kind).map((o) => structuredClone(o)),
    })) as unknown as Client['list'],
  };
}

function context(seed: KubernetesObject[], shoot?: KubernetesObject[]): HealthCheckContext {
  return {
    seedClient: reader(...seed),
    ...(shoot ? { shootClient: () => Promise.resolve(reader(...shoot)) } : {}),
    namespace: NS,
    object: extensionResource('Extension', NS, 'hello', { type: 'hello' }) as HealthCheckContext['object'],
  };
}

const statefulSet = (readyReplicas: number): KubernetesObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { namespace: NS, name: 'etcd-main', generation: 1 },
    spec: { replicas: 3 },
    status: { observedGeneration: 1, readyReplicas },
  }) as KubernetesObject;

const daemonSet = (namespace: string, numberUnavailable: number): KubernetesObject =>
  ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { namespace, name: 'node-exporter', generation: 2 },
    status: {
      observedGeneration: 2,
      desiredNumberScheduled: 2,
      currentNumberScheduled: 2,
      updatedNumberScheduled: 2,
      numberUnavailable,
    },
  }) as KubernetesObject;

type MRCondition = { type: string; status: string; reason?: string; message?: string };
const managedResource = (conditions: MRCondition[], generation = 1, observedGeneration = 1): KubernetesObject =>
  ({
    apiVersion: 'resources.gardener.cloud/v1alpha1',
    kind: 'ManagedResource',
    metadata: { namespace: NS, name: 'extension-hello-shoot', generation },
    status: { observedGeneration, conditions },
  }) as KubernetesObject;
const healthy: MRCondition[] = [
  { type: 'ResourcesApplied', status: 'True' },
  { type: 'ResourcesHealthy', status: 'True' },
  { type: 'ResourcesProgressing', status: 'False' },
];

const node = (name: string, ready: string): KubernetesObject =>
  ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name },
    status: { conditions: [{ type: 'Ready', status: ready }] },
  }) as KubernetesObject;

describe('seed workload checks', () => {
  it('StatefulSet: healthy with all replicas ready, False naming it otherwise or when it is missing', async () => {
    await expect(seedStatefulSetCheck('etcd-main')(context([statefulSet(3)]))).resolves.toEqual({ status: 'True' });
    await expect(seedStatefulSetCheck('etcd-main')(context([statefulSet(1)]))).resolves.toEqual({
      status: 'False',
      detail: `StatefulSet "etcd-main" in namespace "${NS}" is unhealthy: not enough ready replicas (1/3)`,
    });
    await expect(seedStatefulSetCheck('etcd-main')(context([]))).resolves.toEqual({
      status: 'False',
      detail: `StatefulSet "etcd-main" in namespace "${NS}" not found`,
    });
  });

  it('DaemonSet: in the shoot namespace of the seed, or in kube-system of the shoot', async () => {
    await expect(seedDaemonSetCheck('node-exporter')(context([daemonSet(NS, 0)]))).resolves.toEqual({ status: 'True' });
    const inShoot = shootDaemonSetCheck('node-exporter');
    await expect(inShoot(context([], [daemonSet('kube-system', 0)]))).resolves.toEqual({ status: 'True' });
    await expect(inShoot(context([], [daemonSet('kube-system', 1)]))).resolves.toMatchObject({
      status: 'False',
      detail: expect.stringContaining('too many unavailable pods found (1/2)'),
    });
  });

  it('a check in the shoot without a shoot client could not run (rejects, the condition becomes Unknown)', async () => {
    await expect(shootDaemonSetCheck('node-exporter')(context([daemonSet('kube-system', 0)]))).rejects.toThrow(
      'no shoot client',
    );
  });
});

describe('managedResourceCheck', () => {
  const check = managedResourceCheck('extension-hello-shoot', { progressingThresholdMs: 60_000 });

  it('is True once applied and healthy', async () => {
    await expect(check(context([managedResource(healthy)]))).resolves.toEqual({ status: 'True' });
  });

  it('is False for an outdated generation, a missing or a non-True condition, and a missing ManagedResource', async () => {
    expect(managedResourceProblem(managedResource(healthy, 2, 1) as never)).toBe(
      'observed generation of managed resource outdated (1/2)',
    );
    expect(managedResourceProblem(managedResource(healthy.slice(1)) as never)).toBe(
      'condition ResourcesApplied has not been reported yet',
    );
    const failed = managedResource([
      { type: 'ResourcesApplied', status: 'True' },
      { type: 'ResourcesHealthy', status: 'False', reason: 'NotHealthy', message: 'Deployment hello is unavailable' },
    ]);
    await expect(check(context([failed]))).resolves.toEqual({
      status: 'False',
      detail:
        'ManagedResource "extension-hello-shoot" is unhealthy: condition ResourcesHealthy has invalid status False ' +
        '(expected True) due to NotHealthy: Deployment hello is unavailable',
    });
    await expect(check(context([]))).resolves.toMatchObject({
      status: 'False',
      detail: expect.stringContaining('not found'),
    });
  });

  it('marks an apply the API server rejected as invalid with ERR_CONFIGURATION_PROBLEM, other failures without codes', async () => {
    const applyFailed = (message: string) =>
      managedResource([
        { type: 'ResourcesApplied', status: 'False', reason: 'ApplyFailed', message },
        { type: 'ResourcesHealthy', status: 'True' },
      ]);
    const invalid = applyFailed(
      'Could not apply all new resources:\n* error during apply of object "apps/v1/Deployment/shoot--dev--demo/hello": ' +
        'Deployment.apps "hello" is invalid: spec.replicas: Invalid value: -1',
    );
    await expect(check(context([invalid]))).resolves.toMatchObject({
      status: 'False',
      codes: ['ERR_CONFIGURATION_PROBLEM'],
    });
    const forbidden = applyFailed(
      'Could not apply all new resources:\n* error during apply of object "v1/ConfigMap/default/bad": ' +
        'configmaps "bad" is forbidden',
    );
    const result = await check(context([forbidden]));
    expect(result.status).toBe('False');
    expect(result.codes).toBeUndefined();
  });

  it('is Progressing with the threshold while its objects roll out', async () => {
    const rolling = managedResource([
      ...healthy.slice(0, 2),
      { type: 'ResourcesProgressing', status: 'True', message: 'Deployment hello is rolling out' },
    ]);
    await expect(check(context([rolling]))).resolves.toEqual({
      status: 'Progressing',
      detail: 'ManagedResource "extension-hello-shoot" is progressing: Deployment hello is rolling out',
      progressingThresholdMs: 60_000,
    });
  });
});

describe('shootNodesCheck', () => {
  it('names the Nodes that are not Ready, sorted', async () => {
    const nodes = [node('worker-b', 'False'), node('worker-c', 'True'), node('worker-a', 'Unknown')];
    await expect(shootNodesCheck()(context([], nodes))).resolves.toEqual({
      status: 'False',
      detail: 'Node(s) worker-a, worker-b not ready',
    });
  });

  it('is Progressing while fewer Nodes than expected registered, True once they did', async () => {
    const check = shootNodesCheck({ expectedNodes: () => 2 });
    await expect(check(context([], [node('worker-a', 'True')]))).resolves.toEqual({
      status: 'Progressing',
      detail: 'not enough nodes registered (1/2)',
    });
    await expect(check(context([], [node('worker-a', 'True'), node('worker-b', 'True')]))).resolves.toEqual({
      status: 'True',
    });
  });
});
