// Admission webhooks against a real HTTPS webhook server run by the test: mutating patches are applied, a
// validating denial returns the webhook's message, failurePolicy decides while the webhook is down, selectors and
// rules decide what is sent, and DELETE carries the old object.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalApiServer } from '../../src/index.js';
import { createCA, issueCertificate } from '../../src/pki/certs.js';
import { rawClient } from './raw-client.js';

interface Review {
  request: { uid: string; operation: string; name: string; object: any; oldObject: any; namespace?: string };
}

let server: LocalApiServer;
let api: ReturnType<typeof rawClient>;
let webhook: Server;
let webhookUrl: string;
let caBundle: string;
const received: Review[] = [];
let fuzzResponse: string | ((uid: string) => string) = '';

beforeAll(async () => {
  const ca = await createCA('webhook-ca');
  const serving = await issueCertificate(ca, {
    commonName: 'webhook',
    usage: 'server',
    ipAddresses: ['127.0.0.1'],
    dnsNames: ['hooks.default.svc'],
  });
  caBundle = Buffer.from(ca.certPem).toString('base64');
  webhook = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const review = JSON.parse(body) as Review;
      received.push(review);
      const r = review.request;
      const answer = (response: Record<string, unknown>) => {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            apiVersion: 'admission.k8s.io/v1',
            kind: 'AdmissionReview',
            response: { uid: r.uid, ...response },
          }),
        );
      };
      if (req.url === '/fuzz') {
        res.setHeader('content-type', 'application/json');
        return res.end(typeof fuzzResponse === 'function' ? fuzzResponse(r.uid) : fuzzResponse);
      }
      if (req.url === '/label2') {
        const patch = [{ op: 'add', path: '/metadata/labels/second', value: 'yes' }];
        return answer({
          allowed: true,
          patchType: 'JSONPatch',
          patch: Buffer.from(JSON.stringify(patch)).toString('base64'),
        });
      }
      if (req.url === '/mutate') {
        const patch = [
          { op: 'add', path: '/metadata/labels', value: { ...(r.object.metadata.labels ?? {}), mutated: 'yes' } },
        ];
        return answer({
          allowed: true,
          patchType: 'JSONPatch',
          patch: Buffer.from(JSON.stringify(patch)).toString('base64'),
          warnings: ['mutated by test'],
        });
      }
      if (req.url === '/validate') {
        const denied = r.object?.data?.forbidden === 'true';
        return answer(
          denied
            ? { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'forbidden data' } }
            : { allowed: true },
        );
      }
      answer({ allowed: true });
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
  webhookUrl = `https://127.0.0.1:${(webhook.address() as AddressInfo).port}`;
  server = await LocalApiServer.start();
  api = rawClient(server);
});
afterAll(async () => {
  await server?.stop();
  webhook?.close();
});

const cm = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data: {} });

