// Extension resources against the local API server with Gardener's extension CRDs: the gardenlet applies the
// rendered Infrastructure, Network and DNSRecord of the example shoot, a fake extension in the test handles them
// (removes the operation annotation, adds its finalizer, reports Succeeded) and the waits return; deletion waits for
// the extension to release its finalizer. The readiness check itself is tested on plain objects.
import { join } from 'node:path';
import { ApiClient, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { startTestEnvironment, workspaceRoot, type TestEnvironment } from '@gardener-ts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderDNSRecord, renderInfrastructure, renderNetwork } from '../component/extensions.js';
import { fakeExtension } from '../component/testdata/fake-extension.js';
import { exampleValues } from '../component/testdata/fixtures.js';
import { extensionKeyOf, extensionReadiness, ExtensionResources } from './extension-resources.js';

const ts = '2026-11-25T01:00:00Z';

describe('extension readiness', () => {
  const base = {
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'Network',
    metadata: {
      name: 'local',
      namespace: 'shoot--local--local',
      generation: 2,
      annotations: { 'gardener.cloud/timestamp': ts },
    },
  };
  const succeeded = {
    observedGeneration: 2,
    lastOperation: { type: 'Reconcile', state: 'Succeeded', lastUpdateTime: '2026-11-25T01:00:05Z' },
  };

  it('is ready once the extension handled the request at the current generation', () => {
    expect(extensionReadiness({ ...base, status: succeeded } as KubernetesObject, ts)).toEqual({ ready: true });
  });

  it('says why it is not ready yet', () => {
    const withOperation = {
      ...base,
      metadata: {
        ...base.metadata,
        annotations: { ...base.metadata.annotations, 'gardener.cloud/operation': 'reconcile' },
      },
    };
    expect(extensionReadiness({ ...withOperation, status: succeeded } as KubernetesObject, ts)).toMatchObject({
      ready: false,
      reason: 'Network shoot--local--local/local: the extension has not picked up the reconcile request yet',
    });
    expect(
      extensionReadiness({ ...base, status: { ...succeeded, observedGeneration: 1 } } as KubernetesObject, ts),
    ).toMatchObject({
      ready: false,
      reason: expect.stringContaining('observed generation 1 is behind generation 2'),
    });
    const failed = {
      ...succeeded,
      lastOperation: { ...succeeded.lastOperation, state: 'Error', description: 'no quota' },
      lastError: { description: 'no quota' },
    };
    expect(extensionReadiness({ ...base, status: failed } as KubernetesObject, ts)).toEqual({
      ready: false,
      reason: 'Network shoot--local--local/local: last operation Reconcile is Error: no quota',
      lastError: 'no quota',
    });
    expect(
      extensionReadiness({ ...base, status: succeeded } as KubernetesObject, '2026-11-25T02:00:00Z'),
    ).toMatchObject({ ready: false });
    const stale = {
      ...succeeded,
      lastOperation: { ...succeeded.lastOperation, lastUpdateTime: '2026-11-25T00:00:00Z' },
    };
    expect(extensionReadiness({ ...base, status: stale } as KubernetesObject, ts)).toMatchObject({
      ready: false,
      reason: expect.stringContaining('updated before the request'),
    });
  });
});

describe('extension resources in a seed', () => {
  let env: TestEnvironment;
  let client: ApiClient;
  const values = exampleValues();
  // The fake extension: handle the object like the SDK's generic reconciler would.
  const handle = (obj: KubernetesObject) =>
    fakeExtension(client).handle({
      apiVersion: obj.apiVersion,
      kind: obj.kind!,
      name: obj.metadata!.name!,
      namespace: obj.metadata!.namespace,
    });

  beforeAll(async () => {
    env = await startTestEnvironment({ crds: [join(workspaceRoot(), 'deploy/gardener/crds')] });
    client = await ApiClient.create(env.kubeconfigPath);
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: values.namespace } });
  });
  afterAll(() => env?.stop());

  it('deploys the rendered resources and waits until the extension handled them', async () => {
    const now = new Date().toISOString();
    const resources = new ExtensionResources(client);
    const objects = [
      renderInfrastructure(values, { now }),
      renderNetwork(values, { now }),
      renderDNSRecord(values, 'internal', { now, providerType: 'local', address: '127.0.0.1' })!,
    ];
    for (const obj of objects) {
      const applied = await resources.deploy(obj);
      expect(applied.metadata?.annotations).toMatchObject({
        'gardener.cloud/operation': 'reconcile',
        'gardener.cloud/timestamp': now,
      });
    }
    // Not handled yet: the wait names what is missing.
    await expect(
      resources.waitUntilReady(extensionKeyOf(objects[0]), now, { timeout: 300, interval: 50 }),
    ).rejects.toThrow(
      'Infrastructure shoot--local--local/local is not ready: Infrastructure shoot--local--local/local: the extension has not picked up the reconcile request yet',
    );
    const waits = objects.map((obj) =>
      resources.waitUntilReady(extensionKeyOf(obj), now, { timeout: 20_000, interval: 50 }),
    );
    for (const obj of objects) await handle(obj);
    await Promise.all(waits);
  });

  it('ends a wait on the version the watch delivers, though every read returns an older one', async () => {
    const now = new Date().toISOString();
    const infrastructure = renderInfrastructure(values, { now });
    const key = extensionKeyOf(infrastructure);
    await new ExtensionResources(client).deploy(infrastructure);
    // Reads answer with the object as it was before the extension handled it; only the watch sees what changed.
    const before = await client.get(kind(key.apiVersion!, key.kind), { name: key.name, namespace: key.namespace });
    const resources = new ExtensionResources({
      get: (async () => structuredClone(before)) as ApiClient['get'],
      patch: client.patch.bind(client),
      delete: client.delete.bind(client),
      watch: client.watch.bind(client),
    });
    const ready = resources.waitUntilReady(key, now, { timeout: 20_000, interval: 50 });
    await handle(infrastructure);
    await ready;
    // Deleted: the watch's DELETED event ends the wait, while reads still find the object.
    const gone = resources.waitUntilDeleted(key, { timeout: 20_000, interval: 50 });
    await resources.destroy(key);
    const terminating = await client.get(kind(key.apiVersion!, key.kind), { name: key.name, namespace: key.namespace });
    await client.update({ ...terminating, metadata: { ...terminating.metadata, finalizers: [] } });
    await gone;
  });

  it('deletes a resource and waits until its extension released it', async () => {
    const resources = new ExtensionResources(client);
    const key = extensionKeyOf(renderNetwork(values, { now: ts }));
    await resources.destroy(key);
    const k = kind(key.apiVersion!, key.kind);
    const terminating = await client.get(k, { name: key.name, namespace: key.namespace });
    expect(terminating.metadata?.deletionTimestamp).toBeDefined();
    expect(terminating.metadata?.annotations?.['confirmation.gardener.cloud/deletion']).toBe('true');
    await expect(resources.waitUntilDeleted(key, { timeout: 300, interval: 50 })).rejects.toThrow(
      'Network shoot--local--local/local is not deleted yet',
    );
    const deleted = resources.waitUntilDeleted(key, { timeout: 20_000, interval: 50 });
    await client.update({ ...terminating, metadata: { ...terminating.metadata, finalizers: [] } });
    await deleted;
    await resources.destroy(key); // already gone: nothing to do
  });
});
