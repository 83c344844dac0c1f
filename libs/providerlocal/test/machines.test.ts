// The local machine controller against the local API server with Gardener's machine.sapcloud.io CRDs: a
// MachineDeployment of two machines yields two MachineSet Machines and two machine Pods; Machines turn Running when
// their Pods are ready (the test plays the kubelet); a new MachineClass rolls the machines with maxSurge 1 /
// maxUnavailable 0 (never more than three machines, never fewer than two available); deleting the deployment
// removes machines and Pods. A machine whose Pod stops being ready turns Unknown, Failed after the (short) health
// timeout, and its MachineSet replaces it (without a shoot access Secret, Nodes count as Ready: the NotReady Node
// paths are in the reconciler's unit test).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, Kinds, Manager, type PodObject } from '@gardener-ts/controller-runtime';
import { gardenerAsset, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addMachineControllers } from '../src/machine/add.js';
import {
  MachineClassKind,
  MachineDeploymentKind,
  MachineKind,
  MachineSetKind,
  phaseOf,
  type MachineDeployment,
} from '../src/machine/objects.js';

const crd = (plural: string) => gardenerAsset('crds', `10-crd-machine.sapcloud.io_${plural}.yaml`);
const namespace = 'shoot--local--machines';

let env: TestEnvironment;
let client: ApiClient;
let mgr: Manager;

beforeAll(async () => {
  env = await startTestEnvironment({
    crds: [crd('machineclasses'), crd('machinedeployments'), crd('machinesets'), crd('machines')],
  });
  client = await ApiClient.create(env.kubeconfigPath);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  mgr = await Manager.create({ clusters: { seed: { kubeConfig: env.kubeconfigPath } }, gracefulShutdownTimeoutMs: 0 });
  // Short health timeout and period so a failing machine is replaced within the test; MCM's creation timeout.
  addMachineControllers(mgr, { healthTimeoutMs: 2000, healthCheckPeriodMs: 500 });
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  client?.close();
  await env?.stop();
});

const machineClass = (name: string, image: string) => ({
  apiVersion: 'machine.sapcloud.io/v1alpha1',
  kind: 'MachineClass',
  metadata: { name, namespace },
  providerSpec: { image },
  secretRef: { name: `${name}-userdata`, namespace },
  nodeTemplate: { capacity: { cpu: '100', memory: '100Gi' }, instanceType: 'local', region: 'local', zone: '' },
  provider: 'local',
});

const deployment: MachineDeployment = {
  apiVersion: 'machine.sapcloud.io/v1alpha1',
  kind: 'MachineDeployment',
  metadata: { name: 'shoot--local--machines-worker-z1', namespace },
  spec: {
    replicas: 2,
    minReadySeconds: 0,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    selector: { matchLabels: { name: 'shoot--local--machines-worker-z1' } },
    template: {
      metadata: { labels: { name: 'shoot--local--machines-worker-z1' } },
      spec: {
        class: { kind: 'MachineClass', name: 'worker-a' },
        nodeTemplate: { metadata: { labels: { 'worker.gardener.cloud/pool': 'worker' } } },
      },
    },
  },
};

const machines = async () => (await client.list(MachineKind, { namespace })).items;
const pods = async () => (await client.list(Kinds.Pod, { namespace })).items;

/** Plays the kubelet: every machine Pod that is not Running and ready becomes so. */
async function runPods(): Promise<void> {
  for (const pod of await pods()) {
    if (pod.metadata?.deletionTimestamp || pod.status?.phase === 'Running') continue;
    await client.patch(
      Kinds.Pod,
      { namespace, name: pod.metadata!.name! },
      {
        type: 'merge',
        patch: {
          status: {
            phase: 'Running',
            podIP: '10.0.0.1',
            conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date().toISOString() }],
          },
        },
      },
      { subresource: 'status' },
    );
  }
}