async function configure(kind: 'Mutating' | 'Validating', name: string, hook: Record<string, unknown>): Promise<void> {
  const resource = `${kind.toLowerCase()}webhookconfigurations`;
  await api.send('DELETE', `/apis/admissionregistration.k8s.io/v1/${resource}/${name}`);
  const body = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}WebhookConfiguration`,
    metadata: { name },
    webhooks: [{ name: `${name}.example.com`, admissionReviewVersions: ['v1'], sideEffects: 'None', ...hook }],
  };
  const res = await api.send('POST', `/apis/admissionregistration.k8s.io/v1/${resource}`, JSON.stringify(body));
  expect(res.status, res.body).toBe(201);
  await new Promise((r) => setTimeout(r, 50));
}

const configMapRules = (operations: string[]) => [
  { operations, apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] },
];

describe('admission webhooks', () => {
  it('apply a mutating webhook’s JSON patch and pass its warnings back', async () => {
    await configure('Mutating', 'mutate', {
      clientConfig: { url: `${webhookUrl}/mutate`, caBundle },
      rules: configMapRules(['CREATE']),
      objectSelector: { matchLabels: { team: 'a' } },
    });
    const res = await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('m1', { labels: { team: 'a' } }));
    expect(res.status).toBe(201);
    expect(res.json().metadata.labels).toEqual({ team: 'a', mutated: 'yes' });
    expect(String(res.headers.warning)).toContain('mutated by test');
    // Dry-run requests reach only webhooks without side effects.
    await configure('Mutating', 'effects', {
      clientConfig: { url: `${webhookUrl}/mutate`, caBundle },
      rules: configMapRules(['CREATE']),
      objectSelector: { matchLabels: { team: 'a' } },
      sideEffects: 'Some',
    });
    const dry = await api.send(
      'POST',
      '/api/v1/namespaces/default/configmaps?dryRun=All',
      cm('m3', { labels: { team: 'a' } }),
    );
    expect(dry.status).toBe(400);
    expect(dry.json().message).toBe('admission webhook "effects.example.com" does not support dry run');
    await api.send('DELETE', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/effects');
    // The object selector keeps other objects away from the webhook.
    const other = await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('m2', { labels: { team: 'b' } }));
    expect(other.json().metadata.labels).toEqual({ team: 'b' });
  });

  it('reach a webhook through a Service client config (its Endpoints, verified as <service>.<namespace>.svc)', async () => {
    const port = Number(new URL(webhookUrl).port);
    await api.send(
      'POST',
      '/api/v1/namespaces/default/services',
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'hooks' },
        spec: { ports: [{ name: 'https', port: 443, targetPort: port }] },
      }),
    );
    await api.send(
      'POST',
      '/api/v1/namespaces/default/endpoints',
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: 'hooks' },
        subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }],
      }),
    );
    await configure('Mutating', 'mutate', {
      clientConfig: { service: { namespace: 'default', name: 'hooks', path: '/mutate' }, caBundle },
      rules: configMapRules(['CREATE']),
      objectSelector: { matchLabels: { team: 'svc' } },
    });
    const res = await api.send(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      cm('via-service', { labels: { team: 'svc' } }),
    );
    expect(res.status, res.body).toBe(201);
    expect(res.json().metadata.labels).toEqual({ team: 'svc', mutated: 'yes' });
  });

  it('reinvoke an IfNeeded webhook whose output a later webhook changed', async () => {
    await configure('Mutating', 'a-first', {
      clientConfig: { url: `${webhookUrl}/mutate`, caBundle },
      rules: configMapRules(['CREATE']),
      objectSelector: { matchLabels: { team: 'again' } },
      reinvocationPolicy: 'IfNeeded',
    });
    await configure('Mutating', 'b-second', {
      clientConfig: { url: `${webhookUrl}/label2`, caBundle },
      rules: configMapRules(['CREATE']),
      objectSelector: { matchLabels: { team: 'again' } },
    });
    received.length = 0;
    const res = await api.send(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      cm('again', { labels: { team: 'again' } }),
    );
    expect(res.json().metadata.labels).toEqual({ team: 'again', mutated: 'yes', second: 'yes' });
    expect(received.filter((r) => r.request.name === 'again')).toHaveLength(3);
    await api.send('DELETE', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/a-first');
    await api.send('DELETE', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/b-second');
  });

  it('refuse with the validating webhook’s message and code, and send DELETE with the old object', async () => {
    await configure('Validating', 'validate', {
      clientConfig: { url: `${webhookUrl}/validate`, caBundle },
      rules: configMapRules(['CREATE', 'DELETE']),
    });
    const denied = await api.send(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'v1' }, data: { forbidden: 'true' } }),
    );
    expect(denied.status).toBe(403);
    expect(denied.json().message).toBe('admission webhook "validate.example.com" denied the request: forbidden data');
    expect((await api.send('GET', '/api/v1/namespaces/default/configmaps/v1')).status).toBe(404);

    expect((await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('v2'))).status).toBe(201);
    received.length = 0;
    expect((await api.send('DELETE', '/api/v1/namespaces/default/configmaps/v2')).status).toBe(200);
    const del = received.find((r) => r.request.operation === 'DELETE');
    expect(del?.request).toMatchObject({
      name: 'v2',
      namespace: 'default',
      object: null,
      oldObject: { metadata: { name: 'v2' } },
    });
    await api.send('DELETE', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/validate');
  });

  it('block while a Fail webhook is down, and let requests pass with Ignore', async () => {
    const down = 'https://127.0.0.1:1/unreachable';
    await configure('Validating', 'down', {
      clientConfig: { url: down, caBundle },
      rules: configMapRules(['CREATE']),
      failurePolicy: 'Fail',
      timeoutSeconds: 2,
    });
    const blocked = await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('f1'));
    expect(blocked.status).toBe(500);
    expect(blocked.json().message).toMatch(/^Internal error occurred: failed calling webhook "down.example.com": /);
    await configure('Validating', 'down', {
      clientConfig: { url: down, caBundle },
      rules: configMapRules(['CREATE']),
      failurePolicy: 'Ignore',
      timeoutSeconds: 2,
    });
    expect((await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('f2'))).status).toBe(201);
    await api.send('DELETE', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/down');
  });

  it('send only what the rules and namespace selector match', async () => {
    await configure('Validating', 'scoped', {
      clientConfig: { url: `${webhookUrl}/validate`, caBundle },
      rules: configMapRules(['UPDATE']),
      namespaceSelector: { matchLabels: { watched: 'true' } },
    });
    await api.send(
      'POST',
      '/api/v1/namespaces',
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'watched', labels: { watched: 'true' } },
      }),
    );
    received.length = 0;
    await api.send('POST', '/api/v1/namespaces/watched/configmaps', cm('s1'));
    await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('s2'));
    expect(received).toHaveLength(0); // CREATE is not in the rules
    await api.send('PUT', '/api/v1/namespaces/watched/configmaps/s1', cm('s1', { namespace: 'watched' }));
    await api.send('PUT', '/api/v1/namespaces/default/configmaps/s2', cm('s2', { namespace: 'default' }));
    expect(received.map((r) => `${r.request.operation} ${r.request.namespace}/${r.request.name}`)).toEqual([
      'UPDATE watched/s1',
    ]);
  });

  it('never admit on a malformed AdmissionReview response and never crash (property)', async () => {
    await configure('Validating', 'fuzz', {
      clientConfig: { url: `${webhookUrl}/fuzz`, caBundle },
      rules: configMapRules(['CREATE']),
      failurePolicy: 'Fail',
    });
    const malformed = fc.oneof(
      fc.string(),
      fc.json(),
      fc.record({ response: fc.record({ uid: fc.string(), allowed: fc.boolean() }) }).map((v) => JSON.stringify(v)),
      fc.record({ response: fc.record({ allowed: fc.anything() }) }).map((v) => JSON.stringify(v)),
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(malformed, async (body) => {
        fuzzResponse = body;
        const res = await api.send('POST', '/api/v1/namespaces/default/configmaps', cm(`fuzz-${n++}`));
        return res.status === 500 && res.json().kind === 'Status';
      }),
      { numRuns: 40 },
    );
    // A well-formed answer for the request's uid still admits.
    fuzzResponse = (uid) => JSON.stringify({ response: { uid, allowed: true } });
    expect((await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('fuzz-ok'))).status).toBe(201);
    await api.send('DELETE', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/fuzz');
  });
});
