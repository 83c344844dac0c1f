import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExtensionObject } from '@gardener-ts/extensions';
import { dnsRecordConfigMap, localRecordOf, recordLine } from './records.js';

/** A DNSRecord as gardenlet writes it (internal domain of the example shoot `local` of project `local`). */
const dnsRecord = (spec: Record<string, unknown>, namespace = 'shoot--local--local'): ExtensionObject => ({
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'DNSRecord',
  metadata: { name: 'local-internal', namespace },
  spec: { type: 'local', secretRef: { name: 'dnsrecord-internal', namespace }, ...spec },
});

describe('localRecordOf', () => {
  it("answers a shoot API server's names with the kube-apiserver Service of its namespace, whatever the values", () => {
    for (const name of [
      'api.local.local.internal.local.gardener.cloud',
      'api.local.local.external.local.gardener.cloud.',
      'API.Local.Local.Internal.Local.Gardener.Cloud',
    ]) {
      expect(localRecordOf(dnsRecord({ name, recordType: 'A', values: ['127.0.0.1'], ttl: 120 }))).toEqual({
        name: name.toLowerCase().replace(/\.$/, ''),
        type: 'CNAME',
        values: ['kube-apiserver.shoot--local--local.svc.cluster.local'],
      });
    }
  });

  it('keeps type and values of other records, and of API server names outside shoot namespaces', () => {
    expect(
      localRecordOf(
        dnsRecord({ name: 'api.x.y.internal.local.gardener.cloud', recordType: 'A', values: ['127.0.0.1'] }, 'garden'),
      ),
    ).toEqual({
      name: 'api.x.y.internal.local.gardener.cloud',
      type: 'A',
      values: ['127.0.0.1'],
    });
    expect(
      localRecordOf(
        dnsRecord({
          name: '*.ingress.local.seed.local.gardener.cloud',
          recordType: 'A',
          values: ['127.0.0.2', '127.0.0.2', '127.0.0.3'],
        }),
      ),
    ).toEqual({ name: '*.ingress.local.seed.local.gardener.cloud', type: 'A', values: ['127.0.0.2', '127.0.0.3'] });
    expect(localRecordOf(dnsRecord({ name: 'v6.example.com', recordType: 'AAAA', values: ['::1'] }))).toEqual({
      name: 'v6.example.com',
      type: 'AAAA',
      values: ['::1'],
    });
    expect(
      localRecordOf(dnsRecord({ name: 'www.example.com', recordType: 'CNAME', values: ['Lb.Example.COM.'] })),
    ).toEqual({
      name: 'www.example.com',
      type: 'CNAME',
      values: ['lb.example.com'],
    });
  });

  it('refuses what the local DNS cannot answer, naming the DNSRecord and the field', () => {
    const refuse = (spec: Record<string, unknown>) => () => localRecordOf(dnsRecord(spec));
    expect(refuse({ name: 'owner.example.com', recordType: 'TXT', values: ['x'] })).toThrow(
      /DNSRecord shoot--local--local\/local-internal: spec.recordType "TXT" is not served/,
    );
    expect(refuse({ name: 'bad name', recordType: 'A', values: ['1.2.3.4'] })).toThrow(
      /spec.name "bad name" is no DNS name/,
    );
    expect(refuse({ name: 'a.example.com', recordType: 'A', values: [] })).toThrow(/spec.values is empty/);
    expect(refuse({ name: 'a.example.com', recordType: 'A', values: ['::1'] })).toThrow(
      /spec.values\[0\] "::1" is no A/,
    );
    expect(refuse({ name: 'a.example.com', recordType: 'AAAA', values: ['10.0.0.1'] })).toThrow(/is no AAAA/);
    expect(refuse({ name: 'a.example.com', recordType: 'CNAME', values: ['b.example.com', 'c.example.com'] })).toThrow(
      /exactly one value/,
    );
  });

  it('gives one line of whitespace-free fields for any valid A record', () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
    const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'));
    fc.assert(
      fc.property(
        fc.array(label, { minLength: 1, maxLength: 5 }),
        fc.array(ipv4, { minLength: 1, maxLength: 4 }),
        (labels, values) => {
          const record = localRecordOf(dnsRecord({ name: labels.join('.'), recordType: 'A', values }));
          const [name, type, ...rest] = recordLine(record).split(' ');
          expect({ name, type, values: rest }).toEqual({
            name: labels.join('.'),
            type: 'A',
            values: [...new Set(values)],
          });
        },
      ),
    );
  });
});

describe('dnsRecordConfigMap', () => {
  it('is a labelled ConfigMap named after the DNSRecord, in its namespace, with the record line', () => {
    const record = dnsRecord({
      name: 'api.local.local.internal.local.gardener.cloud',
      recordType: 'A',
      values: ['127.0.0.1'],
    });
    expect(dnsRecordConfigMap(record)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'dnsrecord-local-internal',
        namespace: 'shoot--local--local',
        labels: { 'local.gardener.cloud/dns-records': 'true' },
      },
      data: {
        records:
          'api.local.local.internal.local.gardener.cloud CNAME kube-apiserver.shoot--local--local.svc.cluster.local\n',
      },
    });
  });
});
