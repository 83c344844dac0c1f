// provider-local's webhooks against the local API server: the server starts with the CA and certificate the secrets
// manager keeps in the extension namespace, registers the seed configuration (through the extension's Service and
// its Endpoints, as the seed's API server reaches it) and patches the existing Node, which then reports 100 CPUs and
// 100Gi; a kubelet's later status update is mutated the same way; a restart keeps the CA. The shoot configuration
// (by URL, as the shoot's API server in the seed calls it) is applied to the same API server playing the shoot.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  Kinds,
  type KubernetesObject,
  type NodeObject,
  type Workload,
} from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';
import { startTestCluster, type TestCluster } from '@gardener-ts/testing';
import {
  SeedWebhookConfigurationName,
  WebhookServiceName,
  WebhookServicePort,
  shootWebhookConfiguration,
} from './configurations.js';
import { WebhookCertificatesIdentity } from './certificates.js';
import { ProviderLocalWebhooks } from './server.js';
import { prepareSeed } from './seed.test-support.js';

const namespace = 'extension-provider-local-x1y2z';
const log = createLogger({ name: 'provider-local-webhooks-test', level: 'silent' });
let cluster: TestCluster;
let client: ApiClient;
let port: number;

/** A port nothing listens on now (the Endpoints must name it before the server starts). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: free } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return free;
}

/** A Node as a kubelet on a 2-core machine reports it. */
async function reportRealResources(name: string): Promise<NodeObject> {
  return client.patch(
    Kinds.Node,
    { name },
    {
      type: 'merge',
      patch: {
        status: {
          capacity: { cpu: '2', memory: '8Gi', pods: '110' },
          allocatable: { cpu: '2', memory: '7Gi', pods: '110' },
        },
      },
    },
    { subresource: 'status' },
  );
}

const resources = (node: NodeObject) => {
  const status = node.status as { capacity: Record<string, string>; allocatable: Record<string, string> };
  return { capacity: status.capacity, allocatable: status.allocatable };
};
const local = {
  capacity: { cpu: '100', memory: '100Gi', pods: '110' },
  allocatable: { cpu: '100', memory: '100Gi', pods: '110' },
};

const webhooks = () =>
  new ProviderLocalWebhooks({
    client,
    namespace,
    log,
    host: '127.0.0.1',
    port,
    extraNames: ['127.0.0.1'],
    trigger: { attempts: 20, retryDelayMs: 100 },
  });

beforeAll(async () => {
  cluster = await startTestCluster();
  client = await ApiClient.create(cluster.kubeconfigPath);
  port = await freePort();
  await prepareSeed(client, namespace, port);
  await reportRealResources('seed-node');
}, 60_000);

afterAll(async () => {
  client?.close();
  await cluster?.stop();
});

describe('provider-local webhooks on the seed', () => {
  it('registers the node webhook and patches the existing Nodes on startup', async () => {
    expect(resources(await client.get(Kinds.Node, { name: 'seed-node' })).capacity.cpu).toBe('2');
    const server = webhooks();
    try {
      await server.start();
      const configuration = (await client.get(Kinds.MutatingWebhookConfiguration, {
        name: SeedWebhookConfigurationName,
      })) as KubernetesObject & { webhooks: { name: string; clientConfig: Record<string, unknown> }[] };
      expect(configuration.webhooks.map((w) => w.name)).toEqual([
        'node.local.extensions.gardener.cloud',
        'controlplane.local.extensions.gardener.cloud',
      ]);
      expect(configuration.webhooks[0]!.clientConfig.service).toEqual({
        namespace,
        name: WebhookServiceName,
        path: '/node',
        port: WebhookServicePort,
      });
      expect(configuration.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Namespace', name: namespace });

      // The startup patch went through the webhook.
      expect(await server.nodesTriggered).toEqual([]);
      expect(resources(await client.get(Kinds.Node, { name: 'seed-node' }))).toEqual(local);
      // And so does the kubelet's next status update.
      expect(resources(await reportRealResources('seed-node'))).toEqual(local);
      // A Node registered later gets them with its first status update.
      await client.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'new-node' } });
      expect(resources(await reportRealResources('new-node'))).toEqual(local);
    } finally {
      await server.stop();
    }
  });

  it('keeps its CA across restarts, in Secrets of the extension namespace', async () => {
    const secrets = async () =>
      (
        await client.list(Kinds.Secret, {
          namespace,
          labelSelector: `manager-identity=${WebhookCertificatesIdentity}`,
        })
      ).items
        .map((s) => s.metadata!.name!)
        .sort();
    const first = webhooks();
    await first.start();
    const withFirstCA = first.shootWebhookConfiguration();
    const before = await secrets();
    await first.stop();
    const second = webhooks();
    try {
      await second.start();
      expect(second.shootWebhookConfiguration()).toEqual(withFirstCA);
      // The periodic renewal finds nothing to renew yet.
      expect(await second.renewCertificates()).toBe(false);
      expect(second.shootWebhookConfiguration()).toEqual(withFirstCA);
      expect(await secrets()).toEqual(before);
      expect(before.some((name) => name.startsWith('ca-provider-local-webhook'))).toBe(true);
      expect(before.some((name) => name.startsWith('provider-local-webhook-server'))).toBe(true);
    } finally {
      await second.stop();
    }
  });
});

