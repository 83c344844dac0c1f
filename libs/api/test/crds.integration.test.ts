// Every CRD this library ships installs into a real API server, and Gardener's examples of those groups are accepted.
import { KubeConfig, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { startTestCluster, type TestCluster } from '@gardener-ts/local-apiserver';
import { waitFor } from '@gardener-ts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCRDs } from '../src/crd/index.js';
import { groupOf, loadExamples } from './examples.js';

describe('CRDs in the API server', () => {
  let cluster: TestCluster;
  let client: KubernetesObjectApi;
  const crds = allCRDs();
  const groups = new Set(crds.map((crd) => crd.spec.group));

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

  it('accepts every example manifest of the served groups (dry run)', async () => {
    const examples = loadExamples().filter(({ object }) => groupOf(object) === '' || groups.has(groupOf(object)));
    const served = examples.filter(({ object }) => groups.has(groupOf(object)));
    expect(served.length).toBeGreaterThanOrEqual(8);
    // Namespaces are created for real: the objects in them are only dry-run.
    for (const { object } of examples.filter(({ object }) => object.kind === 'Namespace')) {
      await client.create(object as KubernetesObject);
    }
    for (const { file, object } of served) {
      const created = await client.create(object as KubernetesObject, undefined, 'All').catch((err: unknown) => {
        throw new Error(`${file}: ${object.kind} ${object.metadata?.name} rejected: ${(err as Error).message}`);
      });
      expect(created.kind).toBe(object.kind);
    }
  }, 120_000);
});