describe('the local machine controller', () => {
  it('creates, rolls and deletes machines', async () => {
    await client.create(machineClass('worker-a', 'gardener-ts/machine'));
    await client.create(machineClass('worker-b', 'gardener-ts/machine'));
    await client.create(deployment);

    const firstPods = await waitFor('two machine Pods', async () => {
      const list = await pods();
      return list.length === 2 ? list : undefined;
    });
    const pod = firstPods[0] as PodObject & { spec: { containers: { image: string }[]; volumes: unknown[] } };
    expect(pod.metadata?.labels).toMatchObject({ app: 'machine' });
    expect(pod.spec.containers[0].image).toBe('gardener-ts/machine');
    expect(pod.spec.volumes).toMatchObject([{ name: 'userdata', secret: { secretName: 'worker-a-userdata' } }]);
    await waitFor('two Pending machines', async () => {
      const list = await machines();
      return list.length === 2 && list.every((m) => phaseOf(m) === 'Pending') ? list : undefined;
    });

    await runPods();
    const running = await waitFor('two Running machines', async () => {
      const list = await machines();
      return list.length === 2 && list.every((m) => phaseOf(m) === 'Running') ? list : undefined;
    });
    for (const m of running) {
      expect(m.metadata?.labels?.node).toBe(`machine-${m.metadata!.name}`);
      expect(m.metadata?.finalizers).toEqual(['machine.sapcloud.io/machine-controller-manager']);
      expect(m.status?.addresses).toEqual([{ type: 'InternalIP', address: '10.0.0.1' }]);
    }
    await waitFor('the deployment to report two available machines', async () => {
      const md = await client.get(MachineDeploymentKind, { namespace, name: deployment.metadata!.name! });
      return md.status?.availableReplicas === 2 && md.status.updatedReplicas === 2 ? md : undefined;
    });

    // A new machine class (as a new machine image version makes one): the machines roll one by one.
    await client.patch(
      MachineDeploymentKind,
      { namespace, name: deployment.metadata!.name! },
      { type: 'merge', patch: { spec: { template: { spec: { class: { kind: 'MachineClass', name: 'worker-b' } } } } } },
    );
    let mostMachines = 0;
    let fewestRunning = Infinity;
    await waitFor(
      'two Running machines of class worker-b and no other',
      async () => {
        const list = await machines();
        // maxSurge bounds the machines that are not being deleted (as machine-controller-manager and kube's
        // Deployment controller count): one of an old set may still be terminating when the next new one comes.
        mostMachines = Math.max(mostMachines, list.filter((m) => !m.metadata?.deletionTimestamp).length);
        const available = list.filter((m) => phaseOf(m) === 'Running' && !m.metadata?.deletionTimestamp).length;
        fewestRunning = Math.min(fewestRunning, available);
        await runPods();
        return list.length === 2 && list.every((m) => m.spec?.class?.name === 'worker-b' && phaseOf(m) === 'Running')
          ? list
          : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(mostMachines).toBeLessThanOrEqual(3);
    expect(fewestRunning).toBeGreaterThanOrEqual(2);
    await waitFor('the old MachineSet to go', async () => {
      const sets = (await client.list(MachineSetKind, { namespace })).items;
      return sets.length === 1 ? sets : undefined;
    });

    await client.delete(MachineDeploymentKind, { namespace, name: deployment.metadata!.name! });
    await waitFor(
      'machines and their Pods to be gone',
      async () => ((await machines()).length === 0 && (await pods()).length === 0 ? true : undefined),
      { timeoutMs: 30_000 },
    );
    expect((await client.list(MachineClassKind, { namespace })).items).toHaveLength(2);
  }, 90_000);

  it('replaces a machine whose Pod is not ready any more after the health timeout', async () => {
    const name = 'shoot--local--machines-worker-z2';
    await client.create({
      ...deployment,
      metadata: { name, namespace },
      spec: {
        ...deployment.spec!,
        selector: { matchLabels: { name } },
        template: { ...deployment.spec!.template, metadata: { labels: { name } } },
      },
    } as MachineDeployment);
    const ofDeployment = async () => (await machines()).filter((m) => m.metadata?.labels?.name === name);
    const first = await waitFor(
      'two Running machines',
      async () => {
        await runPods();
        const list = await ofDeployment();
        return list.length === 2 && list.every((m) => phaseOf(m) === 'Running') ? list : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );

    // The VM of one machine stops being healthy (its Pod's ready condition goes False).
    const sick = first[0]!;
    const sickPod = `machine-${sick.metadata!.name}`;
    await client.patch(
      Kinds.Pod,
      { namespace, name: sickPod },
      {
        type: 'merge',
        patch: {
          status: { conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: new Date().toISOString() }] },
        },
      },
      { subresource: 'status' },
    );
    const phases: string[] = [];
    const unknown = await waitFor('the machine to turn Unknown', async () => {
      const m = (await ofDeployment()).find((x) => x.metadata?.name === sick.metadata!.name);
      if (m && phases.at(-1) !== phaseOf(m)) phases.push(phaseOf(m) ?? '');
      return m && phaseOf(m) === 'Unknown' ? m : undefined;
    });
    expect(unknown.status?.lastOperation).toMatchObject({ type: 'HealthCheck', state: 'Processing' });
    expect(unknown.status?.lastOperation?.description).toContain(`machine Pod ${sickPod} is not ready`);
    // Not Failed before the health timeout, and replaced after it by a new machine that runs.
    const unknownSince = Date.parse(unknown.status!.currentStatus!.lastUpdateTime!);
    const replaced = await waitFor(
      'the machine to be replaced by a new Running one',
      async () => {
        await runPods();
        const list = await ofDeployment();
        const old = list.find((x) => x.metadata?.name === sick.metadata!.name);
        if (old && phases.at(-1) !== phaseOf(old)) phases.push(phaseOf(old) ?? '');
        if (old?.status?.currentStatus?.phase === 'Failed') {
          expect(Date.parse(old.status.currentStatus.lastUpdateTime!) - unknownSince).toBeGreaterThanOrEqual(2000);
        }
        return !old && list.length === 2 && list.every((m) => phaseOf(m) === 'Running') ? list : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(Date.now() - unknownSince).toBeGreaterThanOrEqual(2000);
    expect(replaced.map((m) => m.metadata!.name)).toContain(first[1]!.metadata!.name);
    expect(phases.slice(0, 2)).toEqual(['Running', 'Unknown']);
    expect(phases).not.toContain('Pending');

    await client.delete(MachineDeploymentKind, { namespace, name });
    await waitFor(
      'the machines of the deployment to be gone',
      async () => ((await ofDeployment()).length === 0 ? true : undefined),
      { timeoutMs: 30_000 },
    );
  }, 90_000);
});
