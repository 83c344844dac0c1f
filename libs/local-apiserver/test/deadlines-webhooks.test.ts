// Every call the API server makes to a webhook has a total deadline, not only an idle timeout: a webhook that accepts
// and never answers, or one that trickles a byte at a time (which an idle timeout never notices), fails the API
// request or is ignored as its failurePolicy says, with kube's "context deadline exceeded" message; an authorization
// webhook that is too slow is no opinion (so RBAC's denial stands); an audit webhook POST that is too slow is retried
// and then dropped.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@gardener-ts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApiServer } from '../src/index.js';
import { webhookBackend } from '../src/audit/backends/webhook.js';
import { createCA, issueCertificate } from '../src/pki/certs.js';
import { rawClient } from './e2e/raw-client.js';

/** How long a trickling webhook keeps sending before it answers "allowed": far beyond the deadlines below. */
const TRICKLE_MS = 8_000;

let webhook: Server;
let webhookUrl: string;
let caPem: string;
let dir: string;
const open = new Set<ServerResponse>();
/** The path and review kind of every call the webhook got. */
const asked: string[] = [];

/**
 * `/hang`: reads the request and never answers. `/trickle`: answers 200 at once, then sends a space every 200 ms and
 * after TRICKLE_MS the JSON that allows the request (an AdmissionReview or a SubjectAccessReview); `/trickle-deny`
 * the same with an admission denial. Without a total deadline these answers would decide the requests.
 */
function handle(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const review = JSON.parse(body);
    asked.push(`${req.url} ${review.kind} ${review.request?.name ?? ''}`);
    if (req.url === '/hang') return;
    res.writeHead(200, { 'content-type': 'application/json' });
    const tick = setInterval(() => res.write(' '), 200);
    const answer = setTimeout(() => {
      clearInterval(tick);
      const allowed =
        review.kind === 'SubjectAccessReview'
          ? { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status: { allowed: true } }
          : {
              apiVersion: 'admission.k8s.io/v1',
              kind: 'AdmissionReview',
              response: {
                uid: review.request?.uid,
                allowed: req.url !== '/trickle-deny',
                status: { code: 403, message: 'too late' },
              },
            };
      res.end(JSON.stringify(allowed));
    }, TRICKLE_MS);
    res.on('close', () => {
      clearInterval(tick);
      clearTimeout(answer);
    });
  });
}

beforeAll(async () => {
  const ca = await createCA('deadline-webhook-ca');
  caPem = ca.certPem;
  const serving = await issueCertificate(ca, { commonName: 'webhook', usage: 'server', ipAddresses: ['127.0.0.1'] });
  webhook = createServer({ cert: serving.certPem, key: serving.keyPem }, handle);
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  webhookUrl = `https://127.0.0.1:${(webhook.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'deadlines-'));
});
afterAll(async () => {
  for (const res of open) res.destroy();
  webhook?.closeAllConnections();
  webhook?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('admission webhook deadlines', () => {
  let server: LocalApiServer;
  let api: ReturnType<typeof rawClient>;
  beforeAll(async () => {
    server = await LocalApiServer.start();
    api = rawClient(server);
  });
  afterAll(async () => server?.stop());

  /** Registers one validating webhook for ConfigMap creation, then creates a ConfigMap as kubectl would. */
  async function createWith(name: string, path: string, failurePolicy: 'Fail' | 'Ignore') {
    const config = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name },
      webhooks: [
        {
          name: `${name}.example.com`,
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          clientConfig: { url: `${webhookUrl}${path}`, caBundle: Buffer.from(caPem).toString('base64') },
          rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
          failurePolicy,
          timeoutSeconds: 1,
        },
      ],
    };
    const created = await api.send(
      'POST',
      '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
      JSON.stringify(config),
    );
    expect(created.status, created.body).toBe(201);
    // The configuration reaches admission through a watch of the store; every test checks that the webhook was asked.
    await new Promise((r) => setTimeout(r, 100));
    try {
      const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${name}-cm` }, data: { a: '1' } };
      return await api.send('POST', '/api/v1/namespaces/default/configmaps', JSON.stringify(cm));
    } finally {
      await api.send('DELETE', `/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${name}`);
    }
  }

  it.each([
    ['never answers', '/hang'],
    ['trickles bytes so an idle timeout never fires', '/trickle'],
  ])('fails the request when the webhook %s (failurePolicy Fail)', async (_label, path) => {
    const res = await createWith(`fail${path.slice(1)}`, path, 'Fail');
    expect(res.status, res.body).toBe(500);
    expect(res.json()).toMatchObject({
      kind: 'Status',
      reason: 'InternalError',
      message: `Internal error occurred: failed calling webhook "fail${path.slice(1)}.example.com": failed to call webhook: Post "${webhookUrl}${path}?timeout=1s": context deadline exceeded`,
    });
  });

  it('lets the request through when a webhook with failurePolicy Ignore misses its deadline', async () => {
    // The webhook would deny, but only after the deadline: the request is let through without its answer.
    const res = await createWith('ignoretrickle', '/trickle-deny', 'Ignore');
    expect(res.status, res.body).toBe(201);
    expect(asked).toContain('/trickle-deny AdmissionReview ignoretrickle-cm');
  });
});

