import { describe, expect, it } from 'vitest';
import { cidrFamily, cidrsIntersect, parseCidr } from './cidr.js';

describe('parseCidr', () => {
  it.each([
    ['10.0.0.0/8', 'IPv4', 8],
    ['10.1.2.3/16', 'IPv4', 16],
    ['2001:db8::/32', 'IPv6', 32],
    ['::ffff:10.0.0.0/104', 'IPv6', 104],
    ['fd8f:6d53:b97a:1::/96', 'IPv6', 96],
  ])('reads %s', (text, family, prefix) => {
    expect(parseCidr(text)).toMatchObject({ family, prefix });
  });

  it.each(['10.0.0.0', '10.0.0.0/33', '10.0.0/8', '010.0.0.0/8', '2001:db8::1::/64', 'fd00::/129', 'x/8', ''])(
    'refuses %j',
    (text) => {
      expect(parseCidr(text)).toBeUndefined();
    },
  );

  it('masks the address to the network, as Go does', () => {
    expect(parseCidr('10.1.2.3/16')!.network).toBe(parseCidr('10.1.0.0/16')!.network);
  });
});

describe('cidrsIntersect', () => {
  it.each([
    ['10.0.0.0/8', '10.250.0.0/16', true],
    ['10.250.0.0/16', '10.0.0.0/8', true],
    ['10.240.0.0/16', '10.241.0.0/16', false],
    ['100.64.0.0/13', '100.72.0.0/13', false],
    ['100.64.0.0/10', '100.96.0.0/11', true],
    ['2001:db8::/32', '2001:db8:1::/48', true],
    ['2001:db8::/32', '2001:db9::/32', false],
    ['10.0.0.0/8', '::/0', false],
    ['not-a-cidr', '10.0.0.0/8', false],
  ])('%s and %s: %s', (a, b, expected) => {
    expect(cidrsIntersect(a, b)).toBe(expected);
  });

  it('tells the family', () => {
    expect(cidrFamily('10.0.0.0/8')).toBe('IPv4');
    expect(cidrFamily('fd00::/8')).toBe('IPv6');
    expect(cidrFamily('nope')).toBeUndefined();
  });
});
