// CRD conversion with strategy Webhook, end to end against the local API server (it lives here rather than in
// local-apiserver's e2e tests because local-apiserver must not depend on controller-runtime: nx refuses the cycle): a CRD with v1 (storage, spec.size) and v2 (spec.replicas) whose
// conversion webhook is a controller-runtime WebhookServer in this process. Writes are converted to v1 before they
// are stored, reads, lists and watches to the version asked for — also for the real kubectl; a webhook Failure fails
// the read with kube's message; a CRD with strategy Webhook but no webhook is refused.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCA,
  issueCertificate,
  startTestCluster,
  type LocalApiServer,
  type TestCluster,
} from '@gardener-ts/local-apiserver';
import { kubectl, waitFor } from '@gardener-ts/testing';
import { WebhookServer, type ConvertibleObject } from '../../src/webhook/index.js';

/** HTTPS requests with the admin certificate, for exact status codes and bodies. */
function rawClient(server: LocalApiServer) {
  const { ca, admin } = server.credentials;
  const send = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: string; json(): any }>((resolve, reject) => {
      const req = request(
        `${server.url}${path}`,
        {
          method,
          ca: ca.certPem,
          cert: admin.certPem,
          key: admin.keyPem,
          headers: { 'content-type': 'application/json', ...headers },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, json: () => JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return { send };
}

/** Opens a watch and collects its events until `stop()`. */
function openWatch(server: LocalApiServer, path: string) {
  const { ca, admin } = server.credentials;
  const events: { type: string; object: any }[] = [];
  let buffer = '';
  const req = request(`${server.url}${path}`, { ca: ca.certPem, cert: admin.certPem, key: admin.keyPem }, (res) => {
    res.on('data', (d: Buffer) => {
      buffer += d.toString();
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        events.push(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
      }
    });
  });
  req.on('error', () => {});
  req.end();
  return { events, stop: () => req.destroy() };
}

let cluster: TestCluster;
let api: ReturnType<typeof rawClient>;
let webhook: WebhookServer;
let certDir: string;
let caBundle: string;
const reviews: { desiredAPIVersion: string; names: string[] }[] = [];

/** v1 has spec.size, v2 spec.replicas; objects labelled `conversion: refuse` cannot be converted. */
function convert(object: ConvertibleObject, desiredAPIVersion: string): ConvertibleObject {
  reviews.push({ desiredAPIVersion, names: [object.metadata?.name ?? ''] });
  if (object.metadata?.labels?.conversion === 'refuse') throw new Error(`refusing to convert ${object.metadata.name}`);
  const spec = { ...(object.spec ?? {}) };
  if (desiredAPIVersion === 'example.com/v2' && 'size' in spec) {
    spec.replicas = spec.size;
    delete spec.size;
  } else if (desiredAPIVersion === 'example.com/v1' && 'replicas' in spec) {
    spec.size = spec.replicas;
    delete spec.replicas;
  }
  return { ...object, apiVersion: desiredAPIVersion, spec };
}

const specSchema = (field: string) => ({
  openAPIV3Schema: {
    type: 'object',
    properties: { spec: { type: 'object', properties: { [field]: { type: 'integer' } } } },
  },
});

function crd(name: string, plural: string, kind: string, conversion: Record<string, unknown>) {
  return JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural, singular: plural.slice(0, -1), kind, listKind: `${kind}List` },
      versions: [
        { name: 'v1', served: true, storage: true, schema: specSchema('size') },
        { name: 'v2', served: true, storage: false, schema: specSchema('replicas') },
      ],
      conversion,
    },
  });
}

const widget = (version: string, name: string, spec: Record<string, unknown>, labels?: Record<string, string>) =>
  JSON.stringify({
    apiVersion: `example.com/${version}`,
    kind: 'Widget',
    metadata: { name, ...(labels ? { labels } : {}) },
    spec,
  });

