// The webhook server behind the local API server's real admission chain: a mutating patch lands in the stored object,
// a validating denial reaches kubectl, broken requests and handlers are answered, and the certificate rotates live.
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCA, issueCertificate, type CertificateAuthority } from '@gardener-ts/local-apiserver';
import { runKubectl, waitFor } from '@gardener-ts/testing';
import { ApiError, ConfigMapKind, type ApiClient, type ConfigMap } from '../../src/index.js';
import {
  WebhookServer,
  allowed,
  denied,
  patched,
  rule,
  webhookConfiguration,
  type AdmissionHandler,
} from '../../src/webhook/index.js';
import { configMap, useTestCluster } from '../fixtures.js';

const env = useTestCluster();
const NS = 'webhooked';
let client: ApiClient;
let ca: CertificateAuthority;
let certDir: string;
let server: WebhookServer;
const metrics = new Registry();

async function writeServingCert(): Promise<string> {
  const pair = await issueCertificate(ca, {
    commonName: 'webhook',
    dnsNames: ['localhost'],
    ipAddresses: ['127.0.0.1'],
    usage: 'server',
  });
  // Write beside, then rename: the watcher never sees a half-written pair.
  await writeFile(join(certDir, 'tls.key.new'), pair.keyPem);
  await writeFile(join(certDir, 'tls.crt.new'), pair.certPem);
  await rename(join(certDir, 'tls.key.new'), join(certDir, 'tls.key'));
  await rename(join(certDir, 'tls.crt.new'), join(certDir, 'tls.crt'));
  return new X509Certificate(pair.certPem).fingerprint256;
}

const addMarkers: AdmissionHandler<ConfigMap> = (req) => {
  const cm = structuredClone(req.object!);
  if (cm.metadata?.name === 'explode') throw new Error('boom: the handler has a bug');
  cm.metadata!.labels = { ...cm.metadata!.labels, 'mutated-by': 'webhook' };
  cm.data = { ...cm.data, injected: 'yes' };
  return patched(cm);
};

const rejectForbidden: AdmissionHandler<ConfigMap> = (req) => {
  const data = req.object?.data ?? {};
  if ('forbidden' in data) return denied('the key "forbidden" is not allowed');
  return allowed(undefined, 'deprecated' in data ? ['the key "deprecated" will be removed'] : undefined);
};

beforeAll(async () => {
  client = env.client;
  ca = await createCA('webhook-ca');
  certDir = await mkdtemp(join(tmpdir(), 'webhook-certs-'));
  await writeServingCert();
  server = new WebhookServer({
    host: '127.0.0.1',
    port: 0,
    certDir,
    metrics,
    timeoutMs: 1500,
    certPollIntervalMs: 500,
  });
  server.mutating('/mutate-configmap', addMarkers as AdmissionHandler);
  server.validating('/validate-configmap', rejectForbidden as AdmissionHandler);
  server.validating(
    '/slow',
    (_req, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(allowed()))),
  );
  server.handle('/plain', (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, path: req.url }));
  });
  server.handle('/plain-broken', () => {
    throw new Error('plain handler broke');
  });
  await server.start();

  await client.create({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: NS, labels: { 'webhook-test': 'on' } },
  });
  const common = {
    target: { url: `https://127.0.0.1:${server.port}` },
    caBundle: ca.certPem,
  };
  const selector = { namespaceSelector: { matchLabels: { 'webhook-test': 'on' } } };
  const rules = [rule(['CREATE', 'UPDATE'], '', 'v1', 'configmaps')];
  await client.create(
    webhookConfiguration({
      ...common,
      type: 'mutating',
      name: 'test-mutating',
      webhooks: [{ name: 'mutate.configmaps.test.io', path: '/mutate-configmap', rules, ...selector }],
    }),
  );
  await client.create(
    webhookConfiguration({
      ...common,
      type: 'validating',
      name: 'test-validating',
      webhooks: [{ name: 'validate.configmaps.test.io', path: '/validate-configmap', rules, ...selector }],
    }),
  );
  // The API server picks configurations up asynchronously: wait until a create goes through the webhook.
  let probe = 0;
  await waitFor('the webhooks to be active', async () => {
    const cm = await client.create(configMap(`probe-${probe++}`, {}, {}, NS));
    return cm.metadata?.labels?.['mutated-by'] === 'webhook';
  });
});

afterAll(async () => {
  await server?.stop();
  if (certDir) await rm(certDir, { recursive: true, force: true });
});

/** POSTs to the webhook server directly, trusting its CA. */
function post(path: string, body: string, contentType = 'application/json'): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: 'POST',
        ca: ca.certPem,
        servername: 'localhost',
        headers: { 'content-type': contentType },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const review = (object: unknown, uid = 'uid-1') =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid,
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      operation: 'CREATE',
      userInfo: {},
      object,
    },
  });

async function requestsTotal(webhook: string, code: string): Promise<number> {
  const values = (await metrics.getSingleMetric('controller_runtime_webhook_requests_total')!.get()).values;
  return values.find((v) => v.labels.webhook === webhook && v.labels.code === code)?.value ?? 0;
}

