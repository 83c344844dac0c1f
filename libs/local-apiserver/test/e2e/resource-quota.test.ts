// kube's ResourceQuota admission and quota controller against the local API server: object-count quotas on a custom
// resource (Gardener's `count/shoots.core.gardener.cloud`) and on ConfigMaps refuse the write past `hard` with kube's
// 403, charge `status.used`, give usage back when objects are deleted, and hold under concurrent creates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/test-support';
import { LocalApiServer } from '../../src/index.js';
import { rawClient } from './raw-client.js';

let server: LocalApiServer;
let api: ReturnType<typeof rawClient>;

const SHOOTS = '/apis/core.gardener.cloud/v1beta1/namespaces/garden-dev/shoots';
const COUNT_SHOOTS = 'count/shoots.core.gardener.cloud';

const post = (path: string, body: unknown, query = '') => api.send('POST', `${path}${query}`, JSON.stringify(body));
const shoot = (name: string) => ({
  apiVersion: 'core.gardener.cloud/v1beta1',
  kind: 'Shoot',
  metadata: { name },
  spec: { region: 'local' },
});
const quota = (name: string, hard: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name },
  spec: { hard },
});
const getQuota = async (namespace: string, name: string) =>
  (await api.send('GET', `/api/v1/namespaces/${namespace}/resourcequotas/${name}`)).json();

beforeAll(async () => {
  server = await LocalApiServer.start();
  api = rawClient(server);
  // A stand-in for Gardener's Shoot CRD: the same group and plural, any spec.
  const crd = await post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'shoots.core.gardener.cloud' },
    spec: {
      group: 'core.gardener.cloud',
      scope: 'Namespaced',
      names: { plural: 'shoots', singular: 'shoot', kind: 'Shoot', listKind: 'ShootList' },
      versions: [
        {
          name: 'v1beta1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  });
  expect(crd.status).toBe(201);
  for (const ns of ['garden-dev', 'cm', 'race'])
    expect(
      (await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status,
    ).toBe(201);
  await waitFor('the Shoot CRD served', async () => (await api.send('GET', SHOOTS)).status === 200);
});
afterAll(async () => server?.stop());

describe('ResourceQuota admission', () => {
  it("refuses the Shoot past count/shoots.core.gardener.cloud with kube's 403 and charges status.used", async () => {
    expect(
      (
        await post(
          '/api/v1/namespaces/garden-dev/resourcequotas',
          quota('gardener', { [COUNT_SHOOTS]: '2', 'count/secrets': '800' }),
        )
      ).status,
    ).toBe(201);
    // The quota controller fills in status.hard and status.used.
    await waitFor(
      'the quota status synced',
      async () => (await getQuota('garden-dev', 'gardener')).status?.hard?.[COUNT_SHOOTS] === '2',
    );
    expect((await getQuota('garden-dev', 'gardener')).status.used[COUNT_SHOOTS]).toBe('0');

    expect((await post(SHOOTS, shoot('s1'))).status).toBe(201);
    expect((await getQuota('garden-dev', 'gardener')).status.used[COUNT_SHOOTS]).toBe('1');
    expect((await post(SHOOTS, shoot('s2'))).status).toBe(201);

    const refused = await post(SHOOTS, shoot('s3'));
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message:
        'shoots.core.gardener.cloud "s3" is forbidden: exceeded quota: gardener, requested: ' +
        'count/shoots.core.gardener.cloud=1, used: count/shoots.core.gardener.cloud=2, limited: ' +
        'count/shoots.core.gardener.cloud=2',
      details: { name: 's3', group: 'core.gardener.cloud', kind: 'shoots' },
    });
    expect((await api.send('GET', `${SHOOTS}/s3`)).status).toBe(404);
    // Secrets are limited by the same quota but far from it.
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } };
    expect((await post('/api/v1/namespaces/garden-dev/secrets', secret)).status).toBe(201);
    expect((await getQuota('garden-dev', 'gardener')).status.used['count/secrets']).toBe('1');
  });

  it('gives the usage back when a Shoot is deleted, and a raised limit admits at once', async () => {
    expect((await api.send('DELETE', `${SHOOTS}/s1`)).status).toBe(200);
    await waitFor(
      'the Shoot usage given back',
      async () => (await getQuota('garden-dev', 'gardener')).status.used[COUNT_SHOOTS] === '1',
    );
    expect((await post(SHOOTS, shoot('s3'))).status).toBe(201);
    expect((await post(SHOOTS, shoot('s4'))).status).toBe(403);

    const q = await getQuota('garden-dev', 'gardener');
    q.spec.hard[COUNT_SHOOTS] = '3';
    expect(
      (await api.send('PUT', `/api/v1/namespaces/garden-dev/resourcequotas/gardener`, JSON.stringify(q))).status,
    ).toBe(200);
    expect((await post(SHOOTS, shoot('s4'))).status).toBe(201);
    expect((await post(SHOOTS, shoot('s5'))).status).toBe(403);
  });

  it('does not charge a dry run', async () => {
    expect((await post('/api/v1/namespaces/cm/resourcequotas', quota('q', { 'count/configmaps': '3' }))).status).toBe(
      201,
    );
    // The namespace's kube-root-ca.crt ConfigMap counts too.
    await waitFor(
      'the ConfigMap usage counted',
      async () => (await getQuota('cm', 'q')).status?.used?.['count/configmaps'] === '1',
    );
    expect(
      (
        await post(
          '/api/v1/namespaces/cm/configmaps',
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry' } },
          '?dryRun=All',
        )
      ).status,
    ).toBe(201);
    expect((await getQuota('cm', 'q')).status.used['count/configmaps']).toBe('1');
  });

  it('refuses the ConfigMap past count/configmaps, generated names included', async () => {
    const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
    expect((await post('/api/v1/namespaces/cm/configmaps', cm('a'))).status).toBe(201);
    expect((await post('/api/v1/namespaces/cm/configmaps', cm('b'))).status).toBe(201);
    const refused = await post('/api/v1/namespaces/cm/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { generateName: 'c-' },
    });
    expect(refused.status).toBe(403);
    expect(refused.json().message).toMatch(
      /^configmaps "c-[a-z0-9]+" is forbidden: exceeded quota: q, requested: count\/configmaps=1, used: count\/configmaps=3, limited: count\/configmaps=3$/,
    );
    // Updates of a ConfigMap are no creates: not charged.
    expect(
      (await api.send('PUT', '/api/v1/namespaces/cm/configmaps/a', JSON.stringify({ ...cm('a'), data: { k: 'v' } })))
        .status,
    ).toBe(200);
  });

  it('admits exactly `hard` of many concurrent creates', async () => {
    expect(
      (await post('/api/v1/namespaces/race/resourcequotas', quota('gardener', { [COUNT_SHOOTS]: '3' }))).status,
    ).toBe(201);
    const path = '/apis/core.gardener.cloud/v1beta1/namespaces/race/shoots';
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => post(path, shoot(`r${i}`))));
    const codes = results.map((r) => r.status).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(3);
    expect(codes.filter((c) => c === 403)).toHaveLength(9);
    expect((await api.send('GET', path)).json().items).toHaveLength(3);
  });
});
