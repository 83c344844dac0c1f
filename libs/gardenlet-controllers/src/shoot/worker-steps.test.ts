// The worker steps against the local API server with Gardener's extension CRDs, playing seed and shoot at once: a fake
// provider-local renders the provision OSC's user data Secret and reports the Worker's machine deployments; the steps
// deploy both OSCs of the example shoot's pool with a bootstrap token kept across runs (renewed a week before it
// expires), node-agent's shoot resources (as a ManagedResource, or applied with a shoot client — after which the
// bootstrap token really authenticates and may create CSRs and read the pool's OSC Secret), the Worker with the user
// data Secret; they wait for nodes' checksums, delete stale OSCs, and delete the Worker and the OSCs.
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ApiClient, Kinds, isNotFound, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { kubectl, runKubectl, startTestEnvironment, workspaceRoot, type TestEnvironment } from '@gardener-ts/testing';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { extensionsv1alpha1 } from '@gardener-ts/api';
import { exampleValues } from '../component/testdata/fixtures.js';
import { nodeAgentOSCSecretName } from '../component/operatingsystemconfig.js';
import {
  LegacyBootstrapTokenSecretName,
  workerDeleteSteps,
  NodeAgentManagedResourceName,
  WorkerSteps,
  workerReconcileSteps,
} from './worker-steps.js';

type OSC = extensionsv1alpha1.OperatingSystemConfig & KubernetesObject;
const OSCKind = kind<OSC>('extensions.gardener.cloud/v1alpha1', 'OperatingSystemConfig');
const WorkerKind = kind<extensionsv1alpha1.Worker & KubernetesObject>('extensions.gardener.cloud/v1alpha1', 'Worker');
const ManagedResourceKind = kind('resources.gardener.cloud/v1alpha1', 'ManagedResource');

