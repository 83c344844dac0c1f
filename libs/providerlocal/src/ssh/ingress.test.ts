import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ingressAllows, normalizeAddress } from './ingress.js';

describe('ingressAllows', () => {
  it('lets in addresses of the ranges, not those of their exceptions', () => {
    const ingress = [
      { ipBlock: { cidr: '192.88.99.0/24', except: ['192.88.99.128/25'] } },
      { ipBlock: { cidr: '127.0.0.1/32' } },
    ];
    expect(ingressAllows(ingress, '192.88.99.7')).toBe(true);
    expect(ingressAllows(ingress, '192.88.99.200')).toBe(false);
    expect(ingressAllows(ingress, '127.0.0.1')).toBe(true);
    expect(ingressAllows(ingress, '127.0.0.2')).toBe(false);
    expect(ingressAllows(ingress, '2001:db8::1')).toBe(false);
  });

  it('reads IPv4 clients of a dual-stack socket as IPv4 and lets nobody in without ranges', () => {
    expect(normalizeAddress('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(ingressAllows([{ ipBlock: { cidr: '10.0.0.0/8' } }], '::ffff:10.1.2.3')).toBe(true);
    expect(ingressAllows([], '10.1.2.3')).toBe(false);
    expect(ingressAllows([{ ipBlock: { cidr: 'not-a-cidr' } }], '10.1.2.3')).toBe(false);
  });

  it('lets every IPv4 address in with 0.0.0.0/0 and IPv6 ones with ::/0 (property)', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.ipV6(), (v4, v6) => {
        expect(ingressAllows([{ ipBlock: { cidr: '0.0.0.0/0' } }], v4)).toBe(true);
        expect(ingressAllows([{ ipBlock: { cidr: '::/0' } }], v6)).toBe(true);
        expect(ingressAllows([{ ipBlock: { cidr: '0.0.0.0/0', except: [`${v4}/32`] } }], v4)).toBe(false);
      }),
    );
  });
});