beforeAll(async () => {
  const ca = await createCA('conversion-webhook-ca');
  const serving = await issueCertificate(ca, {
    commonName: 'converter',
    usage: 'server',
    ipAddresses: ['127.0.0.1'],
    dnsNames: ['localhost'],
  });
  caBundle = Buffer.from(ca.certPem).toString('base64');
  certDir = await mkdtemp(join(tmpdir(), 'conversion-webhook-'));
  await writeFile(join(certDir, 'tls.crt'), serving.certPem);
  await writeFile(join(certDir, 'tls.key'), serving.keyPem);
  webhook = new WebhookServer({ host: '127.0.0.1', port: 0, certDir });
  webhook.conversion('/convert', convert);
  await webhook.start();

  cluster = await startTestCluster();
  api = rawClient(cluster.server);
  const created = await api.send(
    'POST',
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    crd('widgets.example.com', 'widgets', 'Widget', {
      strategy: 'Webhook',
      webhook: {
        clientConfig: { url: `https://127.0.0.1:${webhook.port}/convert`, caBundle },
        conversionReviewVersions: ['v1'],
      },
    }),
  );
  expect(created.status, created.body).toBe(201);
  await waitFor(
    'widgets to be served',
    async () => (await api.send('GET', '/apis/example.com/v2/namespaces/default/widgets')).status === 200,
  );
  const ns = await api.send(
    'POST',
    '/api/v1/namespaces',
    JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'broken' } }),
  );
  expect(ns.status, ns.body).toBe(201);
});

afterAll(async () => {
  await cluster?.stop();
  await webhook?.stop();
  if (certDir) await rm(certDir, { recursive: true, force: true });
});

