// The gardenlet against the local API server, the garden and the seed being the same cluster (as in the local
// landscape): Gardener's example configuration with only the kubeconfigs and the seed changed, a bootstrap token,
// the CSR approved here as gardener-controller-manager would. The Seed `local` is registered, GardenletReady and
// Bootstrapped turn True, the seed system components are deployed; a restart uses the stored kubeconfig; a renewal
// requested on the kubeconfig Secret yields a new certificate.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import * as x509 from '@peculiar/x509';
import { generatedCRDs } from '@gardener-ts/api';
import { gardenletConfigSpec, loadComponentConfig, type GardenletConfiguration } from '@gardener-ts/component-config';
import {
  ApiClient,
  Checks,
  Kinds,
  type ComponentContext,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';
import { kubectl, startTestEnvironment, waitFor, workspaceRoot, type TestEnvironment } from '@gardener-ts/testing';
import { SeedKind, startGardenlet, type Seed } from '../src/index.js';
import { bootstrapManifests, exampleGardenletConfig } from '../src/testing/index.js';

const root = workspaceRoot();
const assets = {
  helmBinary: join(root, 'tools/k8s-binaries/vendor/helm'),
  chartsDir: join(root, 'deploy/charts'),
  crdDirs: [join(root, 'deploy/gardener/crds')],
};

let env: TestEnvironment;
let admin: ApiClient;
let configPath: string;
let dir: string;
const logs: string[] = [];

interface CSR extends KubernetesObject {
  spec: { request: string; signerName: string; username?: string; groups?: string[] };
  status?: { certificate?: string; conditions?: { type: string }[] };
}

/** Approves every pending gardenlet CSR, as gardener-controller-manager's CSR approver does. */
async function approvePendingSeedCSRs(): Promise<string[]> {
  const list = await admin.list(Kinds.CertificateSigningRequest);
  const pending = (list.items as CSR[]).filter(
    (c) => c.metadata?.name?.startsWith('seed-csr-') && !c.status?.conditions?.length,
  );
  for (const csr of pending) await kubectl(env.kubeconfigPath, ['certificate', 'approve', csr.metadata!.name!]);
  return pending.map((c) => c.metadata!.name!);
}

async function seed(): Promise<Seed | undefined> {
  return admin.get(SeedKind, { name: 'local' }).catch(() => undefined);
}
const condition = (s: Seed | undefined, type: string) => s?.status?.conditions?.find((c) => c.type === type);

async function kubeconfigSecretCertificate(): Promise<x509.X509Certificate | undefined> {
  const secret = await admin
    .get(Kinds.Secret, { namespace: 'garden', name: 'gardenlet-kubeconfig' })
    .catch(() => undefined);
  if (!secret?.data?.kubeconfig) return undefined;
  const kubeconfig = parse(Buffer.from(secret.data.kubeconfig, 'base64').toString('utf8'));
  return new x509.X509Certificate(
    Buffer.from(kubeconfig.users[0].user['client-certificate-data'], 'base64').toString('utf8'),
  );
}

async function start(options: { onRotated?: () => void } = {}) {
  const { config } = await loadComponentConfig(gardenletConfigSpec, configPath);
  const abort = new AbortController();
  const health = new Checks();
  const endpoint = { address: '127.0.0.1', port: 0 };
  const ctx = {
    config,
    log: createLogger({
      name: 'gardenlet',
      level: 'info',
      destination: new Writable({ write: (c, _e, done) => (logs.push(String(c)), done()) }),
    }),
    metrics: new Registry(),
    health,
    ready: new Checks(),
    endpoints: { healthProbes: endpoint, metrics: endpoint },
    signal: abort.signal,
    fail: () => undefined,
  } as unknown as ComponentContext<GardenletConfiguration>;
  // The gardenlet waits for its CSR while starting; approve it meanwhile.
  let starting = true;
  const approver = (async () => {
    while (starting) {
      await approvePendingSeedCSRs();
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  try {
    const stop = await startGardenlet(ctx, {
      assets,
      csrPollMs: 100,
      rotationCheckIntervalMs: 200,
      onCertificateRotated: options.onRotated,
    });
    return { health, stop: async () => (abort.abort(), await stop()) };
  } finally {
    starting = false;
    await approver;
  }
}

beforeAll(async () => {
  env = await startTestEnvironment({ crds: generatedCRDs() });
  admin = await ApiClient.create(env.kubeconfigPath);
  // What an operator prepares for the gardenlet (see src/testing).
  await kubectl(env.kubeconfigPath, ['apply', '-f', '-'], {
    input: bootstrapManifests(await readFile(env.kubeconfigPath, 'utf8')),
  });
  dir = await mkdtemp(join(tmpdir(), 'gardenlet-test-'));
  configPath = join(dir, 'config.yaml');
  await writeFile(
    configPath,
    exampleGardenletConfig(
      await readFile(join(root, 'apps/gardenlet/test/fixtures/config.yaml'), 'utf8'),
      await readFile(join(root, 'deploy/gardener/examples/50-seed.yaml'), 'utf8'),
      { seedKubeconfig: env.kubeconfigPath, seedName: 'local' },
    ),
  );
}, 60_000);

afterAll(async () => {
  admin?.close();
  await env?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('gardenlet with a bootstrap token', () => {
  it('bootstraps its certificate, registers Seed local, heartbeats and bootstraps the seed', async () => {
    const gardenlet = await start();
    try {
      // TLS bootstrap: the CSR was created by the bootstrap token for the seed's identity and signed.
      const csrs = (await admin.list(Kinds.CertificateSigningRequest)).items as CSR[];
      const csr = csrs.find((c) => c.metadata?.name?.startsWith('seed-csr-'))!;
      expect(csr.spec).toMatchObject({
        signerName: 'kubernetes.io/kube-apiserver-client',
        username: 'system:bootstrap:abcdef',
      });
      const request = new x509.Pkcs10CertificateRequest(Buffer.from(csr.spec.request, 'base64').toString('utf8'));
      expect(request.subject).toBe('CN=gardener.cloud:system:seed:local, O=gardener.cloud:system:seeds');
      const cert = await kubeconfigSecretCertificate();
      expect(cert?.subject).toBe('CN=gardener.cloud:system:seed:local, O=gardener.cloud:system:seeds');
      expect(
        await admin
          .get(Kinds.Secret, { namespace: 'garden', name: 'gardenlet-kubeconfig-bootstrap' })
          .catch(() => 'gone'),
      ).toBe('gone');

      // Registration from seedConfig.
      const registered = await seed();
      expect(registered?.metadata?.labels).toMatchObject({
        'gardener.cloud/role': 'seed',
        'seed.gardener.cloud/provider': 'local',
        'seed.gardener.cloud/region': 'europe-1',
      });
      expect(registered?.spec.ingress?.domain).toBe('ingress.dev.my-seed.example.com');

      // Heartbeats.
      await waitFor('GardenletReady True', async () => condition(await seed(), 'GardenletReady')?.status === 'True', {
        timeoutMs: 20_000,
      });
      const lease = await admin.get(Kinds.Lease, { namespace: 'gardener-system-seed-lease', name: 'local' });
      expect(lease.spec).toMatchObject({ holderIdentity: 'local', leaseDurationSeconds: 2 });
      expect(lease.metadata?.ownerReferences?.[0]).toMatchObject({
        kind: 'Seed',
        name: 'local',
        uid: registered?.metadata?.uid,
      });
      await waitFor(
        'the Lease renewed again',
        async () => {
          const again = await admin.get(Kinds.Lease, { namespace: 'gardener-system-seed-lease', name: 'local' });
          return again.spec?.renewTime !== lease.spec?.renewTime;
        },
        { timeoutMs: 20_000 },
      );
      expect((await gardenlet.health.run()).results['seed-lease']).toBe(true);

      // The seed main reconciler.
      const bootstrapped = await waitFor(
        'Bootstrapped True',
        async () => {
          const s = await seed();
          const c = condition(s, 'Bootstrapped');
          if (c?.status === 'False') throw new Error(`Bootstrapped False: ${c.message}`);
          return c?.status === 'True' ? s : undefined;
        },
        { timeoutMs: 60_000 },
      );
      expect(bootstrapped.status).toMatchObject({
        kubernetesVersion: 'v1.35.0-gardener-ts',
        observedGeneration: bootstrapped.metadata?.generation,
        capacity: { shoots: '200' },
        allocatable: { shoots: '200' },
      });
      expect(bootstrapped.status?.gardener?.version).toMatch(/^\d+\.\d+\.\d+/);
      const pc = (await admin.get(Kinds.PriorityClass, { name: 'gardener-system-critical' })) as { value?: number };
      expect(pc.value).toBe(999998950);
      for (const name of [
        'infrastructures.extensions.gardener.cloud',
        'managedresources.resources.gardener.cloud',
        'machines.machine.sapcloud.io',
      ]) {
        expect((await admin.get(Kinds.CustomResourceDefinition, { name })).metadata?.name).toBe(name);
      }
      const grm = (await admin.get(Kinds.Deployment, { namespace: 'garden', name: 'gardener-resource-manager' })) as {
        spec?: { template?: { spec?: { containers?: { image?: string }[] } } };
      };
      expect(grm.spec?.template?.spec?.containers?.[0]?.image).toMatch(/^gardener-ts\/resource-manager:/);

      // Without a running gardener-resource-manager (no kubelet here) the care reconciler reports it.
      await waitFor(
        'SeedSystemComponentsHealthy reported',
        async () => {
          const c = condition(await seed(), 'SeedSystemComponentsHealthy');
          return c && c.status !== 'Unknown' ? c : undefined;
        },
        { timeoutMs: 20_000 },
      );
      expect(condition(await seed(), 'SeedSystemComponentsHealthy')?.message).toContain(
        'deployment "gardener-resource-manager"',
      );
    } finally {
      await gardenlet.stop();
    }
  });

  it('restarted, uses the stored kubeconfig without a new CSR, and renews it when the Secret asks for it', async () => {
    const before = (await admin.list(Kinds.CertificateSigningRequest)).items.length;
    const oldCert = await kubeconfigSecretCertificate();
    let rotated = false;
    const gardenlet = await start({ onRotated: () => (rotated = true) });
    try {
      expect((await admin.list(Kinds.CertificateSigningRequest)).items.length).toBe(before);
      await waitFor(
        'GardenletReady True again',
        async () => condition(await seed(), 'GardenletReady')?.status === 'True',
      );

      await kubectl(env.kubeconfigPath, [
        '-n',
        'garden',
        'annotate',
        'secret',
        'gardenlet-kubeconfig',
        'gardener.cloud/operation=renew',
      ]);
      await waitFor('a new CSR approved', async () => (await approvePendingSeedCSRs()).length > 0 || undefined, {
        timeoutMs: 20_000,
      });
      await waitFor('the rotated kubeconfig stored', () => rotated, { timeoutMs: 20_000 });
      const newCert = await kubeconfigSecretCertificate();
      expect(newCert?.serialNumber).not.toBe(oldCert?.serialNumber);
      expect(newCert?.subject).toBe('CN=gardener.cloud:system:seed:local, O=gardener.cloud:system:seeds');
      const secret = await admin.get(Kinds.Secret, { namespace: 'garden', name: 'gardenlet-kubeconfig' });
      expect(secret.metadata?.annotations?.['gardener.cloud/operation']).toBeUndefined();
      // The renewal CSR was made with the gardenlet's certificate, not the (deleted) bootstrap token.
      const csrs = (await admin.list(Kinds.CertificateSigningRequest)).items as CSR[];
      expect(csrs.map((c) => c.spec.username)).toContain('gardener.cloud:system:seed:local');
    } finally {
      await gardenlet.stop();
    }
  });

  it('installs an extension from a ControllerDeployment with an inline chart and follows its ManagedResource', async () => {
    // A minimal extension chart, packaged with helm as an extension author would, inlined as helm.rawChart.
    const chartDir = join(dir, 'chart', 'my-extension');
    await mkdir(join(chartDir, 'templates'), { recursive: true });
    await writeFile(join(chartDir, 'Chart.yaml'), 'apiVersion: v2\nname: my-extension\nversion: 0.1.0\n');
    await writeFile(join(chartDir, 'values.yaml'), 'replicas: 1\n');
    await writeFile(
      join(chartDir, 'templates', 'deployment.yaml'),
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: my-extension
  namespace: {{ .Release.Namespace }}
  labels:
    seed: {{ .Values.gardener.seed.name }}
    provider: {{ .Values.gardener.seed.spec.provider.type }}
spec:
  replicas: {{ .Values.replicas }}
  selector: {matchLabels: {app: my-extension}}
  template:
    metadata: {labels: {app: my-extension}}
    spec: {containers: [{name: ext, image: example.com/my-extension:v1}]}
`,
    );
    const env2 = {
      ...process.env,
      HELM_CACHE_HOME: join(dir, 'h'),
      HELM_CONFIG_HOME: join(dir, 'h'),
      HELM_DATA_HOME: join(dir, 'h'),
    };
    await promisify(execFile)(assets.helmBinary, ['package', chartDir, '--destination', join(dir, 'chart')], {
      env: env2,
    });
    const rawChart = (await readFile(join(dir, 'chart', 'my-extension-0.1.0.tgz'))).toString('base64');
    await kubectl(env.kubeconfigPath, ['apply', '-f', '-'], {
      input: `apiVersion: core.gardener.cloud/v1
kind: ControllerDeployment
metadata: {name: my-extension}
helm:
  rawChart: ${rawChart}
  values: {replicas: 3}
---
apiVersion: core.gardener.cloud/v1beta1
kind: ControllerRegistration
metadata: {name: my-extension}
spec:
  resources: [{kind: Extension, type: my-extension}]
  deployment: {deploymentRefs: [{name: my-extension}]}
---
apiVersion: core.gardener.cloud/v1beta1
kind: ControllerInstallation
metadata: {name: my-extension-x7k2p}
spec:
  registrationRef: {name: my-extension}
  deploymentRef: {name: my-extension}
  seedRef: {name: local}
`,
    });
    const gardenlet = await start();
    try {
      const ciKey = { name: 'my-extension-x7k2p' };
      const ciKind = { group: 'core.gardener.cloud', version: 'v1beta1', kind: 'ControllerInstallation' };
      type CI = KubernetesObject & { status?: { conditions?: { type: string; status: string; reason: string }[] } };
      const ciCondition = async (type: string) =>
        ((await admin.get(ciKind, ciKey)) as CI).status?.conditions?.find((c) => c.type === type);
      const mrKind = { group: 'resources.gardener.cloud', version: 'v1alpha1', kind: 'ManagedResource' };
      const mr = (await waitFor(
        'the ManagedResource',
        () => admin.get(mrKind, { namespace: 'garden', name: 'my-extension-x7k2p' }),
        {
          timeoutMs: 20_000,
        },
      )) as KubernetesObject & { spec: { class: string; secretRefs: { name: string }[] } };
      await waitFor('Valid True', async () => (await ciCondition('Valid'))?.status === 'True');
      expect((await ciCondition('Installed'))?.status).toBe('False'); // pending until the ManagedResource is applied
      expect((await admin.get(ciKind, ciKey)).metadata?.finalizers).toContain(
        'core.gardener.cloud/controllerinstallation',
      );
      const ns = await admin.get(Kinds.Namespace, { name: 'extension-my-extension-x7k2p' });
      expect(ns.metadata?.labels).toMatchObject({
        'gardener.cloud/role': 'extension',
        'controllerregistration.core.gardener.cloud/name': 'my-extension',
      });
      expect(mr.metadata?.labels).toEqual({ 'controllerinstallation-name': 'my-extension-x7k2p' });
      expect(mr.spec.class).toBe('seed');
      const secret = await admin.get(Kinds.Secret, { namespace: 'garden', name: mr.spec.secretRefs[0]!.name });
      const rendered = Object.values(secret.data ?? {}).map((v) =>
        JSON.parse(Buffer.from(v, 'base64').toString('utf8')),
      );
      expect(rendered).toEqual([
        expect.objectContaining({
          kind: 'Deployment',
          metadata: expect.objectContaining({
            namespace: 'extension-my-extension-x7k2p',
            labels: { seed: 'local', provider: 'local' },
          }),
          spec: expect.objectContaining({ replicas: 3 }),
        }),
      ]);

      // gardener-resource-manager's part (not running here): report the ManagedResource applied, healthy, rolled out.
      const now = new Date().toISOString();
      const condition = (type: string, status: string) => ({
        type,
        status,
        reason: 'Test',
        message: 'set by the test',
        lastTransitionTime: now,
        lastUpdateTime: now,
      });
      await admin.patch(
        mrKind,
        { namespace: 'garden', name: 'my-extension-x7k2p' },
        {
          type: 'merge',
          patch: {
            status: {
              observedGeneration: mr.metadata?.generation,
              conditions: [
                condition('ResourcesApplied', 'True'),
                condition('ResourcesHealthy', 'True'),
                condition('ResourcesProgressing', 'False'),
              ],
            },
          },
        },
        { subresource: 'status' },
      );
      await waitFor(
        'Installed and Healthy',
        async () =>
          (await ciCondition('Installed'))?.status === 'True' && (await ciCondition('Healthy'))?.status === 'True',
        { timeoutMs: 20_000 },
      );
      expect((await ciCondition('Progressing'))?.status).toBe('False');

      // Required follows the extension resources of the registration's kinds and types in the seed.
      await waitFor('Required False', async () => (await ciCondition('Required'))?.status === 'False');
      const extensionKind = { group: 'extensions.gardener.cloud', version: 'v1alpha1', kind: 'Extension' };
      await kubectl(env.kubeconfigPath, ['apply', '-f', '-'], {
        input:
          'apiVersion: extensions.gardener.cloud/v1alpha1\nkind: Extension\nmetadata: {name: my-extension, namespace: garden}\nspec: {type: my-extension}\n',
      });
      await waitFor('Required True', async () => (await ciCondition('Required'))?.status === 'True', {
        timeoutMs: 20_000,
      });
      await admin.delete(extensionKind, { namespace: 'garden', name: 'my-extension' });
      await waitFor('Required False again', async () => (await ciCondition('Required'))?.status === 'False', {
        timeoutMs: 20_000,
      });

      // Deleted: the ManagedResource and the namespace go, then the finalizer.
      await admin.delete(ciKind, ciKey);
      await waitFor(
        'the ControllerInstallation gone',
        async () => (await admin.get(ciKind, ciKey).catch(() => 'gone')) === 'gone',
        { timeoutMs: 30_000 },
      );
      expect(await admin.get(mrKind, { namespace: 'garden', name: 'my-extension-x7k2p' }).catch(() => 'gone')).toBe(
        'gone',
      );
    } finally {
      await gardenlet.stop();
    }
  });

  it("requests garden tokens for class garden Secrets in the seed, for ServiceAccounts in the seed's garden namespace", async () => {
    // seed-<name> in the garden is gardener-controller-manager's (not running here).
    await kubectl(env.kubeconfigPath, ['apply', '-f', '-'], {
      input: `apiVersion: v1
kind: Namespace
metadata: {name: seed-local}
---
apiVersion: v1
kind: Secret
metadata:
  name: garden-access-extension-foo
  namespace: garden
  labels:
    resources.gardener.cloud/purpose: token-requestor
    resources.gardener.cloud/class: garden
  annotations:
    serviceaccount.resources.gardener.cloud/name: extension-foo
    serviceaccount.resources.gardener.cloud/namespace: somewhere-else
type: Opaque
`,
    });
    const gardenlet = await start();
    try {
      const secret = await waitFor(
        'the token',
        async () => {
          const s = await admin.get(Kinds.Secret, { namespace: 'garden', name: 'garden-access-extension-foo' });
          return s.data?.token ? s : undefined;
        },
        { timeoutMs: 20_000 },
      );
      expect(Buffer.from(secret.data!.token!, 'base64').toString().split('.')).toHaveLength(3); // a JWT
      expect(
        (await admin.get(Kinds.ServiceAccount, { namespace: 'seed-local', name: 'extension-foo' })).metadata?.name,
      ).toBe('extension-foo');
      expect(
        await admin
          .get(Kinds.ServiceAccount, { namespace: 'somewhere-else', name: 'extension-foo' })
          .catch(() => 'absent'),
      ).toBe('absent');
    } finally {
      await gardenlet.stop();
    }
  });
  it("maintains Gardener's general NetworkPolicies in the seed's garden namespace and follows the API server", async () => {
    const gardenlet = await start();
    const policy = (name: string) =>
      admin.get(Kinds.NetworkPolicy, { namespace: 'garden', name }).catch(() => undefined) as Promise<
        { spec?: { egress?: { to?: { ipBlock?: { cidr: string; except?: string[] } }[] }[] } } | undefined
      >;
    try {
      const names = [
        'deny-all',
        'allow-to-runtime-apiserver',
        'allow-to-public-networks',
        'allow-to-private-networks',
        'allow-to-blocked-cidrs',
        'allow-to-dns',
      ];
      await waitFor('the general NetworkPolicies in garden', async () =>
        (await Promise.all(names.map(policy))).every(Boolean) ? true : undefined,
      );
      // The seed's own networks (deploy/gardener/examples/50-seed.yaml) are not "private networks" to its pods.
      expect((await policy('allow-to-private-networks'))!.spec!.egress![0]!.to![0]).toEqual({
        ipBlock: { cidr: '10.0.0.0/8', except: ['10.241.128.0/17', '10.241.0.0/17', '10.240.0.0/16'] },
      });
      // allow-to-runtime-apiserver names the addresses of default/kubernetes and follows them.
      const endpoints = (await admin.get(Kinds.Endpoints, { namespace: 'default', name: 'kubernetes' })) as {
        subsets: { addresses: { ip: string }[]; ports: unknown[] }[];
      };
      const ip = endpoints.subsets[0]!.addresses[0]!.ip;
      expect((await policy('allow-to-runtime-apiserver'))!.spec!.egress![0]!.to).toEqual([
        { ipBlock: { cidr: `${ip}/32` } },
      ]);
      const moved = structuredClone(endpoints);
      moved.subsets[0]!.addresses = [{ ip: '10.99.0.1' }];
      await admin.update(moved as unknown as KubernetesObject);
      try {
        await waitFor('allow-to-runtime-apiserver to follow the Endpoints', async () =>
          (await policy('allow-to-runtime-apiserver'))?.spec?.egress?.[0]?.to?.[0]?.ipBlock?.cidr === '10.99.0.1/32'
            ? true
            : undefined,
        );
      } finally {
        const current = await admin.get(Kinds.Endpoints, { namespace: 'default', name: 'kubernetes' });
        await admin.update({ ...current, subsets: endpoints.subsets } as KubernetesObject);
      }
      // A deleted policy comes back.
      await admin.delete(Kinds.NetworkPolicy, { namespace: 'garden', name: 'deny-all' });
      await waitFor('deny-all to come back', async () => ((await policy('deny-all')) ? true : undefined));
    } finally {
      await gardenlet.stop();
    }
  });
});
