// The audit webhook backend: EventList batches POSTed to a local HTTPS server named by a kubeconfig (kube's
// --audit-webhook-config-file), retried after a failure, flushed on stop, and counted when they cannot be sent.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, kubectl, waitFor } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { createCA, issueCertificate } from '../../src/pki/certs.js';
import { rawClient } from './raw-client.js';

const POLICY = {
  apiVersion: 'audit.k8s.io/v1',
  kind: 'Policy',
  omitStages: ['RequestReceived'],
  rules: [{ level: 'Request', resources: [{ resources: ['configmaps'] }] }],
};

let receiver: Server;
let dir: string;
let caPem: string;
/** Every body the receiver got, with the status it answered. */
const posts: { body: any; answered: number; authorization?: string }[] = [];
/** How many of the next POSTs fail with 500. */
let failNext = 0;

beforeAll(async () => {
  const ca = await createCA('audit-webhook-ca');
  caPem = ca.certPem;
  const serving = await issueCertificate(ca, { commonName: 'audit-sink', usage: 'server', ipAddresses: ['127.0.0.1'] });
  receiver = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const answered = failNext > 0 ? 500 : 200;
      if (failNext > 0) failNext--;
      posts.push({ body: JSON.parse(text), answered, authorization: req.headers.authorization });
      res.writeHead(answered, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  dir = await mkdtemp(join(tmpdir(), 'audit-webhook-'));
});

afterAll(async () => {
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

/** A kubeconfig for the audit webhook at `server`, the CA given as a file path relative to the kubeconfig. */
async function webhookConfig(name: string, server: string): Promise<string> {
  await writeFile(join(dir, 'ca.crt'), caPem);
  const path = join(dir, `${name}.kubeconfig`);
  await writeFile(
    path,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- name: sink\n  cluster:\n    server: ${server}/audit\n    certificate-authority: ca.crt`,
      'users:',
      '- name: apiserver\n  user:\n    token: audit-token',
      'contexts:',
      '- name: audit\n  context:\n    cluster: sink\n    user: apiserver',
      'current-context: audit',
      '',
    ].join('\n'),
  );
  return path;
}

const receiverUrl = () => `https://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
const itemsFor = (name: string) =>
  posts.flatMap((p) => (p.answered === 200 ? p.body.items : [])).filter((ev: any) => ev.objectRef?.name === name);

describe('audit webhook backend', () => {
  let cluster: TestCluster;

  afterAll(async () => cluster?.stop());

  it('POSTs EventList batches, retrying a batch the webhook failed', async () => {
    cluster = await startTestCluster({
      audit: {
        policy: POLICY,
        webhookConfigFile: await webhookConfig('retry', receiverUrl()),
        webhookBatch: { maxBatchWaitMs: 100, initialBackoffMs: 100 },
      },
    });
    failNext = 1;
    await kubectl(cluster.kubeconfigPath, ['create', 'configmap', 'sent', '--from-literal=k=v']);
    const events = await waitFor(
      'the configmap’s events at the webhook',
      () => itemsFor('sent').length > 0 && itemsFor('sent'),
      { timeoutMs: 20_000 },
    );

    const failed = posts.find((p) => p.answered === 500);
    expect(failed, 'the first POST was answered 500').toBeDefined();
    // The failed batch came again: its events are among the accepted ones.
    const acceptedIds = new Set(
      posts
        .filter((p) => p.answered === 200)
        .flatMap((p) => p.body.items.map((ev: any) => `${ev.auditID}/${ev.stage}`)),
    );
    for (const ev of failed!.body.items) expect(acceptedIds.has(`${ev.auditID}/${ev.stage}`)).toBe(true);

    const batch = posts.find((p) => p.answered === 200)!;
    expect(batch.body).toMatchObject({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {} });
    expect(batch.authorization).toBe('Bearer audit-token');
    expect(events).toEqual([
      expect.objectContaining({
        kind: 'Event',
        apiVersion: 'audit.k8s.io/v1',
        level: 'Request',
        stage: 'ResponseComplete',
        verb: 'create',
        objectRef: { resource: 'configmaps', namespace: 'default', name: 'sent', apiVersion: 'v1' },
        responseStatus: { metadata: {}, code: 201 },
        requestObject: expect.objectContaining({ kind: 'ConfigMap', data: { k: 'v' } }),
      }),
    ]);
    expect(events[0].responseObject).toBeUndefined();
  });

  it('sends what is still buffered when the server stops', async () => {
    // A batch would wait a minute to fill: only the flush on stop can deliver it within the test.
    const slow = await startTestCluster({
      audit: {
        policy: POLICY,
        webhookConfigFile: await webhookConfig('flush', receiverUrl()),
        webhookBatch: { maxBatchWaitMs: 60_000 },
      },
    });
    try {
      await kubectl(slow.kubeconfigPath, ['create', 'configmap', 'flushed', '--from-literal=k=v']);
      expect(itemsFor('flushed')).toEqual([]);
    } finally {
      await slow.stop();
    }
    expect(itemsFor('flushed').map((ev: any) => ev.stage)).toEqual(['ResponseComplete']);
  });

  it('never fails a request when the webhook is down, and counts the dropped events', async () => {
    const down = await startTestCluster({
      audit: {
        policy: POLICY,
        webhookConfigFile: await webhookConfig('down', `https://127.0.0.1:${await freePort()}`),
        webhookBatch: { maxBatchWaitMs: 50, initialBackoffMs: 50, attempts: 2 },
      },
    });
    try {
      await kubectl(down.kubeconfigPath, ['create', 'configmap', 'lost', '--from-literal=k=v']);
      expect(await kubectl(down.kubeconfigPath, ['get', 'configmap', 'lost', '-o', 'jsonpath={.data.k}'])).toBe('v');
      const client = rawClient(down.server);
      await waitFor(
        'apiserver_audit_error_total{plugin="webhook"} to count the dropped events',
        async () => {
          const metrics = (await client.send('GET', '/metrics')).body;
          const m = /apiserver_audit_error_total\{plugin="webhook"\} (\d+)/.exec(metrics);
          return m !== null && Number(m[1]) >= 2;
        },
        { timeoutMs: 20_000 },
      );
      expect((await client.send('GET', '/metrics')).body).toMatch(/apiserver_audit_event_total \d+/);
    } finally {
      await down.stop();
    }
  });
});
