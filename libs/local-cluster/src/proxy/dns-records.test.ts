import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDNSRecords, type RecordSource } from './dns-records.js';

const cm = (namespace: string, name: string, data: Record<string, string>): RecordSource => ({ namespace, name, data });

describe('parseDNSRecords', () => {
  it('reads one record per line, as provider-local and people write them', () => {
    const { records, problems } = parseDNSRecords([
      cm('shoot--local--local', 'dnsrecord-local-internal', {
        records:
          'api.local.local.internal.local.gardener.cloud CNAME kube-apiserver.shoot--local--local.svc.cluster.local\n',
      }),
      cm('garden', 'hand-written', {
        hosts: [
          '# the seed ingress',
          '*.ingress.local.seed.local.gardener.cloud A 127.0.0.1',
          'Dual.Example.COM. a 127.0.0.2 127.0.0.3   # two addresses',
          'dual.example.com AAAA ::1',
          '',
        ].join('\n'),
      }),
    ]);
    expect(problems).toEqual([]);
    expect(records).toEqual([
      { name: '*.ingress.local.seed.local.gardener.cloud', type: 'A', values: ['127.0.0.1'] },
      {
        name: 'api.local.local.internal.local.gardener.cloud',
        type: 'CNAME',
        values: ['kube-apiserver.shoot--local--local.svc.cluster.local'],
      },
      { name: 'dual.example.com', type: 'A', values: ['127.0.0.2', '127.0.0.3'] },
      { name: 'dual.example.com', type: 'AAAA', values: ['::1'] },
    ]);
  });

  it('skips lines that are no records, saying where and why', () => {
    const { records, problems } = parseDNSRecords([
      cm('demo', 'bad', {
        records: [
          'owner.example.com TXT hello',
          'a.example.com A 300.1.1.1',
          'b.example.com AAAA 127.0.0.1',
          'c.example.com CNAME x.example.com y.example.com',
          'bad_name A 127.0.0.1',
          'd.example.com A',
          'ok.example.com A 127.0.0.1',
        ].join('\n'),
      }),
    ]);
    expect(records).toEqual([{ name: 'ok.example.com', type: 'A', values: ['127.0.0.1'] }]);
    expect(problems).toEqual([
      'demo/bad: "owner.example.com TXT hello": type "TXT" is not A, AAAA or CNAME',
      'demo/bad: "a.example.com A 300.1.1.1": "300.1.1.1" is no IPv4 address',
      'demo/bad: "b.example.com AAAA 127.0.0.1": "127.0.0.1" is no IPv6 address',
      'demo/bad: "c.example.com CNAME x.example.com y.example.com": a CNAME has one value',
      'demo/bad: "bad_name A 127.0.0.1": "bad_name" is no DNS name',
      'demo/bad: "d.example.com A": no value',
    ]);
  });

  it('unites addresses of a name; a CNAME stands alone, the ConfigMap first by namespace and name wins', () => {
    const { records, problems } = parseDNSRecords([
      cm('b', 'second', { r: 'x.example.com CNAME y.example.com\nn.example.com A 10.0.0.2 10.0.0.1' }),
      cm('a', 'first', { r: 'x.example.com A 10.0.0.9\nn.example.com A 10.0.0.1' }),
    ]);
    expect(records).toEqual([
      { name: 'n.example.com', type: 'A', values: ['10.0.0.1', '10.0.0.2'] },
      { name: 'x.example.com', type: 'A', values: ['10.0.0.9'] },
    ]);
    expect(problems).toEqual(['b/second: "x.example.com CNAME y.example.com": x.example.com has other records']);
  });

  it('gives the same records whatever the order of the ConfigMaps', () => {
    const name = fc.constantFrom('a.example.com', 'b.example.com', '*.w.example.com');
    const line = fc.oneof(
      fc.tuple(name, fc.constantFrom('A'), fc.constantFrom('10.0.0.1', '10.0.0.2')).map((p) => p.join(' ')),
      fc.tuple(name, fc.constantFrom('AAAA'), fc.constantFrom('::1', 'fd00::2')).map((p) => p.join(' ')),
      fc
        .tuple(name, fc.constantFrom('CNAME'), fc.constantFrom('c.example.com', 'd.example.com'))
        .map((p) => p.join(' ')),
    );
    const sources = fc.uniqueArray(
      fc.record({ namespace: fc.constantFrom('x', 'y'), name: fc.constantFrom('p', 'q', 'r'), lines: fc.array(line) }),
      { selector: (s) => `${s.namespace}/${s.name}`, maxLength: 6 },
    );
    const shuffled = sources.chain((list) =>
      fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length })),
    );
    fc.assert(
      fc.property(shuffled, ([list, reordered]) => {
        const configMaps = (l: typeof list) => l.map((s) => cm(s.namespace, s.name, { records: s.lines.join('\n') }));
        const parsed = parseDNSRecords(configMaps(list));
        expect(parseDNSRecords(configMaps(reordered)).records).toEqual(parsed.records);
        // A name with a CNAME has no other record.
        for (const r of parsed.records.filter((r) => r.type === 'CNAME'))
          expect(parsed.records.filter((o) => o.name === r.name)).toHaveLength(1);
      }),
    );
  });
});
