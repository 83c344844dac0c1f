// provider-local's webhook server as one of several replicas, against the local API server: started without the
// start-up Node patches it leaves the seed's Nodes alone until told (the leader tells it), and it serves the serving
// certificate another replica's secrets manager renewed once it reloads it from the Secret.
import { createServer } from 'node:net';
import { connect, type PeerCertificate } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, Kinds, type NodeObject } from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';
import { startTestCluster, type TestCluster } from '@gardener-ts/testing';
import { ProviderLocalWebhooks, type ProviderLocalWebhooksOptions } from './server.js';
import { prepareSeed } from './seed.test-support.js';

const namespace = 'extension-provider-local-r3p1c';
const log = createLogger({ name: 'provider-local-webhook-replicas-test', level: 'silent' });
let cluster: TestCluster;
let client: ApiClient;
let port: number;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: free } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return free;
}

const webhooks = (options: Partial<ProviderLocalWebhooksOptions> = {}) =>
  new ProviderLocalWebhooks({
    client,
    namespace,
    log,
    host: '127.0.0.1',
    port,
    extraNames: ['127.0.0.1'],
    trigger: { attempts: 20, retryDelayMs: 100 },
    ...options,
  });

/** The certificate a server on `servedPort` presents. */
function servedCertificate(servedPort: number): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: servedPort, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate());
      socket.end();
    });
    socket.on('error', reject);
  });
}

const cpu = async (name: string) =>
  ((await client.get(Kinds.Node, { name })) as NodeObject & { status: { capacity: { cpu: string } } }).status.capacity
    .cpu;

beforeAll(async () => {
  cluster = await startTestCluster();
  client = await ApiClient.create(cluster.kubeconfigPath);
  port = await freePort();
  await prepareSeed(client, namespace, port);
  await client.patch(
    Kinds.Node,
    { name: 'seed-node' },
    { type: 'merge', patch: { status: { capacity: { cpu: '2', memory: '8Gi' } } } },
    { subresource: 'status' },
  );
}, 60_000);

afterAll(async () => {
  client?.close();
  await cluster?.stop();
});

describe('the webhook server of a replica', () => {
  it('patches the seed Nodes only when told to (by the leader), once', async () => {
    const server = webhooks({ triggerNodesOnStart: false });
    try {
      await server.start();
      expect(await server.nodesTriggered).toEqual([]);
      expect(await cpu('seed-node')).toBe('2');

      server.triggerNodes();
      const triggered = server.nodesTriggered;
      expect(await triggered).toEqual([]);
      expect(await cpu('seed-node')).toBe('100');
      // A second call (a leader's runnable started again) does not start another round.
      server.triggerNodes();
      expect(server.nodesTriggered).toBe(triggered);
    } finally {
      await server.stop();
    }
  });

  it('serves the certificate the secrets manager renewed elsewhere after reloading it', async () => {
    const serving = webhooks({ port: 0, triggerNodesOnStart: false });
    try {
      await serving.start();
      expect(await serving.reloadCertificate()).toBe(false);
      const before = await servedCertificate(serving.port!);
      expect(before.subjectaltname).not.toContain('renewed.example');

      // The leader's secrets manager renews the serving certificate (here: for one more name) and drops the old one.
      const leader = webhooks({ port: 0, extraNames: ['127.0.0.1', 'renewed.example'], triggerNodesOnStart: false });
      try {
        await leader.start();
      } finally {
        await leader.stop();
      }

      expect(await serving.reloadCertificate()).toBe(true);
      const after = await servedCertificate(serving.port!);
      expect(after.subjectaltname).toContain('DNS:renewed.example');
      expect(after.fingerprint256).not.toBe(before.fingerprint256);
      expect(await serving.reloadCertificate()).toBe(false);
    } finally {
      await serving.stop();
    }
  });
});
