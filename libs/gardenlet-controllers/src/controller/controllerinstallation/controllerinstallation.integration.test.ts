// The ControllerInstallation controller with the gardenlet's TokenRequestor against two local API servers: a garden
// serving Gardener's kinds and a seed with the ManagedResource CRD; the chart is packaged by `helm package` and
// rendered by the real helm. A ControllerDeployment with `injectGardenKubeconfig` gets the generic garden kubeconfig
// Secret (its name reaches the chart as `gardener.garden.genericKubeconfigSecretName`) and the garden access Secret
// `garden-access-extension`, whose token — for ServiceAccount `seed-local/extension-<installation>` in the garden,
// labelled with the registration — authenticates against the garden through that kubeconfig; the extension's
// Deployment mounts both. The deletion removes the ServiceAccount in the garden. The same chart pushed to an in-process
// OCI registry asking for basic authentication installs through a ControllerDeployment's `helm.ociRepository`, with
// the pull secret read from the garden's `garden` namespace.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generatedCRDs } from '@gardener-ts/api';
import { ApiClient, isNotFound, Kinds, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { gardenerAsset, waitFor, workspaceRoot } from '@gardener-ts/testing';
import { startGardenAndSeed, type GardenAndSeed } from '../../../test/support/garden-and-seed.js';
import { HelmRenderer } from '../../charts/helm.js';
import { startTestRegistry, type TestRegistry } from '../../oci/test-registry.js';
import { exampleSeed } from '../../component/testdata/fixtures.js';
import { addTokenRequestorController } from '../tokenrequestor/add.js';
import { addControllerInstallationController } from './add.js';
import { genericGardenClusterOf } from './garden-access.js';
import { ControllerInstallationKind, ManagedResourceKind } from './kinds.js';

const root = workspaceRoot();
const helmBinary = join(root, 'tools/k8s-binaries/vendor/helm');
const INSTALLATION = 'my-extension-x7k2p';
const NAMESPACE = `extension-${INSTALLATION}`;

let clusters: GardenAndSeed;
let garden: ApiClient;
let seed: ApiClient;
let dir: string;
let registry: TestRegistry;
const OCI_INSTALLATION = 'my-oci-extension-q1w2e';

const gone = (read: Promise<unknown>) => read.then(() => false).catch((err: unknown) => isNotFound(err));

/** An extension chart whose Deployment names the generic kubeconfig Secret it was given in an annotation. */
async function packagedChart(): Promise<Buffer> {
  const chartDir = join(dir, 'my-extension');
  await mkdir(join(chartDir, 'templates'), { recursive: true });
  await writeFile(join(chartDir, 'Chart.yaml'), 'apiVersion: v2\nname: my-extension\nversion: 0.1.0\n');
  await writeFile(
    join(chartDir, 'templates', 'deployment.yaml'),
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: my-extension
  namespace: {{ .Release.Namespace }}
  annotations:
    generic-kubeconfig: {{ .Values.gardener.garden.genericKubeconfigSecretName | quote }}
spec:
  selector: {matchLabels: {app: my-extension}}
  template:
    metadata: {labels: {app: my-extension}}
    spec: {containers: [{name: ext, image: example.com/my-extension:v1}]}
`,
  );
  const home = join(dir, 'helm-home');
  await promisify(execFile)(helmBinary, ['package', chartDir, '--destination', join(dir, 'chart')], {
    env: { ...process.env, HELM_CACHE_HOME: home, HELM_CONFIG_HOME: home, HELM_DATA_HOME: home },
  });
  return readFile(join(dir, 'chart', 'my-extension-0.1.0.tgz'));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'controllerinstallation-'));
  clusters = await startGardenAndSeed({
    // Gardener's garden API server accepts tokens for the `gardener` audience (the TokenRequestor asks for it).
    garden: {
      crds: generatedCRDs(),
      namespaces: ['garden', 'seed-local'],
      options: { serviceAccount: { apiAudiences: ['https://kubernetes.default.svc.cluster.local', 'gardener'] } },
    },
    seed: {
      crds: [gardenerAsset('crds', '10-crd-resources.gardener.cloud_managedresources.yaml')],
      namespaces: ['garden'],
    },
  });
  garden = clusters.garden.client;
  seed = clusters.seed.client;
  await garden.create(exampleSeed((s) => (s.metadata = { name: 'local' })));
  const chart = await packagedChart();
  const rawChart = chart.toString('base64');
  registry = await startTestRegistry({ kind: 'basic', username: 'robot', password: 'pull-me' });
  registry.push('charts/my-extension', '0.1.0', chart);
  const dockerConfig = JSON.stringify({
    auths: { [registry.host]: { auth: Buffer.from('robot:pull-me').toString('base64') } },
  });
  for (const object of parse(`
- apiVersion: core.gardener.cloud/v1
  kind: ControllerDeployment
  metadata: {name: my-extension}
  injectGardenKubeconfig: true
  helm: {rawChart: ${rawChart}}
- apiVersion: core.gardener.cloud/v1beta1
  kind: ControllerRegistration
  metadata: {name: my-extension}
  spec:
    resources: [{kind: Extension, type: my-extension}]
    deployment: {deploymentRefs: [{name: my-extension}]}
- apiVersion: v1
  kind: Secret
  metadata: {name: helm-pull-secret, namespace: garden, labels: {gardener.cloud/role: helm-pull-secret}}
  type: kubernetes.io/dockerconfigjson
  data: {.dockerconfigjson: ${Buffer.from(dockerConfig).toString('base64')}}
- apiVersion: core.gardener.cloud/v1
  kind: ControllerDeployment
  metadata: {name: my-oci-extension}
  helm:
    ociRepository: {ref: 'oci://${registry.host}/charts/my-extension:0.1.0', pullSecretRef: {name: helm-pull-secret}}
    values: {replicas: 1}
- apiVersion: core.gardener.cloud/v1beta1
  kind: ControllerRegistration
  metadata: {name: my-oci-extension}
  spec:
    resources: [{kind: Extension, type: my-oci-extension}]
    deployment: {deploymentRefs: [{name: my-oci-extension}]}
`) as KubernetesObject[])
    await garden.create(object);

  const helm = new HelmRenderer({ helmBinary, chartsDir: join(root, 'deploy/charts') });
  await clusters.startManager((mgr) => {
    addControllerInstallationController(mgr, {
      seedName: 'local',
      gardenCluster: 'garden',
      seedCluster: 'seed',
      concurrentSyncs: 2,
      version: '1.0.0',
      featureGates: {},
      render: (archive, release, namespace, values) => helm.renderArchive(archive, release, namespace, values),
      genericGardenCluster: genericGardenClusterOf(clusters.garden.kubeConfig),
    });
    addTokenRequestorController(mgr, {
      seedName: 'local',
      gardenCluster: 'garden',
      seedCluster: 'seed',
      concurrentSyncs: 2,
    });
  });
}, 120_000);

afterAll(async () => {
  await clusters?.stop();
  await registry?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the ControllerInstallation controller with injectGardenKubeconfig', { timeout: 90_000 }, () => {
  it('gives the extension a garden kubeconfig whose token authenticates as its ServiceAccount in seed-local', async () => {
    await garden.create({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'ControllerInstallation',
      metadata: { name: INSTALLATION },
      spec: {
        registrationRef: { name: 'my-extension' },
        deploymentRef: { name: 'my-extension' },
        seedRef: { name: 'local' },
      },
    } as KubernetesObject);

    const mr = await waitFor(
      'the ManagedResource',
      () => seed.get(ManagedResourceKind, { namespace: 'garden', name: INSTALLATION }).catch(() => undefined),
      { timeoutMs: 30_000 },
    );
    const mrSecret = await seed.get(Kinds.Secret, {
      namespace: 'garden',
      name: (mr as unknown as { spec: { secretRefs: { name: string }[] } }).spec.secretRefs[0]!.name,
    });
    const [deployment] = Object.values(mrSecret.data ?? {}).map(
      (v) => JSON.parse(Buffer.from(v, 'base64').toString()) as KubernetesObject & Record<string, any>,
    );
    // The chart got the Secret's name as a value, and the Deployment mounts that Secret and the access token.
    const kubeconfigSecretName = deployment!.metadata!.annotations!['generic-kubeconfig']!;
    expect(kubeconfigSecretName).toMatch(/^generic-garden-kubeconfig-[0-9a-f]{8}$/);
    const pod = deployment!.spec.template.spec;
    expect(pod.volumes[0].projected.sources.map((s: { secret: { name: string } }) => s.secret.name)).toEqual([
      kubeconfigSecretName,
      'garden-access-extension',
    ]);
    expect(pod.containers[0].env).toEqual([
      { name: 'GARDEN_KUBECONFIG', value: '/var/run/secrets/gardener.cloud/garden/generic-kubeconfig/kubeconfig' },
      { name: 'SEED_NAME', value: 'local' },
    ]);

    // The TokenRequestor fills the garden access Secret with a token of the extension's ServiceAccount in the garden.
    const access = await waitFor(
      'the garden access token',
      async () => {
        const s = await seed.get(Kinds.Secret, { namespace: NAMESPACE, name: 'garden-access-extension' });
        return s.data?.token ? s : undefined;
      },
      { timeoutMs: 30_000 },
    );
    const serviceAccount = await garden.get(Kinds.ServiceAccount, {
      namespace: 'seed-local',
      name: `extension-${INSTALLATION}`,
    });
    expect(serviceAccount.metadata?.labels).toMatchObject({
      'controllerregistration.core.gardener.cloud/name': 'my-extension',
    });

    // What the extension's pod sees: the kubeconfig and the token side by side, the kubeconfig reading the token file.
    const kubeconfigSecret = await seed.get(Kinds.Secret, { namespace: NAMESPACE, name: kubeconfigSecretName });
    expect(kubeconfigSecret.immutable).toBe(true);
    const mounted = join(dir, 'generic-kubeconfig');
    await mkdir(mounted, { recursive: true });
    await writeFile(join(mounted, 'token'), Buffer.from(access.data!.token!, 'base64'));
    const kubeconfig = parse(Buffer.from(kubeconfigSecret.data!.kubeconfig!, 'base64').toString());
    expect(kubeconfig.users[0].user.tokenFile).toBe('/var/run/secrets/gardener.cloud/garden/generic-kubeconfig/token');
    kubeconfig.users[0].user.tokenFile = join(mounted, 'token');
    await writeFile(join(mounted, 'kubeconfig'), stringify(kubeconfig));
    const extensionClient = await ApiClient.create(join(mounted, 'kubeconfig'));
    try {
      const review = (await extensionClient.create({
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'SelfSubjectReview',
        metadata: {},
      })) as KubernetesObject & { status?: { userInfo?: { username?: string } } };
      expect(review.status?.userInfo?.username).toBe(`system:serviceaccount:seed-local:extension-${INSTALLATION}`);
    } finally {
      extensionClient.close();
    }
  });

  it('removes the ServiceAccount in the garden when the installation is deleted', async () => {
    await garden.delete(ControllerInstallationKind, { name: INSTALLATION });
    await waitFor(
      'the ControllerInstallation gone',
      () => gone(garden.get(ControllerInstallationKind, { name: INSTALLATION })),
      {
        timeoutMs: 60_000,
      },
    );
    expect(await gone(seed.get(Kinds.Namespace, { name: NAMESPACE }))).toBe(true);
    expect(
      await gone(garden.get(Kinds.ServiceAccount, { namespace: 'seed-local', name: `extension-${INSTALLATION}` })),
    ).toBe(true);
  });
});

describe('the ControllerInstallation controller with helm.ociRepository', { timeout: 90_000 }, () => {
  it('pulls the chart with the pull secret and installs it like a raw chart, then cleans up', async () => {
    await garden.create({
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'ControllerInstallation',
      metadata: { name: OCI_INSTALLATION },
      spec: {
        registrationRef: { name: 'my-oci-extension' },
        deploymentRef: { name: 'my-oci-extension' },
        seedRef: { name: 'local' },
      },
    } as KubernetesObject);

    const mr = await waitFor(
      'the ManagedResource of the OCI chart',
      () => seed.get(ManagedResourceKind, { namespace: 'garden', name: OCI_INSTALLATION }).catch(() => undefined),
      { timeoutMs: 30_000 },
    );
    const mrSecret = await seed.get(Kinds.Secret, {
      namespace: 'garden',
      name: (mr as unknown as { spec: { secretRefs: { name: string }[] } }).spec.secretRefs[0]!.name,
    });
    const objects = Object.values(mrSecret.data ?? {}).map(
      (v) => JSON.parse(Buffer.from(v, 'base64').toString()) as KubernetesObject & Record<string, any>,
    );
    expect(objects.map((o) => `${o.kind}/${o.metadata?.namespace}/${o.metadata?.name}`)).toEqual([
      `Deployment/extension-${OCI_INSTALLATION}/my-extension`,
    ]);
    expect(objects[0]!.spec.template.spec.containers[0].env).toEqual([{ name: 'SEED_NAME', value: 'local' }]);
    // The registry was asked with the pull secret's credentials: the manifest and the chart blob were served.
    expect(registry.requests).toEqual(
      expect.arrayContaining([
        'GET /v2/charts/my-extension/manifests/0.1.0',
        expect.stringMatching(/^GET \/v2\/charts\/my-extension\/blobs\/sha256:/),
      ]),
    );
    const ci = await garden.get(ControllerInstallationKind, { name: OCI_INSTALLATION });
    expect(ci.status?.conditions?.find((c) => c.type === 'Valid')).toMatchObject({
      status: 'True',
      reason: 'RegistrationValid',
    });

    await garden.delete(ControllerInstallationKind, { name: OCI_INSTALLATION });
    await waitFor(
      'the OCI ControllerInstallation gone',
      () => gone(garden.get(ControllerInstallationKind, { name: OCI_INSTALLATION })),
      { timeoutMs: 60_000 },
    );
    expect(await gone(seed.get(Kinds.Namespace, { name: `extension-${OCI_INSTALLATION}` }))).toBe(true);
  });
});