describe('CRD conversion webhook', () => {
  it('converts a v2 create to the v1 storage version and every read to the version asked for', async () => {
    const before = reviews.length;
    const created = await api.send(
      'POST',
      '/apis/example.com/v2/namespaces/default/widgets',
      widget('v2', 'w1', { replicas: 3 }),
    );
    expect(created.status, created.body).toBe(201);
    expect(created.json()).toMatchObject({ apiVersion: 'example.com/v2', spec: { replicas: 3 } });
    expect(created.json().spec.size).toBeUndefined();
    // Stored in v1 (converted by the webhook before the write), answered in v2 (converted back).
    expect(reviews.slice(before).map((r) => r.desiredAPIVersion)).toEqual(['example.com/v1', 'example.com/v2']);
    const stored = await cluster.server.storage.get('/registry/example.com/widgets/default/w1');
    expect(stored?.object).toMatchObject({ apiVersion: 'example.com/v1', spec: { size: 3 } });

    const v1 = (await api.send('GET', '/apis/example.com/v1/namespaces/default/widgets/w1')).json();
    expect(v1).toMatchObject({ apiVersion: 'example.com/v1', kind: 'Widget', spec: { size: 3 } });
    expect(v1.spec.replicas).toBeUndefined();
    const v2 = (await api.send('GET', '/apis/example.com/v2/namespaces/default/widgets/w1')).json();
    expect(v2).toMatchObject({ apiVersion: 'example.com/v2', kind: 'Widget', spec: { replicas: 3 } });
    expect(v2.metadata.uid).toBe(v1.metadata.uid);
    expect(v2.metadata.resourceVersion).toBe(v1.metadata.resourceVersion);
  });

  it('lists in the requested version, converting all items in one review', async () => {
    expect(
      (await api.send('POST', '/apis/example.com/v1/namespaces/default/widgets', widget('v1', 'w2', { size: 5 })))
        .status,
    ).toBe(201);
    const before = reviews.length;
    const list = await api.send('GET', '/apis/example.com/v2/namespaces/default/widgets');
    expect(list.status, list.body).toBe(200);
    const body = list.json();
    expect(body.apiVersion).toBe('example.com/v2');
    expect(body.items.map((i: any) => [i.apiVersion, i.metadata.name, i.spec])).toEqual([
      ['example.com/v2', 'w1', { replicas: 3 }],
      ['example.com/v2', 'w2', { replicas: 5 }],
    ]);
    expect(reviews.length - before).toBe(2); // the handler is called per object of the single review
  });

  it('updates through v2 and delivers converted watch events', async () => {
    const watch = openWatch(cluster.server, '/apis/example.com/v2/namespaces/default/widgets?watch=true');
    try {
      await waitFor('the initial events', () => watch.events.filter((e) => e.type === 'ADDED').length === 2);
      expect(watch.events.map((e) => [e.object.apiVersion, e.object.metadata.name, e.object.spec])).toEqual([
        ['example.com/v2', 'w1', { replicas: 3 }],
        ['example.com/v2', 'w2', { replicas: 5 }],
      ]);
      const patched = await api.send(
        'PATCH',
        '/apis/example.com/v2/namespaces/default/widgets/w1',
        JSON.stringify({ spec: { replicas: 4 } }),
        {
          'content-type': 'application/merge-patch+json',
        },
      );
      expect(patched.status, patched.body).toBe(200);
      expect(patched.json()).toMatchObject({ apiVersion: 'example.com/v2', spec: { replicas: 4 } });
      expect(patched.json().metadata.generation).toBe(2);
      await waitFor('the MODIFIED event', () => watch.events.some((e) => e.type === 'MODIFIED'));
      const modified = watch.events.find((e) => e.type === 'MODIFIED')!;
      expect(modified.object).toMatchObject({
        apiVersion: 'example.com/v2',
        metadata: { name: 'w1' },
        spec: { replicas: 4 },
      });
      expect(modified.object.spec.size).toBeUndefined();
    } finally {
      watch.stop();
    }
    const v1 = (await api.send('GET', '/apis/example.com/v1/namespaces/default/widgets/w1')).json();
    expect(v1.spec).toEqual({ size: 4 });
  });

  it('shows v2 to the real kubectl', async () => {
    const yaml = await kubectl(cluster.kubeconfigPath, [
      'get',
      'widgets.v2.example.com',
      'w1',
      '-n',
      'default',
      '-o',
      'yaml',
    ]);
    expect(yaml).toContain('apiVersion: example.com/v2');
    expect(yaml).toMatch(/replicas: 4/);
    expect(yaml).not.toMatch(/size:/);
    const v1 = await kubectl(cluster.kubeconfigPath, [
      'get',
      'widgets.v1.example.com',
      'w1',
      '-n',
      'default',
      '-o',
      'yaml',
    ]);
    expect(v1).toContain('apiVersion: example.com/v1');
    expect(v1).toMatch(/size: 4/);
  });

  it('fails a read with kube message when the webhook answers Failure', async () => {
    // Created in the storage version: no conversion needed, so the create succeeds.
    const created = await api.send(
      'POST',
      '/apis/example.com/v1/namespaces/broken/widgets',
      widget('v1', 'bad', { size: 1 }, { conversion: 'refuse' }),
    );
    expect(created.status, created.body).toBe(201);
    const read = await api.send('GET', '/apis/example.com/v2/namespaces/broken/widgets/bad');
    expect(read.status).toBe(500);
    expect(read.json()).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'InternalError',
      code: 500,
      message: 'conversion webhook for example.com/v1, Kind=Widget failed: refusing to convert bad',
    });
    const list = await api.send('GET', '/apis/example.com/v2/namespaces/broken/widgets');
    expect(list.status).toBe(500);
    expect(list.json().message).toBe(
      'conversion webhook for example.com/v1, Kind=Widget failed: refusing to convert bad',
    );
    // A write through v2 fails the same way (the object is converted to v1 before it is stored).
    const write = await api.send(
      'POST',
      '/apis/example.com/v2/namespaces/broken/widgets',
      widget('v2', 'bad2', { replicas: 1 }, { conversion: 'refuse' }),
    );
    expect(write.status).toBe(500);
    expect(write.json().message).toBe(
      'conversion webhook for example.com/v2, Kind=Widget failed: refusing to convert bad2',
    );
    expect((await api.send('GET', '/apis/example.com/v1/namespaces/broken/widgets/bad2')).status).toBe(404);
    // The storage version itself never needs the webhook.
    expect((await api.send('GET', '/apis/example.com/v1/namespaces/broken/widgets/bad')).json().spec).toEqual({
      size: 1,
    });
  });

  it('refuses a CRD with strategy Webhook but no webhook, and one without a supported review version', async () => {
    const missing = await api.send(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      crd('gadgets.example.com', 'gadgets', 'Gadget', { strategy: 'Webhook' }),
    );
    expect(missing.status, missing.body).toBe(422);
    expect(missing.json().details.causes).toEqual(
      expect.arrayContaining([
        {
          reason: 'FieldValueRequired',
          field: 'spec.conversion.webhookClientConfig',
          message: 'Required value: required when strategy is set to Webhook',
        },
        { reason: 'FieldValueRequired', field: 'spec.conversion.conversionReviewVersions', message: 'Required value' },
      ]),
    );
    const unsupported = await api.send(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      crd('gadgets.example.com', 'gadgets', 'Gadget', {
        strategy: 'Webhook',
        webhook: { clientConfig: { url: 'https://127.0.0.1:1/convert' }, conversionReviewVersions: ['v9'] },
      }),
    );
    expect(unsupported.status, unsupported.body).toBe(422);
    expect(unsupported.json().message).toContain(
      'spec.conversion.conversionReviewVersions: Invalid value: []string{"v9"}: must include at least one of v1, v1beta1',
    );
    const stray = await api.send(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      crd('gadgets.example.com', 'gadgets', 'Gadget', {
        strategy: 'None',
        webhook: { clientConfig: { url: 'https://127.0.0.1:1/convert' }, conversionReviewVersions: ['v1'] },
      }),
    );
    expect(stray.status, stray.body).toBe(422);
    expect(stray.json().message).toContain(
      'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
    );
  });
});
