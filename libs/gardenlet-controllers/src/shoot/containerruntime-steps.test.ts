// The shoot's ContainerRuntime resources against the local API server with Gardener's extension CRDs: one per runtime
// of each pool, deployed with a reconcile request and waited for until the (fake) extension handled it; stale ones
// deleted when a pool drops its runtime; all of them in the delete flow; a type no registration serves refused.
import { join } from 'node:path';
import { ApiClient, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { startTestEnvironment, workspaceRoot, type TestEnvironment } from '@gardener-ts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeExtension } from '../component/testdata/fake-extension.js';
import { exampleValues } from '../component/testdata/fixtures.js';
import { ContainerRuntimeSteps, wantedContainerRuntimeNames } from './containerruntime-steps.js';

const withRuntimes = (...types: string[]) =>
  exampleValues((shoot) => {
    shoot.spec.provider.workers![0].cri = {
      name: 'containerd',
      containerRuntimes: types.map((type) => ({ type, providerConfig: { configured: type } as never })),
    };
  });

describe('ContainerRuntime resources of a shoot', () => {
  let env: TestEnvironment;
  let client: ApiClient;
  const ContainerRuntimeKind = kind<KubernetesObject & { spec?: Record<string, unknown> }>(
    'extensions.gardener.cloud/v1alpha1',
    'ContainerRuntime',
  );
  const namespace = withRuntimes().namespace;
  const served = (type: string) => type !== 'kata';
  const steps = (values: ReturnType<typeof withRuntimes>) =>
    new ContainerRuntimeSteps(client, values, served, { wait: { interval: 50, timeout: 20_000 } });
  const list = async () => (await client.list(ContainerRuntimeKind, { namespace })).items;
  const ref = (name: string) => ({ kind: 'ContainerRuntime', name, namespace });

  beforeAll(async () => {
    env = await startTestEnvironment({ crds: [join(workspaceRoot(), 'deploy/gardener/crds')] });
    client = await ApiClient.create(env.kubeconfigPath);
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  });
  afterAll(async () => {
    client?.close();
    await env?.stop();
  });

  it('are wanted per pool and runtime, none without cri.containerRuntimes', () => {
    expect([...wantedContainerRuntimeNames(withRuntimes('gvisor', 'wasm'))]).toEqual(['gvisor-local', 'wasm-local']);
    expect(wantedContainerRuntimeNames(exampleValues()).size).toBe(0);
  });

  it('are deployed with a reconcile request and waited for until the extension handled them', async () => {
    const run = steps(withRuntimes('gvisor', 'wasm'));
    await run.deploy();
    const deployed = await list();
    expect(deployed.map((r) => [r.metadata?.name, r.metadata?.annotations?.['gardener.cloud/operation']])).toEqual([
      ['gvisor-local', 'reconcile'],
      ['wasm-local', 'reconcile'],
    ]);
    expect(deployed[0]?.spec).toEqual({
      type: 'gvisor',
      binaryPath: '/var/bin/containerruntimes',
      providerConfig: { configured: 'gvisor' },
      workerPool: {
        name: 'local',
        selector: {
          matchLabels: { 'worker.gardener.cloud/pool': 'local', 'worker.garden.sapcloud.io/group': 'local' },
        },
      },
    });
    const waiting = run.waitUntilReady(new AbortController().signal);
    for (const name of ['gvisor-local', 'wasm-local']) await fakeExtension(client).handle(ref(name));
    await waiting;
  });

  it('are deleted when a pool no longer names them, and all of them in the delete flow', async () => {
    const run = steps(withRuntimes('gvisor'));
    await run.destroy();
    const deleting = async () =>
      (await list()).filter((r) => r.metadata?.deletionTimestamp).map((r) => r.metadata?.name);
    expect(await deleting()).toEqual(['wasm-local']);
    const stale = run.waitUntilDeleted(new AbortController().signal);
    await fakeExtension(client).release(ref('wasm-local'));
    await stale;
    await run.destroy(true);
    expect(await deleting()).toEqual(['gvisor-local']);
    const all = run.waitUntilDeleted(new AbortController().signal, true);
    await fakeExtension(client).release(ref('gvisor-local'));
    await all;
    expect(await list()).toEqual([]);
  });

  it('refuses a runtime type no ControllerRegistration serves, naming the shoot and the type', async () => {
    await expect(steps(withRuntimes('gvisor', 'kata')).deploy()).rejects.toThrow(
      'Shoot garden-local/local needs ContainerRuntime type(s) kata, which no ControllerRegistration serves',
    );
    expect(await list()).toEqual([]);
  });
});
