import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CIDRError,
  IPNet,
  cidrContains,
  cidrsOverlapping,
  formatIPAddress,
  parseIPAddress,
  type IPAddress,
} from './cidr.js';

describe('IPNet.parse (net.ParseCIDR)', () => {
  it.each([
    ['10.0.0.0/8', '10.0.0.0/8', true],
    ['10.250.0.5/16', '10.250.0.0/16', false],
    ['0.0.0.0/0', '0.0.0.0/0', true],
    ['192.168.1.1/32', '192.168.1.1/32', true],
    ['2001:db8::/32', '2001:db8::/32', true],
    ['2001:DB8:0:0:0:0:0:1/64', '2001:db8::/64', false],
    ['fd00:10:96::/112', 'fd00:10:96::/112', true],
    ['::/0', '::/0', true],
    ['::ffff:10.0.0.0/120', '::ffff:10.0.0.0/120', true],
  ])('%s is network %s (canonical %s)', (text, network, canonical) => {
    const net = IPNet.parse(text);
    expect(net.toString()).toBe(network);
    expect(net.canonical).toBe(canonical);
  });

  it.each([
    '10.0.0.0',
    '10.0.0.256/8',
    '10.0.0.0/33',
    '01.0.0.0/8',
    '10.0.0/8',
    '2001:db8::1::/64',
    'fd00::/129',
    'fe80::1%eth0/64',
    'x/8',
    '10.0.0.0/-1',
    '10.0.0.0/ 8',
  ])('%s is not a CIDR', (text) => {
    expect(IPNet.tryParse(text)).toBeUndefined();
    expect(() => IPNet.parse(text)).toThrow(new CIDRError(text));
    expect(() => IPNet.parse(text)).toThrow(`invalid CIDR address: ${text}`);
  });
});

describe('IPNet arithmetic', () => {
  it('knows size, network, broadcast and the n-th address', () => {
    const net = IPNet.parse('10.96.0.0/12');
    expect(net.size()).toBe(1n << 20n);
    expect(formatIPAddress(net.networkAddress())).toBe('10.96.0.0');
    expect(formatIPAddress(net.broadcastAddress())).toBe('10.111.255.255');
    expect(formatIPAddress(net.address(10))).toBe('10.96.0.10');
    expect(() => net.address(1n << 20n)).toThrow(RangeError);
    const v6 = IPNet.parse('fd00:10:96::/112');
    expect(v6.size()).toBe(65536n);
    expect(formatIPAddress(v6.broadcastAddress())).toBe('fd00:10:96::ffff');
  });

  it('contains addresses of its own family only', () => {
    expect(cidrContains('10.0.0.0/8', '10.1.2.3')).toBe(true);
    expect(cidrContains('10.0.0.0/8', '11.0.0.0')).toBe(false);
    expect(cidrContains('0.0.0.0/0', '::1')).toBe(false);
    expect(cidrContains('2001:db8::/32', '2001:db8:ffff::1')).toBe(true);
    expect(cidrContains('10.0.0.0/8', 'not-an-ip')).toBe(false);
    expect(IPNet.parse('10.0.0.0/8').containsNet(IPNet.parse('10.1.0.0/16'))).toBe(true);
    expect(IPNet.parse('10.1.0.0/16').containsNet(IPNet.parse('10.0.0.0/8'))).toBe(false);
  });

  it('overlaps within a family only (Gardener: shoot networks against seed networks)', () => {
    expect(cidrsOverlapping('10.0.0.0/8', '10.250.0.0/16')).toBe(true);
    expect(cidrsOverlapping('10.0.0.0/16', '10.1.0.0/16')).toBe(false);
    expect(cidrsOverlapping('fd00::/8', 'fd12::/16')).toBe(true);
    expect(cidrsOverlapping('0.0.0.0/0', '::/0')).toBe(false);
    expect(cidrsOverlapping('10.0.0.0/8', 'garbage')).toBe(false);
  });

  it('reads addresses as Go does', () => {
    expect(parseIPAddress('10.0.0.1')).toEqual({ family: 'IPv4', value: 0x0a000001n, bits: 32 });
    expect(parseIPAddress('010.0.0.1')).toBeUndefined();
    expect(parseIPAddress('10.1')).toBeUndefined();
    expect(parseIPAddress('fe80::1%eth0')).toBeUndefined();
    expect(parseIPAddress('::1')?.value).toBe(1n);
  });
});

// ---- properties ----

const v4 = fc
  .bigInt({ min: 0n, max: (1n << 32n) - 1n })
  .map((value): IPAddress => ({ family: 'IPv4', value, bits: 32 }));
const v6 = fc
  .bigInt({ min: 0n, max: (1n << 128n) - 1n })
  .map((value): IPAddress => ({ family: 'IPv6', value, bits: 128 }));
const net = fc.oneof(
  fc.tuple(v4, fc.integer({ min: 0, max: 32 })).map(([a, p]) => IPNet.of(a, p)),
  fc.tuple(v6, fc.integer({ min: 0, max: 128 })).map(([a, p]) => IPNet.of(a, p)),
);

describe('CIDR properties', () => {
  it('addresses print and parse back', () => {
    fc.assert(
      fc.property(fc.oneof(v4, v6), (address) => {
        expect(parseIPAddress(formatIPAddress(address))).toEqual(address);
      }),
    );
  });

  it('the printed network parses back to the same canonical range', () => {
    fc.assert(
      fc.property(net, (n) => {
        const again = IPNet.parse(n.toString());
        expect(again.network).toBe(n.network);
        expect(again.prefix).toBe(n.prefix);
        expect(again.canonical).toBe(true);
      }),
    );
  });

  it('contains its first and last address and the address it was written with, nothing past them', () => {
    fc.assert(
      fc.property(net, (n) => {
        expect(n.contains(n.networkAddress())).toBe(true);
        expect(n.contains(n.broadcastAddress())).toBe(true);
        expect(n.contains({ family: n.family, value: n.ip, bits: n.bits })).toBe(true);
        expect(n.broadcastAddress().value - n.network + 1n).toBe(n.size());
        const max = (1n << BigInt(n.bits)) - 1n;
        if (n.broadcastAddress().value < max) {
          expect(n.contains({ family: n.family, value: n.broadcastAddress().value + 1n, bits: n.bits })).toBe(false);
        }
      }),
    );
  });

  it('overlap is symmetric and means one range contains the other', () => {
    fc.assert(
      fc.property(net, net, (a, b) => {
        expect(a.overlaps(b)).toBe(b.overlaps(a));
        expect(a.overlaps(b)).toBe(a.containsNet(b) || b.containsNet(a));
        // Overlapping ranges share the network address of the smaller one.
        if (a.overlaps(b)) expect(a.contains((a.prefix >= b.prefix ? a : b).networkAddress())).toBe(true);
      }),
    );
  });
});