describe('worker steps of the reconcile flow', () => {
  let env: TestEnvironment;
  let client: ApiClient;
  const values = exampleValues();
  const pool = values.shoot.spec.provider.workers![0]!;
  const caBundle = () => env.server.credentials.ca.certPem;
  const stop = new AbortController();
  let fake: Promise<void> | undefined;
  const wait = { interval: 50, timeout: 20_000 };
  const sshPublicKey = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQCshoot';
  const steps = (shootClient?: boolean) =>
    new WorkerSteps(client, values, {
      nodeAccess: async () => ({ apiServerURL: env.server.url, caBundle: caBundle(), sshPublicKeys: [sshPublicKey] }),
      sshPublicKey: () => sshPublicKey,
      wait,
      ...(shootClient ? { shootClient: async () => client, nodeAgentResources: 'shootClient' as const } : {}),
    });

  // A fake provider-local: OSCs (user data Secret of provision OSCs) and the Worker (its machine deployments).
  async function fakeProviderLocal(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const items = (
        await Promise.all([
          client.list(OSCKind, { namespace: values.namespace }),
          client.list(WorkerKind, { namespace: values.namespace }),
        ])
      ).flatMap((l) => l.items as KubernetesObject[]);
      for (const obj of items) {
        if (obj.metadata?.annotations?.['gardener.cloud/operation'] !== 'reconcile') continue;
        const annotations = { ...obj.metadata.annotations };
        delete annotations['gardener.cloud/operation'];
        const updated = await client.update({ ...obj, metadata: { ...obj.metadata, annotations } });
        const now = new Date().toISOString();
        const status: Record<string, unknown> = {
          observedGeneration: updated.metadata!.generation,
          lastOperation: {
            type: 'Reconcile',
            state: 'Succeeded',
            progress: 100,
            description: 'ok',
            lastUpdateTime: now,
          },
        };
        const spec = (obj as OSC).spec;
        if (obj.kind === 'OperatingSystemConfig' && spec.purpose === 'provision') {
          const name = `osc-result-${obj.metadata.name}`;
          await client.patch(
            Kinds.Secret,
            { namespace: values.namespace, name },
            {
              type: 'apply',
              fieldManager: 'provider-local',
              force: true,
              patch: { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: values.namespace }, data: {} },
            },
          );
          status.cloudConfig = { secretRef: { name, namespace: values.namespace } };
        }
        if (obj.kind === 'Worker') {
          status.machineDeployments = [{ name: `${values.namespace}-local-z1`, minimum: 1, maximum: 2 }];
          status.machineDeploymentsLastUpdateTime = now;
        }
        await client.updateStatus({ ...updated, status } as KubernetesObject);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    env = await startTestEnvironment({ crds: [join(workspaceRoot(), 'deploy/gardener/crds')] });
    client = await ApiClient.create(env.kubeconfigPath);
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: values.namespace } });
    // Its failures fail the tests waiting on it; only once the tests are done may a request cut short by the stop fail.
    fake = fakeProviderLocal(stop.signal).catch((err: unknown) => {
      if (!stop.signal.aborted) throw err;
    });
  });
  afterAll(async () => {
    stop.abort();
    await fake;
    client?.close();
    await env?.stop();
  });

  const fileOf = (osc: OSC, path: string) => {
    const inline = osc.spec.files?.find((f) => f.path === path)?.content.inline;
    return inline?.encoding === 'b64' ? Buffer.from(inline.data, 'base64').toString('utf8') : inline?.data;
  };
  const provisionOSC = () => client.get(OSCKind, { namespace: values.namespace, name: 'cloud-config-local-init' });

  it("deploys both OSCs of the pool with the bootstrap token placeholder (the machine controller's to fill), and waits for them", async () => {
    // The seed Secret of the one shared token of earlier versions goes.
    await client.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: values.namespace, name: LegacyBootstrapTokenSecretName },
      stringData: { token: 'a1b2c3.0123456789abcdef' },
    });
    const first = steps();
    await first.deployOperatingSystemConfig();
    await first.waitForOperatingSystemConfig(stop.signal);
    expect(fileOf(await provisionOSC(), '/var/lib/gardener-node-agent/credentials/bootstrap-token')).toBe(
      '<<BOOTSTRAP_TOKEN>>',
    );
    await expect(
      client.get(Kinds.Secret, { namespace: values.namespace, name: LegacyBootstrapTokenSecretName }),
    ).rejects.toSatisfy(isNotFound);

    const config = parse(fileOf(await provisionOSC(), '/var/lib/gardener-node-agent/config.yaml')!) as {
      apiServer: { server: string; caBundle: string };
    };
    expect(config.apiServer.server).toBe(env.server.url);
    expect(Buffer.from(config.apiServer.caBundle, 'base64').toString()).toBe(caBundle());
    // The nodes authorize the shoot's SSH key (the reconcile OSC, which node-agent applies).
    const reconcileOSC = await client.get(OSCKind, {
      namespace: values.namespace,
      name: 'cloud-config-local-original',
    });
    expect(fileOf(reconcileOSC, '/home/gardener/.ssh/authorized_keys')).toBe(sshPublicKey);

    const second = steps();
    await second.deployOperatingSystemConfig();
    await second.waitForOperatingSystemConfig(stop.signal);
  });

  it("writes node-agent's shoot resources as the ManagedResource shoot-gardener-node-agent", async () => {
    await steps().deployNodeAgentManagedResource();
    const mr = (await client.get(ManagedResourceKind, {
      namespace: values.namespace,
      name: NodeAgentManagedResourceName,
    })) as KubernetesObject & { spec: { secretRefs: { name: string }[] } };
    expect(mr.spec.secretRefs.map((r) => r.name).sort()).toEqual([
      'managedresource-shoot-gardener-node-agent-local',
      'managedresource-shoot-gardener-node-agent-rbac',
    ]);
    const poolSecret = await client.get(Kinds.Secret, {
      namespace: values.namespace,
      name: 'managedresource-shoot-gardener-node-agent-local',
    });
    const [oscSecret] = Object.values(poolSecret.data!).map((v) => JSON.parse(Buffer.from(v, 'base64').toString()));
    expect(oscSecret.metadata).toMatchObject({ name: nodeAgentOSCSecretName(values, pool), namespace: 'kube-system' });
  });

  it('with a shoot client, applies them to the shoot: the bootstrap token may create CSRs and read the OSC Secret', async () => {
    await steps(true).deployNodeAgentManagedResource();
    const oscSecret = await client.get(Kinds.Secret, {
      namespace: 'kube-system',
      name: nodeAgentOSCSecretName(values, pool),
    });
    const osc = parse(Buffer.from(oscSecret.data!['osc.yaml']!, 'base64').toString()) as OSC;
    expect(osc.spec.units?.map((u) => u.name)).toEqual([
      'kubelet.service',
      'gardener-node-agent.service',
      'sshd.service',
    ]);

    // Authenticate as a machine does: only the bootstrap token the machine controller created for it in the shoot.
    const token = 'a1b2c3.0123456789abcdef';
    await client.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { namespace: 'kube-system', name: 'bootstrap-token-a1b2c3' },
      type: 'bootstrap.kubernetes.io/token',
      stringData: {
        'token-id': 'a1b2c3',
        'token-secret': '0123456789abcdef',
        'usage-bootstrap-authentication': 'true',
        expiration: new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      },
    });
    const kubeconfig = join(dirname(env.kubeconfigPath), 'bootstrap-kubeconfig');
    await writeFile(
      kubeconfig,
      `apiVersion: v1
kind: Config
clusters: [{name: shoot, cluster: {server: "${env.server.url}", certificate-authority-data: ${Buffer.from(caBundle()).toString('base64')}}}]
users: [{name: bootstrap, user: {token: ${token}}}]
contexts: [{name: shoot, context: {cluster: shoot, user: bootstrap}}]
current-context: shoot
`,
    );
    expect(await kubectl(kubeconfig, ['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.groups}'])).toContain(
      'system:bootstrappers',
    );
    expect((await kubectl(kubeconfig, ['auth', 'can-i', 'create', 'certificatesigningrequests'])).trim()).toBe('yes');
    const read = await runKubectl(kubeconfig, [
      'get',
      'secret',
      '-n',
      'kube-system',
      nodeAgentOSCSecretName(values, pool),
    ]);
    expect(read.code).toBe(0);
    const other = await runKubectl(kubeconfig, ['get', 'secret', '-n', 'kube-system', 'bootstrap-token-a1b2c3']);
    expect(other.code).not.toBe(0);
  });

  it('deploys the Worker with the user data Secret of the provision OSC and waits for it', async () => {
    const s = steps();
    await s.deployWorker();
    await s.waitForWorkerStatus(stop.signal);
    await s.waitForWorker(stop.signal);
    const worker = await client.get(WorkerKind, { namespace: values.namespace, name: 'local' });
    expect(worker.spec.pools[0]?.userDataSecretRef).toEqual({
      name: 'osc-result-cloud-config-local-init',
      key: 'cloud_config',
    });
    expect(worker.spec.sshPublicKey).toBe(sshPublicKey);
  });

  it("waits until every node of the pool carries its OSC Secret's checksum", async () => {
    const s = steps(true);
    const name = nodeAgentOSCSecretName(values, pool);
    const checksum = (await client.get(Kinds.Secret, { namespace: 'kube-system', name })).metadata!.annotations![
      'checksum/data-script'
    ]!;
    await client.create({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: 'machine-0',
        labels: { 'worker.gardener.cloud/pool': 'local' },
        annotations: { 'checksum/cloud-config-data': 'outdated' },
      },
    });
    const short = new WorkerSteps(client, values, {
      nodeAccess: async () => ({ apiServerURL: env.server.url, caBundle: caBundle() }),
      wait: { interval: 50, timeout: 300 },
      shootClient: async () => client,
    });
    await expect(short.waitForOperatingSystemConfigUpdated(stop.signal)).rejects.toThrow('machine-0');
    await client.patch(
      Kinds.Node,
      { name: 'machine-0' },
      { type: 'merge', patch: { metadata: { annotations: { 'checksum/cloud-config-data': checksum } } } },
    );
    await s.waitForOperatingSystemConfigUpdated(stop.signal);

    expect(workerReconcileSteps(s, { hasShootClient: false }).waitForOperatingSystemConfigUpdated).toEqual({
      skip: expect.stringContaining('shoot client'),
    });
  });
  it('deletes the OSCs of a removed pool and keeps those of the current pools', async () => {
    const stale = {
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'OperatingSystemConfig',
      metadata: { name: 'cloud-config-gone-original', namespace: values.namespace },
      spec: { type: 'local', purpose: 'reconcile' },
    };
    await client.create(stale as KubernetesObject);
    const s = steps();
    await s.deleteStaleOperatingSystemConfigs();
    await s.waitForStaleOperatingSystemConfigsDeleted(stop.signal);
    const names = (await client.list(OSCKind, { namespace: values.namespace })).items.map((o) => o.metadata?.name);
    expect(names.sort()).toEqual(['cloud-config-local-init', 'cloud-config-local-original']);
  });

  it('deletes the Worker and every OSC of the shoot and waits until they are gone', async () => {
    const s = steps();
    const { destroyWorker, waitForWorkerDeleted, destroyOperatingSystemConfigs, waitForOperatingSystemConfigsDeleted } =
      workerDeleteSteps(s) as Record<string, (signal: AbortSignal) => Promise<void>>;
    await destroyWorker!(stop.signal);
    await waitForWorkerDeleted!(stop.signal);
    await destroyOperatingSystemConfigs!(stop.signal);
    await waitForOperatingSystemConfigsDeleted!(stop.signal);
    expect((await client.list(WorkerKind, { namespace: values.namespace })).items).toEqual([]);
    expect((await client.list(OSCKind, { namespace: values.namespace })).items).toEqual([]);
  });
});
