// The delete flow's steps for the shoot's ManagedResources against the local API server: the ManagedResources the
// shoot's gardener-resource-manager serves (no class) keep their objects and are deleted, the seed's are left alone,
// and without a resource manager Deployment its finalizer is removed so the namespace can go. And the shoot client is
// only there once the connection was initialized.
import { join } from 'node:path';
import { ApiClient, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { startTestEnvironment, workspaceRoot, type TestEnvironment } from '@gardener-ts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleValues } from '../component/testdata/fixtures.js';
import { Botanist } from './botanist.js';

const ManagedResourceKind = kind<KubernetesObject & { spec: { class?: string; keepObjects?: boolean } }>(
  'resources.gardener.cloud/v1alpha1',
  'ManagedResource',
);

describe("the botanist's shoot ManagedResources and shoot client", () => {
  let env: TestEnvironment;
  let client: ApiClient;
  const values = exampleValues();
  const namespace = values.namespace;

  beforeAll(async () => {
    env = await startTestEnvironment({
      crds: [join(workspaceRoot(), 'deploy/gardener/crds/10-crd-resources.gardener.cloud_managedresources.yaml')],
    });
    client = await ApiClient.create(env.kubeconfigPath);
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } as KubernetesObject);
  });
  afterAll(async () => {
    client?.close();
    await env?.stop();
  });

  const managedResource = (name: string, spec: Record<string, unknown>) =>
    client.create({
      apiVersion: 'resources.gardener.cloud/v1alpha1',
      kind: 'ManagedResource',
      metadata: { name, namespace, finalizers: ['resources.gardener.cloud/gardener-resource-manager'] },
      spec: { secretRefs: [{ name: `managedresource-${name}` }], ...spec },
    } as KubernetesObject);

  it('deletes the shoot ManagedResources keeping their objects; without a resource manager it drops its finalizer', async () => {
    await managedResource('shoot-core-gardeneraccess', {});
    await managedResource('extension-seed-thing', { class: 'seed' });
    const botanist = new Botanist(client, client, values, { controlPlaneWait: { interval: 50, timeout: 10_000 } });
    const steps = botanist.deleteSteps() as Record<string, (signal: AbortSignal) => Promise<void>>;

    await steps.deleteManagedResources!(AbortSignal.timeout(10_000));
    const deleting = await client.get(ManagedResourceKind, { namespace, name: 'shoot-core-gardeneraccess' });
    expect(deleting.spec.keepObjects).toBe(true);
    expect(deleting.metadata?.deletionTimestamp).toBeDefined();

    await steps.waitForManagedResourcesDeleted!(AbortSignal.timeout(10_000));
    const left = (await client.list(ManagedResourceKind, { namespace })).items;
    expect(left.map((mr) => mr.metadata?.name)).toEqual(['extension-seed-thing']);
    expect(left[0]?.metadata?.deletionTimestamp).toBeUndefined();
  });

  it('has no shoot client before "Initializing connection to Shoot"', () => {
    const botanist = new Botanist(client, client, values);
    expect(() => botanist.shootClient()).toThrow(
      'the connection to shoot shoot--local--local has not been initialized',
    );
    const steps = botanist.reconcileSteps();
    for (const step of [
      'deployGardenerResourceManager',
      'waitForGardenerResourceManager',
      'deployGardenerAccess',
      'initializeShootClients',
      'deployKubeControllerManager',
      'deployKubeScheduler',
    ] as const) {
      expect(typeof steps[step]).toBe('function');
    }
  });
});
