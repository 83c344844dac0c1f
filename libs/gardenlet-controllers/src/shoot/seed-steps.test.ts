// Steps of the reconcile flow against the local API server with Gardener's extension CRDs, run as a flow in
// Gardener's order: the control plane namespace, the Cluster, the shoot's secrets, the Infrastructure, kube-apiserver,
// kube-controller-manager, kube-scheduler, ControlPlane and Network; a fake extension in the test handles the extension
// resources. A second run reuses every secret (no duplicates).
import { join } from 'node:path';
import { ApiClient, Kinds, kind } from '@gardener-ts/controller-runtime';
import { Graph, type ProgressEvent } from '@gardener-ts/flow';
import { startTestEnvironment, waitFor, workspaceRoot, type TestEnvironment } from '@gardener-ts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeExtension as extension } from '../component/testdata/fake-extension.js';
import { exampleValues } from '../component/testdata/fixtures.js';
import { SeedShootSteps } from './seed-steps.js';

describe('seed steps of the reconcile flow', () => {
  let env: TestEnvironment;
  let client: ApiClient;
  const values = exampleValues();
  const infrastructure = kind('extensions.gardener.cloud/v1alpha1', 'Infrastructure');
  const handled = ['Infrastructure', 'ControlPlane', 'Network'].map((k) =>
    kind('extensions.gardener.cloud/v1alpha1', k),
  );

  beforeAll(async () => {
    env = await startTestEnvironment({ crds: [join(workspaceRoot(), 'deploy/gardener/crds')] });
    client = await ApiClient.create(env.kubeconfigPath);
  });
  afterAll(() => env?.stop());

  // A fake provider-local and networking extension: once a resource carries a reconcile request, handle it.
  async function playExtensions(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const items = (await Promise.all(handled.map((k) => client.list(k, { namespace: values.namespace })))).flatMap(
        (l) => l.items,
      );
      for (const obj of items) {
        if (obj.metadata?.annotations?.['gardener.cloud/operation'] !== 'reconcile') continue;
        const ref = {
          apiVersion: obj.apiVersion,
          kind: obj.kind!,
          name: obj.metadata.name!,
          namespace: obj.metadata.namespace,
        };
        await extension(client).handle(ref, { finalizer: false });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function runFlow(steps: SeedShootSteps): Promise<ProgressEvent[]> {
    const g = new Graph('Shoot cluster reconciliation');
    const ns = g.add({ name: 'Deploying Shoot namespace in Seed', fn: steps.deployNamespace });
    g.add({ name: 'Syncing Cluster resource', fn: steps.deployCluster, dependencies: [ns] });
    const secrets = g.add({
      name: 'Initializing secrets management',
      fn: steps.initializeSecretsManagement,
      dependencies: [ns],
    });
    const infra = g.add({
      name: 'Deploying Shoot infrastructure',
      fn: steps.deployInfrastructure,
      dependencies: [secrets],
    });
    const waitInfra = g.add({
      name: 'Waiting until shoot infrastructure has been reconciled',
      fn: ({ signal }) => steps.waitForInfrastructure(signal),
      dependencies: [infra],
    });
    const service = g.add({
      name: 'Deploying Kubernetes API server service in the Seed cluster',
      fn: steps.deployKubeAPIServerService,
      dependencies: [ns],
    });
    const kapi = g.add({
      name: 'Deploying Kubernetes API server',
      fn: steps.deployKubeAPIServer,
      dependencies: [secrets, service, waitInfra],
    });
    g.add({
      name: 'Deploying Kubernetes controller manager',
      fn: steps.deployKubeControllerManager,
      dependencies: [kapi],
    });
    g.add({ name: 'Deploying Kubernetes scheduler', fn: steps.deployKubeScheduler, dependencies: [kapi] });
    const controlPlane = g.add({
      name: 'Deploying shoot control plane components',
      fn: steps.deployControlPlane,
      dependencies: [kapi],
    });
    g.add({
      name: 'Waiting until shoot control plane has been reconciled',
      fn: ({ signal }) => steps.waitForControlPlane(signal),
      dependencies: [controlPlane],
    });
    const network = g.add({ name: 'Deploying shoot network plugin', fn: steps.deployNetwork, dependencies: [kapi] });
    g.add({
      name: 'Waiting until shoot network plugin has been reconciled',
      fn: ({ signal }) => steps.waitForNetwork(signal),
      dependencies: [network],
    });
    const events: ProgressEvent[] = [];
    const extension = new AbortController();
    const running = playExtensions(extension.signal);
    try {
      await g.compile().run({ reporter: { report: (e) => void events.push(e) } });
    } finally {
      extension.abort();
      await running;
    }
    return events;
  }

  it('creates the namespace, Cluster, secrets, control plane and extension resources and reaches 100 %', async () => {
    const steps = new SeedShootSteps(client, values, {
      certificateKey: { algorithm: 'ECDSA' },
      wait: { interval: 50, timeout: 20_000 },
    });
    const events = await runFlow(steps);
    expect(events.at(-1)).toMatchObject({ type: 'flow-finished', stats: { progressPercent: 100 } });

    const ns = await client.get(Kinds.Namespace, { name: 'shoot--local--local' });
    expect(ns.metadata?.labels).toMatchObject({
      'gardener.cloud/role': 'shoot',
      'shoot.gardener.cloud/provider': 'local',
    });
    const cluster = await client.get(kind('extensions.gardener.cloud/v1alpha1', 'Cluster'), {
      name: 'shoot--local--local',
    });
    expect((cluster as unknown as { spec: { shoot: { metadata: { name: string } } } }).spec.shoot.metadata.name).toBe(
      'local',
    );
    const secrets = await client.list(Kinds.Secret, {
      namespace: values.namespace,
      labelSelector: { 'managed-by': 'secrets-manager' },
    });
    const names = secrets.items.map((s) => s.metadata!.name!);
    for (const name of Object.values(steps.secrets.secrets)) expect(names).toContain(name);
    expect(names.some((n) => n.startsWith('kube-apiserver-'))).toBe(true);
    const infra = await client.get(infrastructure, { name: 'local', namespace: values.namespace });
    // The shoot allows SSH: the Infrastructure carries the current public key of its ssh-keypair.
    const [sshPublicKey] = steps.sshPublicKeys();
    expect(sshPublicKey).toMatch(/^ssh-rsa \S+$/);
    expect((infra as unknown as { spec: { sshPublicKey?: string } }).spec.sshPublicKey).toBe(sshPublicKey);
    expect((infra as unknown as { status: { lastOperation: { state: string } } }).status.lastOperation.state).toBe(
      'Succeeded',
    );

    // Again, as after a gardenlet restart: the same secrets, nothing duplicated.
    const again = new SeedShootSteps(client, values, {
      certificateKey: { algorithm: 'ECDSA' },
      wait: { interval: 50, timeout: 20_000 },
    });
    await runFlow(again);
    expect(again.secrets).toEqual(steps.secrets);
    await waitFor('no new secrets', async () => {
      const list = await client.list(Kinds.Secret, {
        namespace: values.namespace,
        labelSelector: { 'managed-by': 'secrets-manager' },
      });
      return list.items.length === secrets.items.length;
    });
    expect(await again.namespaceActive()).toBe(true);
  });
});
