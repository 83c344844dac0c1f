// CRD validation rules (x-kubernetes-validations) end to end: Gardener's real DNSRecord CRD keeps spec.class immutable
// (`self == oldSelf`, `Value is immutable`; spec.type carries no rule in the CRD), refused with kube's 422 through the
// raw API and the real kubectl; a CRD whose rule does not compile is refused when it is created.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { gardenerAsset, runKubectl, waitFor } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { rawClient } from './raw-client.js';
import { widgetCRD } from './widget-crd.js';

const dnsRecordCRD = parse(
  readFileSync(gardenerAsset('crds', '10-crd-extensions.gardener.cloud_dnsrecords.yaml'), 'utf8'),
);
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const RECORDS = '/apis/extensions.gardener.cloud/v1alpha1/namespaces/default/dnsrecords';

let cluster: TestCluster;
let api: ReturnType<typeof rawClient>;

beforeAll(async () => {
  cluster = await startTestCluster();
  api = rawClient(cluster.server);
  const created = await api.send('POST', CRDS, JSON.stringify(dnsRecordCRD));
  expect(created.status, created.body).toBe(201);
  await waitFor('dnsrecords to be served', async () => (await api.send('GET', RECORDS)).status === 200);
});
afterAll(async () => cluster?.stop());

const record = {
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'DNSRecord',
  metadata: { name: 'api', namespace: 'default' },
  spec: {
    type: 'aws-route53',
    name: 'api.example.com',
    recordType: 'A',
    values: ['1.2.3.4'],
    secretRef: { name: 's', namespace: 'default' },
    class: 'garden',
  },
};

describe('x-kubernetes-validations of Gardener DNSRecord', () => {
  it('stores a DNSRecord, allows other updates, and refuses an update of spec.class with 422', async () => {
    const created = await api.send('POST', RECORDS, JSON.stringify(record));
    expect(created.status, created.body).toBe(201);

    const current = created.json();
    current.spec.values = ['5.6.7.8'];
    current.spec.ttl = 120;
    current.spec.type = 'gcp-clouddns';
    const updated = await api.send('PUT', `${RECORDS}/api`, JSON.stringify(current));
    expect(updated.status, updated.body).toBe(200);
    expect(updated.json().spec).toMatchObject({ values: ['5.6.7.8'], ttl: 120, type: 'gcp-clouddns', class: 'garden' });

    const changed = updated.json();
    changed.spec.class = 'shoot';
    const refused = await api.send('PUT', `${RECORDS}/api`, JSON.stringify(changed));
    expect(refused.status).toBe(422);
    const status = refused.json();
    expect(status).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422 });
    expect(status.message).toBe(
      'DNSRecord.extensions.gardener.cloud "api" is invalid: spec.class: Invalid value: "string": Value is immutable',
    );
    expect(status.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: "string": Value is immutable', field: 'spec.class' },
    ]);

    const patched = await api.send('PATCH', `${RECORDS}/api`, JSON.stringify({ spec: { class: 'shoot', ttl: 60 } }), {
      'content-type': 'application/merge-patch+json',
    });
    expect(patched.status).toBe(422);
    expect(patched.json().details.causes.map((c: { field: string }) => c.field)).toEqual(['spec.class']);
    expect((await api.send('GET', `${RECORDS}/api`)).json().spec).toMatchObject({ class: 'garden', ttl: 120 });

    // The status subresource only evaluates rules under status.
    const statusUpdate = await api.send(
      'PATCH',
      `${RECORDS}/api/status`,
      JSON.stringify({ status: { observedGeneration: 1 } }),
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(statusUpdate.status, statusUpdate.body).toBe(200);
    expect((await api.send('GET', `${RECORDS}/api`)).json().spec.class).toBe('garden');
  });

  it('does not evaluate the transition rule when there is no old value (setting spec.class the first time)', async () => {
    const { class: _class, ...spec } = record.spec;
    const created = await api.send(
      'POST',
      RECORDS,
      JSON.stringify({ ...record, metadata: { name: 'noclass', namespace: 'default' }, spec }),
    );
    expect(created.status, created.body).toBe(201);
    const set = await api.send('PATCH', `${RECORDS}/noclass`, JSON.stringify({ spec: { class: 'shoot' } }), {
      'content-type': 'application/merge-patch+json',
    });
    expect(set.status, set.body).toBe(200);
    expect(set.json().spec.class).toBe('shoot');
  });

  it('refuses the change of spec.class through the real kubectl', async () => {
    const result = await runKubectl(cluster.kubeconfigPath, [
      'patch',
      'dnsrecord',
      'api',
      '-n',
      'default',
      '--type=merge',
      '-p',
      '{"spec":{"class":"seed"}}',
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      'The DNSRecord "api" is invalid: spec.class: Invalid value: "string": Value is immutable',
    );
    const ok = await runKubectl(cluster.kubeconfigPath, [
      'patch',
      'dnsrecord',
      'api',
      '-n',
      'default',
      '--type=merge',
      '-p',
      '{"spec":{"type":"azure-dns","region":"eu-west-1"}}',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
  });
});

describe('CRDs with validation rules', () => {
  const crd = (rule: string) =>
    widgetCRD({
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            spec: { type: 'object', properties: { type: { type: 'string', 'x-kubernetes-validations': [{ rule }] } } },
          },
        },
      },
    });

  it('refuses a CRD whose rule does not compile, with the rule path', async () => {
    const refused = await api.send('POST', CRDS, JSON.stringify(crd('self == ')));
    expect(refused.status).toBe(422);
    const status = refused.json();
    expect(status.reason).toBe('Invalid');
    expect(status.details.causes).toEqual([
      expect.objectContaining({
        field: 'spec.validation.openAPIV3Schema.properties[spec].properties[type].x-kubernetes-validations[0].rule',
        reason: 'FieldValueInvalid',
      }),
    ]);
    expect(status.message).toMatch(
      /^CustomResourceDefinition\.apiextensions\.k8s\.io "widgets\.example\.com" is invalid: spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[type\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*: compilation failed: /,
    );
    expect((await api.send('GET', `${CRDS}/widgets.example.com`)).status).toBe(404);
  });

  it('refuses it through kubectl too, and accepts the CRD once the rule compiles; messages default to the rule', async () => {
    const bad = await runKubectl(cluster.kubeconfigPath, ['create', '-f', '-'], {
      input: JSON.stringify(crd('self.startsWith(')),
    });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(
      /is invalid: spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[type\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*compilation failed/,
    );

    expect((await api.send('POST', CRDS, JSON.stringify(crd('self.startsWith("w-")')))).status).toBe(201);
    const widgets = '/apis/example.com/v1/namespaces/default/widgets';
    await waitFor('widgets to be served', async () => (await api.send('GET', widgets)).status === 200);
    const widget = (type: string, name: string) =>
      JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec: { type } });
    expect((await api.send('POST', widgets, widget('w-a', 'a'))).status).toBe(201);
    const refused = await api.send('POST', widgets, widget('x', 'b'));
    expect(refused.status).toBe(422);
    expect(refused.json().message).toBe(
      'Widget.example.com "b" is invalid: spec.type: Invalid value: "string": failed rule: self.startsWith("w-")',
    );
  });
});
