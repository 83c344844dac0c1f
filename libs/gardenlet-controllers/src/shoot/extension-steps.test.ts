// The shoot's Extension resources: which types a shoot gets from the ControllerRegistrations and its spec (pure), and
// the flow steps against the local API server with Gardener's extension CRDs — each Extension deployed and waited for
// in its lifecycle phase, stale ones deleted, and the delete flow's phases. The test plays the extension (it handles
// the reconcile request and releases its finalizer), as in extension-resources.test.ts.
import { join } from 'node:path';
import type { corev1beta1 } from '@gardener-ts/api';
import { ApiClient, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { startTestEnvironment, workspaceRoot, type TestEnvironment } from '@gardener-ts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeExtension } from '../component/testdata/fake-extension.js';
import { exampleValues } from '../component/testdata/fixtures.js';
import { ExtensionSteps, extensionRegistrations, wantedExtensionTypes } from './extension-steps.js';

type Resource = NonNullable<corev1beta1.ControllerRegistration['spec']['resources']>[number];
const registration = (name: string, resources: Resource[]) =>
  ({
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'ControllerRegistration',
    metadata: { name },
    spec: { resources },
  }) as corev1beta1.ControllerRegistration;

const registrations = extensionRegistrations([
  registration('provider-local', [
    { kind: 'Infrastructure', type: 'local' },
    {
      kind: 'Extension',
      type: 'before',
      lifecycle: { reconcile: 'BeforeKubeAPIServer', delete: 'AfterKubeAPIServer' },
    },
    { kind: 'Extension', type: 'after-worker', lifecycle: { reconcile: 'AfterWorker' } },
  ]),
  registration('auto', [{ kind: 'Extension', type: 'auto', autoEnable: ['shoot', 'seed'] }]),
  registration('legacy', [{ kind: 'Extension', type: 'legacy', globallyEnabled: true, workerlessSupported: true }]),
  registration('seed-only', [{ kind: 'Extension', type: 'seed-only', autoEnable: ['seed'] }]),
]);

const values = exampleValues((shoot) => {
  shoot.spec.extensions = [
    { type: 'before', providerConfig: { greeting: 'hello' } as never },
    { type: 'auto', disabled: true },
    { type: 'after-worker' },
  ];
});

describe('the Extension types of a shoot', () => {
  it("are the registrations' auto-enabled ones and the shoot's own, minus the disabled ones", () => {
    expect(registrations.autoEnabled).toEqual(['auto', 'legacy']);
    expect(wantedExtensionTypes(values.shoot, registrations)).toEqual(['after-worker', 'before', 'legacy']);
    expect(registrations.lifecycles.get('before')).toEqual({
      reconcile: 'BeforeKubeAPIServer',
      delete: 'AfterKubeAPIServer',
    });
    // Gardener's defaults: reconciled after kube-apiserver, deleted before it.
    expect(registrations.lifecycles.get('legacy')).toEqual({
      reconcile: 'AfterKubeAPIServer',
      delete: 'BeforeKubeAPIServer',
    });
  });

  it('of a workerless shoot are only those that support it', () => {
    const workerless = exampleValues((shoot) => {
      shoot.spec.provider.workers = [];
      shoot.spec.extensions = [{ type: 'before' }];
    });
    expect(wantedExtensionTypes(workerless.shoot, registrations)).toEqual(['legacy']);
  });

  it('refuse a type no registration serves, naming the shoot and the type', () => {
    const unserved = exampleValues((shoot) => {
      shoot.spec.extensions = [{ type: 'shoot-dns-service' }];
    });
    expect(() => wantedExtensionTypes(unserved.shoot, registrations)).toThrow(
      'Shoot garden-local/local needs Extension type(s) shoot-dns-service, which no ControllerRegistration serves',
    );
  });
});

describe('the Extension steps in a seed', () => {
  let env: TestEnvironment;
  let client: ApiClient;
  const ExtensionKind = kind<KubernetesObject & { spec?: Record<string, unknown> }>(
    'extensions.gardener.cloud/v1alpha1',
    'Extension',
  );
  const extension = () => fakeExtension(client);
  const ref = (name: string) => ({ kind: 'Extension', name, namespace: values.namespace });
  const handle = (name: string) => extension().handle(ref(name));
  const release = (name: string) => extension().release(ref(name));
  const names = async () =>
    (await client.list(ExtensionKind, { namespace: values.namespace })).items.map((e) => e.metadata!.name!).sort();
  const get = (name: string) => client.get(ExtensionKind, { namespace: values.namespace, name });

  beforeAll(async () => {
    env = await startTestEnvironment({ crds: [join(workspaceRoot(), 'deploy/gardener/crds')] });
    client = await ApiClient.create(env.kubeconfigPath);
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: values.namespace } });
  });
  afterAll(async () => {
    client?.close();
    await env?.stop();
  });

  it('deploys each Extension in its phase and waits until its extension handled it', async () => {
    const steps = new ExtensionSteps(client, values, registrations, { wait: { interval: 50, timeout: 20_000 } });
    const signal = new AbortController().signal;

    await steps.deploy('BeforeKubeAPIServer');
    expect(await names()).toEqual(['before']);
    const before = await get('before');
    expect(before.spec).toEqual({ type: 'before', providerConfig: { greeting: 'hello' } });
    expect(before.metadata?.annotations?.['gardener.cloud/operation']).toBe('reconcile');
    const waiting = steps.waitUntilReady('BeforeKubeAPIServer', signal);
    await handle('before');
    await waiting;

    await steps.deploy('AfterKubeAPIServer');
    expect(await names()).toEqual(['before', 'legacy']);
    await steps.deploy('AfterWorker');
    expect(await names()).toEqual(['after-worker', 'before', 'legacy']);
    await handle('legacy');
    await handle('after-worker');
    await steps.waitUntilReady('AfterKubeAPIServer', signal);
    await steps.waitUntilReady('AfterWorker', signal);
  });

  it('deletes Extensions of types the shoot no longer needs', async () => {
    await client.create({
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'Extension',
      metadata: { name: 'auto', namespace: values.namespace, finalizers: [extension().finalizer] },
      spec: { type: 'auto' },
    } as KubernetesObject);
    const steps = new ExtensionSteps(client, values, registrations, { wait: { interval: 50, timeout: 20_000 } });
    await steps.deleteStale();
    const stale = await get('auto');
    expect(stale.metadata?.deletionTimestamp).toBeDefined();
    expect((await get('before')).metadata?.deletionTimestamp).toBeUndefined();
    const waiting = steps.waitUntilStaleDeleted(new AbortController().signal);
    await release('auto');
    await waiting;
    expect(await names()).toEqual(['after-worker', 'before', 'legacy']);
  });

  it('deletes stale Extensions also of a shoot that names a type no registration serves (its deletion is not blocked)', async () => {
    const unserved = exampleValues((shoot) => {
      shoot.spec.extensions = [{ type: 'before' }, { type: 'after-worker' }, { type: 'shoot-dns-service' }];
    });
    const steps = new ExtensionSteps(client, unserved, registrations, { wait: { interval: 50, timeout: 20_000 } });
    await expect(steps.deploy('AfterKubeAPIServer')).rejects.toThrow('shoot-dns-service');
    await steps.deleteStale();
    expect((await get('legacy')).metadata?.deletionTimestamp).toBeUndefined();
    expect((await get('before')).metadata?.deletionTimestamp).toBeUndefined();
  });

  it('deletes them before and after kube-apiserver as their registrations say', async () => {
    const steps = new ExtensionSteps(client, values, registrations, { wait: { interval: 50, timeout: 20_000 } });
    const signal = new AbortController().signal;
    await steps.destroy('BeforeKubeAPIServer');
    const deleting = async () =>
      (await client.list(ExtensionKind, { namespace: values.namespace })).items
        .filter((e) => e.metadata?.deletionTimestamp)
        .map((e) => e.metadata!.name!)
        .sort();
    expect(await deleting()).toEqual(['after-worker', 'legacy']);
    await release('after-worker');
    await release('legacy');
    await steps.waitUntilDeleted('BeforeKubeAPIServer', signal);
    await steps.destroy('AfterKubeAPIServer');
    expect(await deleting()).toEqual(['before']);
    const all = steps.waitUntilDeleted(undefined, signal);
    await release('before');
    await all;
    expect(await names()).toEqual([]);
  });
});
