// Every CRD this library ships installs into a real API server, and every one of Gardener's example manifests
// (deploy/gardener/examples, the same files as ../shared/gardener-examples) is accepted by it as users send them:
// the real kubectl, `create`, with kubectl's strict field validation (unknown fields refused).
// resource-manager/30-secret-tokenrequestor.yaml is a template (`name: <some name>`) that kube refuses as well.
// The example Shoot leaves spec.kubernetes.version and the machine image to Gardener's admission (from its
// CloudProfile): the schema accepts it as it is, the defaulting is the admission app's job.
import { KubeConfig, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { startTestCluster, type TestCluster } from '@gardener-ts/local-apiserver';
import { gardenerAsset, kubectl, runKubectl, waitFor } from '@gardener-ts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCRDs } from '@gardener-ts/api';
import { exampleFiles, loadExamples } from '@gardener-ts/api/testing';

/** Example files that are templates to fill in rather than manifests to apply. */
const TEMPLATES = new Set(['resource-manager/30-secret-tokenrequestor.yaml']);

describe('CRDs in the API server', () => {
  let cluster: TestCluster;
  let client: KubernetesObjectApi;
  const crds = allCRDs();

  beforeAll(async () => {
    cluster = await startTestCluster();
    const kubeconfig = new KubeConfig();
    kubeconfig.loadFromFile(cluster.kubeconfigPath);
    client = KubernetesObjectApi.makeApiClient(kubeconfig);
    for (const crd of crds) await client.create(crd as unknown as KubernetesObject);
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('installs every CRD and each becomes Established', async () => {
    expect(crds.length).toBeGreaterThanOrEqual(40);
    for (const crd of crds) {
      await waitFor(`CRD ${crd.metadata.name} to be Established`, async () => {
        const current = (await client.read({
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          metadata: { name: crd.metadata.name },
        })) as KubernetesObject & { status?: { conditions?: { type: string; status: string }[] } };
        return current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
      });
    }
  }, 120_000);

  it('accepts every example manifest with kubectl create (strict field validation)', async () => {
    const examples = loadExamples(gardenerAsset('examples'));
    expect(exampleFiles(gardenerAsset('examples')).length).toBeGreaterThanOrEqual(12);
    expect(examples.length).toBeGreaterThanOrEqual(15);
    // The namespaces first, then each file's objects in the order of the file.
    for (const { object } of examples.filter(({ object }) => object.kind === 'Namespace')) {
      await client.create(object as KubernetesObject);
    }
    for (const file of new Set(examples.map((e) => e.file))) {
      // The file as sent, without its namespaces (created above).
      const objects = examples.filter((e) => e.file === file && e.object.kind !== 'Namespace').map((e) => e.object);
      if (objects.length === 0) continue;
      const input = objects.map((o) => JSON.stringify(o)).join('\n');
      const result = await runKubectl(cluster.kubeconfigPath, ['create', '-o', 'name', '-f', '-'], {
        input,
      });
      if (TEMPLATES.has(file)) {
        // A template with placeholders (`<some name>`): kube refuses its name as well.
        expect(result.stderr, file).toMatch(/metadata\.name: Invalid value: "<some name>"/);
        continue;
      }
      expect(result.stderr, file).toBe('');
      expect(result.stdout.trim().split('\n'), file).toHaveLength(objects.length);
    }
  }, 120_000);

  it('accepts a ControllerDeployment with injectGardenKubeconfig and resources', async () => {
    const manifest = `apiVersion: core.gardener.cloud/v1
kind: ControllerDeployment
metadata:
  name: provider-local
helm:
  ociRepository:
    ref: registry.example.com/charts/provider-local:v1.0.0
injectGardenKubeconfig: true
resources:
- name: config
  resourceRef:
    apiVersion: v1
    kind: ConfigMap
    name: provider-local-config
`;
    expect(
      await kubectl(cluster.kubeconfigPath, ['create', '--dry-run=server', '-o', 'name', '-f', '-'], {
        input: manifest,
      }),
    ).toBe('controllerdeployment.core.gardener.cloud/provider-local\n');
  });

  it('refuses the field Gardener tombstoned (Seed spec.dns.provider.secretRef) as an unknown field', async () => {
    const seed = loadExamples(gardenerAsset('examples')).find(({ object }) => object.kind === 'Seed')!
      .object as unknown as KubernetesObject & {
      spec: { dns: Record<string, unknown> };
    };
    const withSecretRef = structuredClone(seed);
    withSecretRef.spec.dns = { provider: { type: 'aws-route53', secretRef: { name: 'dns', namespace: 'garden' } } };
    const result = await runKubectl(cluster.kubeconfigPath, ['create', '--dry-run=server', '-f', '-'], {
      input: JSON.stringify(withSecretRef),
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/unknown field "spec\.dns\.provider\.secretRef"/);
  });
});
