import { connect } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiextensionsV1Api, CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import {
  gardenerAsset,
  kubectl,
  startNatsServer,
  startTestEnvironment,
  type NatsServer,
  type TestEnvironment,
} from '../src/index.js';

/** The INFO line nats-server greets every client with. */
function natsInfo(url: string): Promise<{ server_id: string; jetstream?: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
      const line = /^INFO (\{.*\})\s*\r\n/.exec(data);
      if (line) {
        socket.destroy();
        resolve(JSON.parse(line[1]));
      }
    });
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error(`no INFO from ${url}: ${JSON.stringify(data)}`)));
  });
}

const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.gardener.cloud' },
  spec: {
    group: 'example.gardener.cloud',
    names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        },
      },
    ],
  },
};

describe('startTestEnvironment', () => {
  let env: TestEnvironment | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await env?.stop();
    env = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('starts the API server alone quickly, with a working kubeconfig', async () => {
    const started = performance.now();
    env = await startTestEnvironment();
    const ms = performance.now() - started;
    console.log(`test environment without CRDs or NATS started in ${ms.toFixed(0)} ms`);
    expect(env.nats).toBeUndefined();
    const namespaces = await env.kubeConfig.makeApiClient(CoreV1Api).listNamespace();
    expect(namespaces.items.map((n) => n.metadata?.name)).toContain('default');
    expect(await kubectl(env.kubeconfigPath, ['get', 'namespace', 'kube-system', '-o', 'name'])).toBe(
      'namespace/kube-system\n',
    );
  });

  it("installs Gardener's CRDs from deploy/gardener/crds and serves their resources", async () => {
    const started = performance.now();
    env = await startTestEnvironment({ crds: [gardenerAsset('crds')] });
    console.log(`test environment with Gardener's CRDs started in ${(performance.now() - started).toFixed(0)} ms`);
    const crds = await env.kubeConfig.makeApiClient(ApiextensionsV1Api).listCustomResourceDefinition();
    const names = crds.items.map((c) => c.metadata?.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'workers.extensions.gardener.cloud',
        'managedresources.resources.gardener.cloud',
        'gardens.operator.gardener.cloud',
      ]),
    );
    for (const crd of crds.items) {
      expect(crd.status?.conditions?.find((c) => c.type === 'Established')?.status, crd.metadata?.name).toBe('True');
    }
    const objects = env.kubeConfig.makeApiClient(CustomObjectsApi);
    await objects.createNamespacedCustomObject({
      group: 'extensions.gardener.cloud',
      version: 'v1alpha1',
      namespace: 'default',
      plural: 'workers',
      body: {
        apiVersion: 'extensions.gardener.cloud/v1alpha1',
        kind: 'Worker',
        metadata: { name: 'pool' },
        spec: {
          type: 'local',
          region: 'local',
          secretRef: { name: 's', namespace: 'default' },
          infrastructureProviderStatus: {},
          pools: [],
        },
      },
    });
    expect(
      await kubectl(env.kubeconfigPath, ['get', 'workers.extensions.gardener.cloud', '-n', 'default', '-o', 'name']),
    ).toBe('worker.extensions.gardener.cloud/pool\n');
  });

  it('installs CRDs given as objects and as a YAML file with several documents', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gardener-ts-crds-'));
    const gadget = structuredClone(widgetCrd);
    gadget.metadata.name = 'gadgets.example.gardener.cloud';
    Object.assign(gadget.spec.names, { kind: 'Gadget', plural: 'gadgets', singular: 'gadget', listKind: 'GadgetList' });
    await writeFile(join(dir, 'gadgets.yaml'), `# gadgets\n---\n${JSON.stringify(gadget)}\n---\n`);
    env = await startTestEnvironment({ crds: [widgetCrd, join(dir, 'gadgets.yaml')] });
    const objects = env.kubeConfig.makeApiClient(CustomObjectsApi);
    for (const [kind, plural] of [
      ['Widget', 'widgets'],
      ['Gadget', 'gadgets'],
    ]) {
      const body = { apiVersion: 'example.gardener.cloud/v1', kind, metadata: { name: 'one' }, spec: { size: 3 } };
      await objects.createNamespacedCustomObject({
        group: 'example.gardener.cloud',
        version: 'v1',
        namespace: 'default',
        plural,
        body,
      });
      const read = (await objects.getNamespacedCustomObject({
        group: 'example.gardener.cloud',
        version: 'v1',
        namespace: 'default',
        plural,
        name: 'one',
      })) as { spec: unknown };
      // The schema keeps unknown fields under spec: the x-kubernetes-* extension survived the client.
      expect(read.spec).toEqual({ size: 3 });
    }
  });

  it('refuses a missing path and a YAML file that is not a CRD, naming them', async () => {
    await expect(startTestEnvironment({ crds: ['/nonexistent/crds'] })).rejects.toThrow(
      'CRD path /nonexistent/crds: does not exist',
    );
    dir = await mkdtemp(join(tmpdir(), 'gardener-ts-crds-'));
    await writeFile(join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n');
    await expect(startTestEnvironment({ crds: [dir] })).rejects.toThrow(
      `${join(dir, 'cm.yaml')} (document 1) is not an apiextensions.k8s.io/v1 CustomResourceDefinition`,
    );
  });

  it('starts nats-server with JetStream when asked and stops it with the environment', async () => {
    const started = performance.now();
    env = await startTestEnvironment({ nats: { jetstream: true } });
    console.log(`test environment with NATS (JetStream) started in ${(performance.now() - started).toFixed(0)} ms`);
    const nats = env.nats!;
    expect(nats.url).toMatch(/^nats:\/\/127\.0\.0\.1:\d+$/);
    expect((await natsInfo(nats.url)).jetstream).toBe(true);
    await env.stop();
    env = undefined;
    await expect(natsInfo(nats.url)).rejects.toThrow(/ECONNREFUSED/);
    expect(existsSync(nats.dir)).toBe(false);
  });
});

describe('startNatsServer', () => {
  let nats: NatsServer | undefined;
  afterEach(async () => {
    await nats?.stop();
    nats = undefined;
  });

  it('runs without JetStream by default', async () => {
    nats = await startNatsServer();
    expect((await natsInfo(nats.url)).jetstream).toBeFalsy();
  });

  it('halts and restarts on the same port, keeping its JetStream store', async () => {
    nats = await startNatsServer({ jetstream: true });
    const { url } = nats;
    await nats.halt();
    await expect(natsInfo(url)).rejects.toThrow(/ECONNREFUSED/);
    await nats.restart();
    expect(nats.url).toBe(url);
    expect((await natsInfo(url)).jetstream).toBe(true);
    expect(existsSync(join(nats.dir, 'jetstream'))).toBe(true);
  });

  it('reports a broken configuration with the server output', async () => {
    await expect(startNatsServer({ config: 'authorization { users = [ ' })).rejects.toThrow(/nats-server exited/);
  });
});