describe('webhook server behind the API server', () => {
  it('applies the mutating webhook patch to the stored object', async () => {
    const created = await client.create(configMap('mutated', { own: 'data' }, {}, NS));
    expect(created.metadata?.labels).toEqual({ 'mutated-by': 'webhook' });
    expect(created.data).toEqual({ own: 'data', injected: 'yes' });
    const stored = await client.get(ConfigMapKind, { namespace: NS, name: 'mutated' });
    expect(stored.data?.injected).toBe('yes');
    // Outside the selected namespace the webhook is not called.
    expect((await client.create(configMap('untouched', { own: 'data' }))).data).toEqual({ own: 'data' });
  });

  it('returns a validating denial to kubectl and stores nothing', async () => {
    const result = await runKubectl(env.cluster.kubeconfigPath, [
      'create',
      'configmap',
      'denied',
      '-n',
      NS,
      '--from-literal=forbidden=1',
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      'admission webhook "validate.configmaps.test.io" denied the request: the key "forbidden" is not allowed',
    );
    await expect(client.get(ConfigMapKind, { namespace: NS, name: 'denied' })).rejects.toMatchObject({ code: 404 });
  });

  it('passes warnings through to kubectl', async () => {
    const result = await runKubectl(env.cluster.kubeconfigPath, [
      'create',
      'configmap',
      'warned',
      '-n',
      NS,
      '--from-literal=deprecated=1',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Warning: the key "deprecated" will be removed');
  });

  it('denies with code 500 when a handler throws, and keeps serving', async () => {
    const err = await client.create(configMap('explode', {}, {}, NS)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(500);
    expect((err as ApiError).message).toContain('boom: the handler has a bug');
    expect((await client.create(configMap('after-explode', {}, {}, NS))).data?.injected).toBe('yes');
  });
});

describe('webhook server requests', () => {
  it('answers a direct review with a JSON patch and counts it', async () => {
    const before = await requestsTotal('/mutate-configmap', '200');
    const res = await post(
      '/mutate-configmap',
      review({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }, 'abc'),
    );
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ uid: 'abc', allowed: true, patchType: 'JSONPatch' });
    expect(JSON.parse(Buffer.from(res.body.response.patch, 'base64').toString())).toEqual([
      { op: 'add', path: '/metadata/labels', value: { 'mutated-by': 'webhook' } },
      { op: 'add', path: '/data', value: { injected: 'yes' } },
    ]);
    expect(await requestsTotal('/mutate-configmap', '200')).toBe(before + 1);
  });

  it('rejects malformed reviews with 400 and a message saying what is wrong', async () => {
    const notJson = await post('/validate-configmap', '{not json');
    expect(notJson.status).toBe(400);
    expect(notJson.body.response.status.message).toMatch(/^malformed AdmissionReview: the request body is not JSON/);
    const v1beta1 = await post(
      '/validate-configmap',
      JSON.stringify({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', request: {} }),
    );
    expect(v1beta1.status).toBe(400);
    expect(v1beta1.body.response.status.message).toContain('expected apiVersion admission.k8s.io/v1');
    const noUid = await post(
      '/validate-configmap',
      JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { operation: 'CREATE' } }),
    );
    expect(noUid.body.response.status.message).toContain('request.uid is missing');
    expect((await post('/validate-configmap', review({}), 'text/plain')).status).toBe(400);
    expect((await post('/nowhere', review({}))).status).toBe(404);
    expect(await requestsTotal('/validate-configmap', '400')).toBeGreaterThanOrEqual(4);
  });

  it('serves plain HTTP handlers beside the admission webhooks, answering 500 when one throws', async () => {
    const before = await requestsTotal('/plain', '200');
    const res = await post('/plain?x=1', '{}');
    expect(res).toEqual({ status: 200, body: { method: 'POST', path: '/plain?x=1' } });
    expect(await requestsTotal('/plain', '200')).toBe(before + 1);
    const broken = await post('/plain-broken', '{}');
    expect(broken).toEqual({ status: 500, body: { error: 'plain handler broke' } });
    expect(server.paths).toEqual(expect.arrayContaining(['/mutate-configmap', '/plain']));
    expect(() => server.handle('/mutate-configmap', () => undefined)).toThrow(/already registered/);
  });

  it('denies when a handler exceeds the timeout', async () => {
    const started = performance.now();
    const res = await post('/slow', review({}));
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ allowed: false, status: { code: 504 } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(1400);
  });
});

describe('certificate rotation', () => {
  it('serves the rotated certificate on the next handshake, without a restart', async () => {
    const handshake = () =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(
          { host: '127.0.0.1', port: server.port, ca: ca.certPem, servername: 'localhost' },
          () => {
            resolve(socket.getPeerX509Certificate()!.fingerprint256);
            socket.end();
          },
        );
        socket.on('error', reject);
      });
    const before = await handshake();
    const rotated = await writeServingCert();
    expect(rotated).not.toBe(before);
    await waitFor('the server to present the rotated certificate', async () => (await handshake()) === rotated);
    // The API server still reaches the webhook through the new certificate.
    expect((await client.create(configMap('after-rotation', {}, {}, NS))).data?.injected).toBe('yes');
  });
});