describe('the control plane webhook on the seed', () => {
  const selected = { 'provider.extensions.gardener.cloud/mutated-by-controlplane-webhook': 'true' };
  const deployment = (ns: string, labels: Record<string, string> = selected): Workload => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'kube-scheduler', namespace: ns, labels },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: 'kubernetes', role: 'scheduler' } },
      template: {
        metadata: { labels: { app: 'kubernetes', role: 'scheduler' } },
        spec: { containers: [{ name: 'kube-scheduler', image: 'kube-scheduler' }] },
      },
    },
  });
  const templateLabels = (d: Workload) => d.spec?.template?.metadata?.labels ?? {};

  it('labels the kube-scheduler Deployment of a shoot namespace of provider local the gardenlet selected, no other', async () => {
    await client.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shoot--local--local', labels: { 'shoot.gardener.cloud/provider': 'local' } },
    });
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shoot--other--other' } });
    const server = webhooks();
    try {
      await server.start();
      let created = await client.create(deployment('shoot--local--local'));
      for (let i = 0; i < 20 && !templateLabels(created)['injected-by']; i++) {
        // The API server picks up a new configuration from its watch.
        await client.delete(Kinds.Deployment, { namespace: 'shoot--local--local', name: 'kube-scheduler' });
        await new Promise((resolve) => setTimeout(resolve, 100));
        created = await client.create(deployment('shoot--local--local'));
      }
      expect(templateLabels(created)).toEqual({
        app: 'kubernetes',
        role: 'scheduler',
        'injected-by': 'provider-local',
      });
      // An update that drops the label gets it back.
      const updated = await client.update({
        ...created,
        spec: { ...created.spec, template: deployment('x').spec!.template },
      });
      expect(templateLabels(updated)['injected-by']).toBe('provider-local');
      // Outside shoot namespaces of provider local the webhook is not called.
      expect(templateLabels(await client.create(deployment('shoot--other--other')))).toEqual({
        app: 'kubernetes',
        role: 'scheduler',
      });
      // Nor for a Deployment without the gardenlet's label.
      await client.delete(Kinds.Deployment, { namespace: 'shoot--local--local', name: 'kube-scheduler' });
      expect(templateLabels(await client.create(deployment('shoot--local--local', {})))).toEqual({
        app: 'kubernetes',
        role: 'scheduler',
      });
    } finally {
      await server.stop();
    }
  });
});

describe('provider-local webhooks in a shoot', () => {
  it("mutates the shoot's Node status through the URL of the shoot configuration", async () => {
    const server = webhooks();
    try {
      await server.start();
      // This API server now plays the shoot: only the shoot's configuration, reaching provider-local by URL.
      await client.delete(Kinds.MutatingWebhookConfiguration, { name: SeedWebhookConfigurationName });
      const deployed = server.shootWebhookConfiguration()! as KubernetesObject & {
        webhooks: { clientConfig: { url: string; caBundle: string } }[];
      };
      expect(deployed.webhooks[0]!.clientConfig.url).toBe(
        `https://${WebhookServiceName}.${namespace}:${WebhookServicePort}/node-shoot`,
      );
      const caBundle = Buffer.from(deployed.webhooks[0]!.clientConfig.caBundle, 'base64').toString();
      await client.create(shootWebhookConfiguration(namespace, caBundle, `https://127.0.0.1:${port}`));
      await client.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'machine-0' } });
      let node = await reportRealResources('machine-0');
      for (let i = 0; i < 20 && resources(node).capacity.cpu !== '100'; i++) {
        // The API server picks up a new configuration from its watch.
        await new Promise((resolve) => setTimeout(resolve, 100));
        node = await reportRealResources('machine-0');
      }
      expect(resources(node)).toEqual(local);
    } finally {
      await server.stop();
    }
  });
});
