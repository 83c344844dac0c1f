import { describe, expect, it } from 'vitest';
import { dnsRecordsForIngress, ingressDNSRecordName, loadBalancerIPOf, recordTypeOf } from './records.js';

const ingress = {
  metadata: { name: 'plutono', namespace: 'shoot--p--s', uid: 'ing-uid' },
  spec: {
    rules: [
      { host: 'gu-s--p.ingress.local.seed.local.gardener.cloud' },
      { host: 'v-s--p.ingress.local.seed.local.gardener.cloud' },
      {},
    ],
  },
  status: { loadBalancer: { ingress: [{ hostname: 'lb.example' }, { ip: '172.18.255.3' }] } },
};

describe('dnsRecordsForIngress', () => {
  it('makes one local DNSRecord per host, owned by the Ingress, pointing at its load balancer IP', () => {
    const ip = loadBalancerIPOf(ingress)!;
    expect(ip).toBe('172.18.255.3');
    const records = dnsRecordsForIngress(ingress, ip);
    expect(records.map((r) => r.spec.name)).toEqual([
      'gu-s--p.ingress.local.seed.local.gardener.cloud',
      'v-s--p.ingress.local.seed.local.gardener.cloud',
    ]);
    expect(records[0]).toMatchObject({
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'DNSRecord',
      metadata: {
        name: ingressDNSRecordName('plutono', 'gu-s--p.ingress.local.seed.local.gardener.cloud'),
        namespace: 'shoot--p--s',
        labels: { origin: 'provider-local', for: 'ingress' },
        annotations: { 'confirmation.gardener.cloud/deletion': 'true' },
        ownerReferences: [{ kind: 'Ingress', name: 'plutono', uid: 'ing-uid', controller: true }],
      },
      spec: {
        type: 'local',
        recordType: 'A',
        values: ['172.18.255.3'],
        secretRef: { name: 'provider-local-is-awesome' },
      },
    });
    expect(records[0].metadata?.name).toMatch(/^plutono-[0-9a-f]{8}$/);
  });

  it('has no IP without a load balancer IP, and picks the record type by address family', () => {
    expect(loadBalancerIPOf({ status: { loadBalancer: { ingress: [{ hostname: 'x' }] } } })).toBeUndefined();
    expect(recordTypeOf('10.0.0.1')).toBe('A');
    expect(recordTypeOf('fd00::1')).toBe('AAAA');
    expect(recordTypeOf('lb.example')).toBe('CNAME');
  });
});