describe('authorization webhook deadline', () => {
  let server: LocalApiServer;
  beforeAll(async () => {
    await writeFile(join(dir, 'tokens'), 'g-token,gardenlet,u1\n');
    // The webhook would allow everything, but only after TRICKLE_MS.
    server = await LocalApiServer.start({
      tokenFile: join(dir, 'tokens'),
      authorizationWebhook: { url: `${webhookUrl}/trickle`, caPem, timeoutMs: 1_000 },
    });
  });
  afterAll(async () => server?.stop());

  it('takes a webhook that misses its deadline as no opinion: RBAC denies', async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${server.url}/api/v1/namespaces/garden/secrets`,
        { ca: server.credentials.ca.certPem, headers: { authorization: 'Bearer g-token' } },
        (r) => {
          let body = '';
          r.on('data', (c) => (body += c));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(res.status, res.body).toBe(403);
    expect(asked).toContain('/trickle SubjectAccessReview ');
    expect(JSON.parse(res.body).message).toBe(
      'secrets is forbidden: User "gardenlet" cannot list resource "secrets" in API group "" in the namespace "garden"',
    );
  });
});

describe('audit webhook deadline', () => {
  it('gives up a POST that is not answered within its deadline, retries it, then drops the batch', async () => {
    // A plain HTTP receiver that trickles (an audit webhook kubeconfig may name http://).
    const receiver = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200);
        const tick = setInterval(() => res.write(' '), 100);
        const answer = setTimeout(() => res.end(), TRICKLE_MS);
        res.on('close', () => {
          clearInterval(tick);
          clearTimeout(answer);
        });
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    let posts = 0;
    receiver.on('request', () => posts++);
    const dropped: { count: number; err: unknown }[] = [];
    const backend = webhookBackend(
      { url: new URL(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/audit`) },
      (_plugin, count, err) => dropped.push({ count, err }),
      { timeoutMs: 500, attempts: 2, initialBackoffMs: 50, maxBatchWaitMs: 10 },
    );
    try {
      backend.process(
        JSON.stringify({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', auditID: 'a1', stage: 'ResponseComplete' }),
      );
      await waitFor('the batch to be dropped', () => dropped.length > 0, { timeoutMs: 20_000 });
      expect(dropped[0].count).toBe(1);
      expect(String((dropped[0].err as Error).message)).toBe(
        'audit webhook did not answer within 0.5s: context deadline exceeded',
      );
      expect(posts).toBe(2);
    } finally {
      await backend.stop();
      receiver.closeAllConnections();
      receiver.close();
    }
  });
});
