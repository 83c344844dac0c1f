// Exact HTTP behaviour: error codes and Status bodies, schema validation with field paths, watch semantics.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { waitFor, gardenerAsset } from '@gardener-ts/test-support';
import { LocalApiServer } from '../../src/index.js';
import { openWatch, rawClient } from './raw-client.js';

let server: LocalApiServer;
let api: ReturnType<typeof rawClient>;
const crdPath = gardenerAsset('crds', '10-crd-extensions.gardener.cloud_infrastructures.yaml');

beforeAll(async () => {
  server = await LocalApiServer.start();
  api = rawClient(server);
  const crd = parseAllDocuments(readFileSync(crdPath, 'utf8'))[0].toJS();
  expect(
    (await api.send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify(crd))).status,
  ).toBe(201);
  await waitFor(
    'infrastructures to be served',
    async () => (await api.send('GET', '/apis/extensions.gardener.cloud/v1alpha1/infrastructures')).status === 200,
  );
});
afterAll(async () => server?.stop());

const cm = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, ...extra });

describe('errors at the edge', () => {
  it('refuses unauthenticated requests with 401 but serves health', async () => {
    const { request } = await import('node:https');
    const status = await new Promise<number>((resolve) => {
      request(`${server.url}/api/v1/namespaces`, { ca: server.credentials.ca.certPem }, (r) =>
        resolve(r.statusCode ?? 0),
      ).end();
    });
    expect(status).toBe(401);
  });

  it('answers malformed JSON with 400 and a Status', async () => {
    const res = await api.send('POST', '/api/v1/namespaces/default/configmaps', '{"metadata": ');
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
  });

  it('answers oversized bodies with 413', async () => {
    const res = await api.send(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      cm('big', { data: { x: 'a'.repeat(4 * 1024 * 1024) } }),
    );
    expect(res.status).toBe(413);
  });

  it('answers a wrong kind or version with 400', async () => {
    const res = await api.send(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } }),
    );
    expect(res.status).toBe(400);
    expect(res.json().reason).toBe('BadRequest');
    const unknown = await api.send('GET', '/apis/nope.example.com/v1/things');
    expect(unknown.status).toBe(404);
  });

  it('answers schema violations of a custom resource with 422 and field paths, storing nothing', async () => {
    const bad = {
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'Infrastructure',
      metadata: { name: 'bad', namespace: 'default' },
      spec: { type: 5, region: 'x' },
    };
    const res = await api.send(
      'POST',
      '/apis/extensions.gardener.cloud/v1alpha1/namespaces/default/infrastructures',
      JSON.stringify(bad),
    );
    expect(res.status).toBe(422);
    const status = res.json();
    expect(status.reason).toBe('Invalid');
    expect(status.details.causes.map((c: { field: string }) => c.field)).toEqual(
      expect.arrayContaining(['spec.type', 'spec.secretRef']),
    );
    expect(
      (await api.send('GET', '/apis/extensions.gardener.cloud/v1alpha1/namespaces/default/infrastructures/bad')).status,
    ).toBe(404);
  });

  it('rejects unknown fields with fieldValidation=Strict and prunes them otherwise', async () => {
    const body = cm('strict', { data: { a: 'b' }, bogus: true });
    const strict = await api.send('POST', '/api/v1/namespaces/default/configmaps?fieldValidation=Strict', body);
    expect(strict.status).toBe(400);
    expect(strict.json().message).toContain('unknown field "bogus"');
    const warn = await api.send('POST', '/api/v1/namespaces/default/configmaps', body);
    expect(warn.status).toBe(201);
    // A Warning header as kube writes it: code 299, agent "-", the text quoted with inner quotes escaped.
    expect(String(warn.headers.warning)).toBe('299 - "unknown field \\"bogus\\""');
    expect(warn.json().bogus).toBeUndefined();
  });

  it('does not store dry-run writes', async () => {
    const res = await api.send('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', cm('dry'));
    expect(res.status).toBe(201);
    expect((await api.send('GET', '/api/v1/namespaces/default/configmaps/dry')).status).toBe(404);
  });

  it('sets metadata.generation only on kinds that track it, as kube does', async () => {
    const created = await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('no-generation'));
    expect(created.json().metadata.generation).toBeUndefined();
    const infra = {
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'Infrastructure',
      metadata: { name: 'gen' },
      spec: { type: 'local', region: 'r', secretRef: { name: 's', namespace: 'default' } },
    };
    const custom = await api.send(
      'POST',
      '/apis/extensions.gardener.cloud/v1alpha1/namespaces/default/infrastructures',
      JSON.stringify(infra),
    );
    expect(custom.json().metadata.generation).toBe(1);
  });

  it('bumps metadata.generation on a spec change, not on a PUT that only leaves defaulted fields out', async () => {
    // What a controller sends (gardener-resource-manager re-applying its DaemonSet): the spec as it was written,
    // without the fields the server defaulted. kube compares the defaulted object, so this is no spec change.
    const ds = (image: string) => ({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'gen-ds' },
      spec: {
        selector: { matchLabels: { app: 'gen-ds' } },
        template: {
          metadata: { labels: { app: 'gen-ds' } },
          spec: {
            containers: [{ name: 'c', image }],
            volumes: [
              { name: 'v', hostPath: { path: '/var/lib/x' } },
              { name: 's', secret: { secretName: 's' } },
            ],
          },
        },
      },
    });
    const path = '/apis/apps/v1/namespaces/default/daemonsets';
    expect((await api.send('POST', path, JSON.stringify(ds('a')))).json().metadata.generation).toBe(1);
    const same = await api.send('PUT', `${path}/gen-ds`, JSON.stringify(ds('a')));
    expect(same.status).toBe(200);
    expect(same.json().metadata.generation).toBe(1);
    expect((await api.send('PUT', `${path}/gen-ds`, JSON.stringify(ds('b')))).json().metadata.generation).toBe(2);
  });

  it('allocates ClusterIPs and NodePorts to Services and keeps them across updates', async () => {
    const kubernetes = (await api.send('GET', '/api/v1/namespaces/default/services/kubernetes')).json();
    expect(kubernetes.spec).toMatchObject({ clusterIP: '10.0.0.1', ports: [{ name: 'https', port: 443 }] });
    const svc = (name: string, spec: Record<string, unknown>) =>
      JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });
    const a = (
      await api.send('POST', '/api/v1/namespaces/default/services', svc('a', { ports: [{ port: 80 }] }))
    ).json();
    const b = (
      await api.send(
        'POST',
        '/api/v1/namespaces/default/services',
        svc('b', { type: 'NodePort', ports: [{ port: 80 }] }),
      )
    ).json();
    expect(a.spec.clusterIP).toMatch(/^10\.0\.0\.\d+$/);
    expect(a.spec.clusterIPs).toEqual([a.spec.clusterIP]);
    expect(b.spec.clusterIP).not.toBe(a.spec.clusterIP);
    expect(b.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    const taken = await api.send(
      'POST',
      '/api/v1/namespaces/default/services',
      svc('c', { clusterIP: a.spec.clusterIP, ports: [{ port: 80 }] }),
    );
    expect(taken.status).toBe(422);
    expect(taken.json().details.causes[0].field).toBe('spec.clusterIPs');
    // An update that omits the allocated values (as kubectl apply's full object may) keeps them.
    const put = await api.send(
      'PUT',
      '/api/v1/namespaces/default/services/b',
      JSON.stringify({ ...b, spec: { type: 'NodePort', ports: [{ port: 80, protocol: 'TCP' }] } }),
    );
    expect(put.status).toBe(200);
    expect(put.json().spec).toMatchObject({
      clusterIP: b.spec.clusterIP,
      ports: [{ nodePort: b.spec.ports[0].nodePort }],
    });
  });

  it('validates built-in kinds beyond their schema (422 with kube wording)', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'mismatch' },
      spec: {
        selector: { matchLabels: { app: 'a' } },
        template: { metadata: { labels: { app: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    };
    const res = await api.send('POST', '/apis/apps/v1/namespaces/default/deployments', JSON.stringify(deployment));
    expect(res.status).toBe(422);
    expect(res.json().message).toBe(
      'Deployment.apps "mismatch" is invalid: spec.template.metadata.labels: Invalid value: {"app":"b"}: `selector` does not match template `labels`',
    );
  });

  it('generates names from generateName', async () => {
    const res = await api.send(
      'POST',
      '/api/v1/namespaces/default/configmaps',
      JSON.stringify({ metadata: { generateName: 'gen-' } }),
    );
    expect(res.status).toBe(201);
    expect(res.json().metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
  });
});

