// The whole chain of a shoot's worker node in local mode, with a seed and a shoot API server: the gardenlet's
// OperatingSystemConfigs of Gardener's provider-local example Shoot; provider-local's OSC actuator renders the
// provision OSC into user data, its MachineClass Secret carries it, and the local machine controller turns a Machine
// into a Pod (image gardener-ts/machine) that the seed's process kubelet runs — the machine program, built. In it
// gardener-node-agent bootstraps with the bootstrap token (its CSR approved by gardener-resource-manager's approver,
// which finds the Machine in the seed), applies the reconcile OSC from the shoot, and the kubelet unit joins the shoot
// (csrapproving of the shoot's controller manager): the Node is Ready in the shoot with its pool's OSC checksum.
// Needs `dist/apps/node-agent` and `dist/tools/gardener-local`: `npx nx run-many -t build -p node-agent gardener-local`.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { CloudProfile, Seed, Shoot, extensionsv1alpha1 } from '@gardener-ts/api';
import { ApiClient, Kinds, kind, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import {
  nodeAgentOSCSecretName,
  renderNodeAgentOSCSecret,
  renderNodeAgentRBAC,
  renderOperatingSystemConfigs,
  type ShootValues,
} from '@gardener-ts/gardenlet-controllers';
import {
  builtinImageMap,
  startControllerManager,
  startKubelet,
  type ControllerManager,
  type Kubelet,
} from '@gardener-ts/local-cluster';
import { createLogger } from '@gardener-ts/logging';
import {
  CloudConfigDataKey,
  MachineReconciler,
  OperatingSystemConfigActuator,
  bootstrapTokenID,
  bootstrapTokenSecret,
  machinePodName,
  type MachineBootstrapTokens,
} from '@gardener-ts/providerlocal';
import { CSRApprover } from '@gardener-ts/resourcemanager';
import {
  startTestCluster,
  startTestEnvironment,
  waitFor,
  workspaceRoot,
  type TestCluster,
  type TestEnvironment,
} from '@gardener-ts/testing';

type OSC = extensionsv1alpha1.OperatingSystemConfig;
const namespace = 'shoot--local--local';
const machineName = `${namespace}-local-z1-5b8c4-x7k2p`;
const nodeName = machinePodName(machineName);
const log = createLogger({ name: 'machine-pod', level: process.env.KEEP_MACHINE_ROOT ? 'info' : 'warn' });
const example = <T>(file: string): T =>
  parse(readFileSync(join(workspaceRoot(), 'deploy/gardener/examples/local', file), 'utf8')) as T;

let seed: TestEnvironment;
let shoot: TestCluster;
let seedClient: ApiClient;
let shootClient: ApiClient;
let seedControllers: ControllerManager;
let shootControllers: ControllerManager;
let seedKubelet: Kubelet | undefined;
let dataDir: string;
const stop = new AbortController();

function exampleValues(): ShootValues {
  const s = example<Shoot>('shoot.yaml');
  s.spec.kubernetes.version = '1.33.0';
  const networks = { pods: '10.1.0.0/16', services: '10.2.0.0/16', shootDefaults: { services: '10.4.0.0/16' } };
  const seedObject = { metadata: { name: 'local' }, spec: { networks } } as unknown as Seed;
  return { shoot: s, seed: seedObject, cloudProfile: example<CloudProfile>('cloudprofile.yaml'), namespace };
}

// gardener-resource-manager of the shoot: CSRs in the shoot, Machines in the seed.
async function runCSRApprover(): Promise<void> {
  const approver = new CSRApprover({ target: shootClient, source: seedClient, machineNamespace: namespace });
  const CSRKind = kind('certificates.k8s.io/v1', 'CertificateSigningRequest');
  while (!stop.signal.aborted) {
    for (const csr of (await shootClient.list(CSRKind).catch(() => ({ items: [] }))).items) {
      await approver
        .reconcile({ namespace: '', name: csr.metadata!.name! }, { signal: stop.signal, log, controller: 'csr' })
        .catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// The machine's bootstrap token in the shoot, as provider-local's machine controller creates it (there through the
// seed's shoot access Secret, here with the shoot client); the names of the tokens it created.
const tokensCreated: string[] = [];
const shootTokens = (): MachineBootstrapTokens => ({
  async ensure(_namespace, machine, expiration) {
    const secret = bootstrapTokenSecret(machine, '0123456789abcdef', expiration) as KubernetesObject;
    await shootClient.create(secret).catch(() => undefined);
    tokensCreated.push(secret.metadata!.name!);
    return `${bootstrapTokenID(machine)}.0123456789abcdef`;
  },
  async delete(_namespace, machine) {
    await shootClient
      .delete(Kinds.Secret, { namespace: 'kube-system', name: `bootstrap-token-${bootstrapTokenID(machine)}` })
      .catch(() => undefined);
  },
});

// The local machine controller for one Machine (provider-local's MachineReconciler, polled).
async function runMachineController(): Promise<void> {
  const reconciler = new MachineReconciler(
    seedClient as unknown as Client,
    undefined,
    undefined,
    undefined,
    // Whether the machine's Node has joined the shoot and is Ready (there through the shoot access Secret).
    async (_namespace, name) => {
      const node = await shootClient.get(Kinds.Node, { name }).catch(() => undefined);
      if (!node) return { state: 'NotFound' };
      return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')
        ? { state: 'Ready' }
        : { state: 'NotReady', conditions: 'Ready is not True' };
    },
    shootTokens(),
  );
  while (!stop.signal.aborted) {
    await reconciler.reconcile({ namespace, name: machineName }).catch((err: unknown) => log.info({ err }, 'retry'));
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

beforeAll(async () => {
  [seed, shoot] = await Promise.all([
    startTestEnvironment({ crds: [join(workspaceRoot(), 'deploy/gardener/crds')] }),
    startTestCluster(),
  ]);
  seedClient = await ApiClient.create(seed.kubeconfigPath);
  shootClient = await ApiClient.create(shoot.kubeconfigPath);
  seedControllers = await startControllerManager({ kubeConfig: seed.kubeconfigPath, controllers: ['scheduler'] });
  shootControllers = await startControllerManager({ kubeConfig: shoot.kubeconfigPath, controllers: ['csrapproving'] });
  dataDir = await mkdtemp(join(tmpdir(), 'machine-pod-'));
  seedKubelet = await startKubelet({
    kubeconfig: seed.kubeconfigPath,
    nodeName: 'seed-node',
    dataDir,
    imageMap: builtinImageMap({ workspace: workspaceRoot() }),
    workspace: workspaceRoot(),
    port: 0,
    logger: log.child({ kubelet: 'seed' }),
  });
}, 90_000);

afterAll(async () => {
  stop.abort();
  // The machine goes first (its kubelet and node-agent stop with it), while the seed's kubelet still reports.
  await seedClient?.delete(Kinds.Pod, { namespace, name: nodeName }).catch(() => undefined);
  await waitFor(
    'the machine Pod to be gone',
    async () =>
      (await seedClient.get(Kinds.Pod, { namespace, name: nodeName }).catch(() => undefined)) ? undefined : true,
    { timeoutMs: 30_000, intervalMs: 200 },
  ).catch(() => undefined);
  await seedKubelet?.stop();
  await Promise.all([seedControllers?.stop(), shootControllers?.stop()]);
  seedClient?.close();
  shootClient?.close();
  await Promise.all([seed?.stop(), shoot?.stop()]);
  if (dataDir && !process.env.KEEP_MACHINE_ROOT) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

describe('a machine Pod of provider-local', () => {
  it("runs the provision OSC's user data and its Node becomes Ready in the shoot", async () => {
    const values = exampleValues();
    const pool = values.shoot.spec.provider.workers![0]!;
    const [provision, original] = renderOperatingSystemConfigs(values, {
      now: new Date().toISOString(),
      apiServerURL: shoot.server.url,
      caBundle: shoot.server.credentials.ca.certPem,
    }) as [OSC, OSC];

    // The shoot: node-agent's resources, as the shoot-gardener-node-agent ManagedResource carries them.
    const oscSecretName = nodeAgentOSCSecretName(values, pool);
    const oscSecret = renderNodeAgentOSCSecret(original, oscSecretName, pool.name) as unknown as KubernetesObject & {
      metadata: { annotations: Record<string, string> };
    };
    for (const obj of [...renderNodeAgentRBAC([oscSecretName]), oscSecret] as KubernetesObject[]) {
      await shootClient.patch(
        kind(obj.apiVersion!, obj.kind!),
        { name: obj.metadata!.name!, namespace: obj.metadata?.namespace },
        {
          type: 'apply',
          patch: obj as Record<string, unknown>,
          fieldManager: 'gardener-resource-manager',
          force: true,
        },
      );
    }

    // The seed: the provision OSC rendered by provider-local, a MachineClass with its user data, a Machine.
    await seedClient.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    const deployed = await seedClient.create(provision as unknown as KubernetesObject);
    await new OperatingSystemConfigActuator().reconcile(
      { client: seedClient as unknown as Client, log, signal: stop.signal },
      deployed as never,
    );
    const result = await seedClient.get(Kinds.Secret, { namespace, name: `osc-result-${provision.metadata!.name}` });
    const className = `${namespace}-local-z1-abcde`;
    await seedClient.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: className, namespace },
      data: { userData: result.data![CloudConfigDataKey]! },
    });
    await seedClient.create({
      apiVersion: 'machine.sapcloud.io/v1alpha1',
      kind: 'MachineClass',
      metadata: { name: className, namespace },
      provider: 'local',
      providerSpec: {},
      secretRef: { name: className, namespace },
    } as KubernetesObject);
    await seedClient.create({
      apiVersion: 'machine.sapcloud.io/v1alpha1',
      kind: 'Machine',
      metadata: { name: machineName, namespace },
      spec: { class: { kind: 'MachineClass', name: className } },
    } as KubernetesObject);
    void runMachineController();
    void runCSRApprover();

    const node = await waitFor(
      'the Node to be Ready in the shoot with its OSC checksum',
      async () => {
        const n = await shootClient.get(Kinds.Node, { name: nodeName }).catch(() => undefined);
        const ready = n?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
        return ready &&
          n?.metadata?.annotations?.['checksum/cloud-config-data'] ===
            oscSecret.metadata.annotations['checksum/data-script']
          ? n
          : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    ).catch(async (err: unknown) => {
      const pod = await seedClient.get(Kinds.Pod, { namespace, name: nodeName }).catch(() => undefined);
      throw new Error(`${String(err)}\nmachine Pod status: ${JSON.stringify(pod?.status)}`, { cause: err });
    });
    expect(node.metadata?.labels?.['worker.gardener.cloud/pool']).toBe('local');
    const machine = await seedClient.get(kind('machine.sapcloud.io/v1alpha1', 'Machine'), {
      namespace,
      name: machineName,
    });
    expect(machine.metadata?.labels?.node).toBe(nodeName);
    // The machine bootstrapped with its own token, which the machine controller filled into its user data, and
    // deletes once the machine runs.
    expect(tokensCreated).toContain(`bootstrap-token-${bootstrapTokenID(machineName)}`);
    await waitFor(
      'the bootstrap token of the running machine to be deleted',
      async () =>
        (await shootClient
          .get(Kinds.Secret, { namespace: 'kube-system', name: `bootstrap-token-${bootstrapTokenID(machineName)}` })
          .catch(() => undefined)) === undefined,
      { timeoutMs: 30_000, intervalMs: 500 },
    );
  }, 150_000);
});
