// provider-local's `local-ext-shoot` and `local-ext-shoot-after-worker` Extension controllers against the local API
// server: their objects in a ManagedResource (and Secret) for the shoot's resource manager; the after-worker one
// succeeds only once that ManagedResource is healthy (the resource manager's conditions, written here by hand); deletion
// removes both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderCluster } from '@gardener-ts/gardenlet-controllers';
import { ApiClient, Kinds, Manager, isNotFound, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import type { ExtensionObject } from '@gardener-ts/extensions';
import { extensionResource } from '@gardener-ts/extensions/testing';
import { gardenerAsset, startTestEnvironment, waitFor, type TestEnvironment } from '@gardener-ts/testing';
import { addProviderLocalControllers } from '../src/controller/add.js';
import { exampleShootValues } from './support/shoot-values.js';

const crd = (group: string, plural: string) => gardenerAsset('crds', `10-crd-${group}_${plural}.yaml`);
const ExtensionKind = kind<ExtensionObject>('extensions.gardener.cloud/v1alpha1', 'Extension');
const ManagedResourceKind = kind<KubernetesObject & { spec: any; status?: any }>(
  'resources.gardener.cloud/v1alpha1',
  'ManagedResource',
);

let env: TestEnvironment;
let client: ApiClient;
let mgr: Manager;
let namespace: string;

beforeAll(async () => {
  env = await startTestEnvironment({
    crds: [
      crd('extensions.gardener.cloud', 'clusters'),
      crd('extensions.gardener.cloud', 'extensions'),
      crd('resources.gardener.cloud', 'managedresources'),
    ],
  });
  client = await ApiClient.create(env.kubeconfigPath);
  const values = exampleShootValues();
  namespace = values.namespace;
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await client.create(renderCluster(values) as KubernetesObject);
  mgr = await Manager.create({ clusters: { seed: { kubeConfig: env.kubeconfigPath } }, gracefulShutdownTimeoutMs: 0 });
  addProviderLocalControllers(mgr, ['extension-local-ext-shoot', 'extension-local-ext-shoot-after-worker']);
  await mgr.start();
}, 60_000);

afterAll(async () => {
  await mgr?.stop();
  client?.close();
  await env?.stop();
});

const gone = (what: string, get: () => Promise<unknown>) =>
  waitFor(`${what} to be gone`, () =>
    get().then(
      () => undefined,
      (err: unknown) => (isNotFound(err) ? true : Promise.reject(err)),
    ),
  );
const lastOperation = (name: string) =>
  client.get(ExtensionKind, { namespace, name }).then((e) => e.status?.lastOperation);
const objectsOf = async (name: string) => {
  const secret = await client.get(Kinds.Secret, { namespace, name: `managedresource-${name}` });
  return Object.values(secret.data ?? {}).map((v) => parse(Buffer.from(v, 'base64').toString()));
};

describe('the local-ext-shoot Extension controller', () => {
  it('puts the ServiceAccount into the shoot through a ManagedResource and removes it on deletion', async () => {
    await client.create(extensionResource('Extension', namespace, 'local-ext-shoot', { type: 'local-ext-shoot' }));
    await waitFor(
      'the Extension to succeed',
      async () => (await lastOperation('local-ext-shoot'))?.state === 'Succeeded',
    );
    const mr = await client.get(ManagedResourceKind, { namespace, name: 'local-ext-shoot' });
    expect(mr.spec).toMatchObject({
      secretRefs: [{ name: 'managedresource-local-ext-shoot' }],
      injectLabels: { 'shoot.gardener.cloud/no-cleanup': 'true' },
      keepObjects: false,
    });
    expect(mr.spec.class).toBeUndefined();
    expect(await objectsOf('local-ext-shoot')).toEqual([
      expect.objectContaining({
        kind: 'ServiceAccount',
        metadata: expect.objectContaining({ name: 'local-ext-shoot' }),
      }),
    ]);

    await client.delete(ExtensionKind, { namespace, name: 'local-ext-shoot' });
    await gone('the Extension', () => client.get(ExtensionKind, { namespace, name: 'local-ext-shoot' }));
    await gone('the ManagedResource', () => client.get(ManagedResourceKind, { namespace, name: 'local-ext-shoot' }));
    await gone('the Secret', () => client.get(Kinds.Secret, { namespace, name: 'managedresource-local-ext-shoot' }));
  });
});

describe('the local-ext-shoot-after-worker Extension controller', () => {
  const name = 'local-ext-shoot-after-worker';

  it('succeeds only once the Deployment in the shoot is ready (its ManagedResource healthy)', async () => {
    await client.create(extensionResource('Extension', namespace, name, { type: name }));
    const waiting = await waitFor('the Extension to report the wait', async () => {
      const op = await lastOperation(name);
      return op?.state === 'Error' ? op : undefined;
    });
    expect(waiting.description).toMatch(/waiting for ManagedResource .*local-ext-shoot-after-worker to become healthy/);
    expect(await objectsOf(name)).toEqual([
      expect.objectContaining({
        kind: 'Deployment',
        metadata: expect.objectContaining({ name, namespace: 'kube-system' }),
      }),
    ]);

    // The shoot's resource manager applied the Deployment and found it ready.
    const mr = await client.get(ManagedResourceKind, { namespace, name });
    const now = new Date().toISOString();
    const condition = (type: string) => ({
      type,
      status: 'True',
      reason: 'Ok',
      message: '',
      lastTransitionTime: now,
      lastUpdateTime: now,
    });
    await client.patch(
      ManagedResourceKind,
      { namespace, name },
      {
        type: 'merge',
        patch: {
          status: {
            observedGeneration: mr.metadata?.generation,
            conditions: [condition('ResourcesApplied'), condition('ResourcesHealthy')],
          },
        },
      },
      { subresource: 'status' },
    );
    await waitFor('the Extension to succeed', async () => (await lastOperation(name))?.state === 'Succeeded', {
      timeoutMs: 20_000,
    });

    await client.delete(ExtensionKind, { namespace, name });
    await gone('the ManagedResource', () => client.get(ManagedResourceKind, { namespace, name }));
    await gone('the Extension', () => client.get(ExtensionKind, { namespace, name }));
  }, 40_000);
});