describe('watch', () => {
  it('resumes from a resourceVersion and sends bookmarks with initial-events-end', async () => {
    const first = (await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('w1'))).json();
    await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('w2'));
    const watch = openWatch(
      server,
      `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${first.metadata.resourceVersion}`,
    );
    await waitFor('w2 to be replayed', () => watch.events.some((e) => e.object.metadata.name === 'w2'));
    expect(watch.events.some((e) => e.object.metadata.name === 'w1')).toBe(false);
    watch.stop();

    const streaming = openWatch(
      server,
      '/api/v1/namespaces/default/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
    );
    await waitFor('the initial-events-end bookmark', () =>
      streaming.events.some(
        (e) => e.type === 'BOOKMARK' && e.object.metadata.annotations?.['k8s.io/initial-events-end'] === 'true',
      ),
    );
    const names = streaming.events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name);
    expect(names).toEqual(expect.arrayContaining(['w1', 'w2']));
    streaming.stop();
  });

  it('answers a resourceVersion older than the history with a 410 Expired ERROR event', async () => {
    const small = await LocalApiServer.start({ watchHistory: 5 });
    try {
      const client = rawClient(small);
      for (let i = 0; i < 20; i++) await client.send('POST', '/api/v1/namespaces/default/configmaps', cm(`h-${i}`));
      const watch = openWatch(small, '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2');
      await waitFor('the ERROR event', () => watch.events.length > 0);
      watch.stop();
      expect(watch.events[0]).toMatchObject({
        type: 'ERROR',
        object: { kind: 'Status', code: 410, reason: 'Expired' },
      });
    } finally {
      await small.stop();
    }
  });

  it('keeps fast watchers going while a slow one stalls', async () => {
    const { request } = await import('node:https');
    const { credentials } = server;
    // A watcher that never reads its stream.
    const slow = request(
      `${server.url}/api/v1/namespaces/default/configmaps?watch=true`,
      { ca: credentials.ca.certPem, cert: credentials.admin.certPem, key: credentials.admin.keyPem },
      (res) => res.pause(),
    );
    slow.end();
    const fast = openWatch(server, '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=0');
    for (let i = 0; i < 200; i++)
      await api.send(
        'POST',
        '/api/v1/namespaces/default/configmaps',
        cm(`bulk-${i}`, { data: { pad: 'x'.repeat(4096) } }),
      );
    await api.send('POST', '/api/v1/namespaces/default/configmaps', cm('fan-out'));
    await waitFor('the fast watcher to see it', () => fast.events.some((e) => e.object.metadata.name === 'fan-out'));
    fast.stop();
    slow.destroy();
  });
});
