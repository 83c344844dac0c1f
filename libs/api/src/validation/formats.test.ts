import { describe, expect, it } from 'vitest';
import { cronError } from './cron.js';
import { parseDuration, parseQuantity, parseVersion } from './formats.js';
import { cidrsOverlap, formatCIDR, parseCIDR } from './net.js';

describe('CIDRs', () => {
  it('parses IPv4 and IPv6 networks and knows canonical ones', () => {
    expect(parseCIDR('10.0.0.0/16')).toMatchObject({ family: 'IPv4', prefix: 16, canonical: true });
    expect(parseCIDR('10.0.0.1/16')).toMatchObject({ canonical: false });
    expect(formatCIDR(parseCIDR('2001:db8::/32')!)).toBe('2001:db8::/32');
    expect(parseCIDR('::ffff:10.0.0.0/120')).toMatchObject({ family: 'IPv6', canonical: true });
    for (const bad of [
      '10.0.0.0',
      '10.0.0.256/8',
      '10.0.0.0/33',
      '01.0.0.0/8',
      '2001:db8::1::/64',
      'fd00::/129',
      'x/8',
    ]) {
      expect(parseCIDR(bad), bad).toBeUndefined();
    }
  });

  it('detects overlaps within a family only', () => {
    const cidr = (text: string) => parseCIDR(text)!;
    expect(cidrsOverlap(cidr('10.0.0.0/8'), cidr('10.250.0.0/16'))).toBe(true);
    expect(cidrsOverlap(cidr('10.0.0.0/16'), cidr('10.1.0.0/16'))).toBe(false);
    expect(cidrsOverlap(cidr('fd00::/8'), cidr('fd12::/16'))).toBe(true);
    expect(cidrsOverlap(cidr('0.0.0.0/0'), cidr('::/0'))).toBe(false);
  });
});

describe('cron specs', () => {
  it('accepts standard specs, names, steps, descriptors and time zones', () => {
    for (const spec of [
      '0 18 * * MON-FRI',
      '*/15 0-6,22-23 1 JAN,jul ?',
      '@daily',
      '@every 1h30m',
      'CRON_TZ=Europe/Berlin 0 8 * * 1',
    ]) {
      expect(cronError(spec), spec).toBeUndefined();
    }
  });

  it('explains what is wrong', () => {
    expect(cronError('0 18 * *')).toBe('expected exactly 5 fields, found 4: 0 18 * *');
    expect(cronError('0 24 * * *')).toBe('hour "24" is beyond the range 0-23');
    expect(cronError('0 5-2 * * *')).toBe('hour "5-2" has a start beyond its end');
    expect(cronError('0 0 * * FUNDAY')).toBe('failed to parse day of week "FUNDAY"');
    expect(cronError('@fortnightly')).toBe('unrecognized descriptor: @fortnightly');
    expect(cronError('TZ=Nowhere/City 0 0 * * *')).toBe('provided bad location Nowhere/City');
  });

  it('reads @every durations as time.ParseDuration does, with its error (robfig/cron)', () => {
    expect(cronError('@every 1.5h')).toBeUndefined();
    expect(cronError('@every 0')).toBeUndefined();
    // Out of int64 range: the pattern of a duration, still not one Go reads.
    expect(cronError('@every 9999999999999h')).toBe(
      'failed to parse duration @every 9999999999999h: time: invalid duration "9999999999999h"',
    );
    expect(cronError('@every 5')).toBe('failed to parse duration @every 5: time: missing unit in duration "5"');
  });
});

describe('formats', () => {
  it('parses Go durations', () => {
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration('-2m')).toBe(-120_000);
    expect(parseDuration('5')).toBeUndefined();
    expect(parseDuration('1d')).toBeUndefined();
  });

  it('parses Kubernetes quantities', () => {
    expect(parseQuantity('1Gi')).toBe(2 ** 30);
    expect(parseQuantity('500m')).toBe(0.5);
    expect(parseQuantity('20k')).toBe(20_000);
    expect(parseQuantity('1e3')).toBe(1000);
    expect(parseQuantity(3)).toBe(3);
    expect(parseQuantity('1GB')).toBeUndefined();
  });

  it('parses lenient semantic versions', () => {
    expect(parseVersion('1.35.4')).toEqual({ major: 1, minor: 35, patch: 4, prerelease: undefined });
    expect(parseVersion('18.04.201906170')).toMatchObject({ major: 18, minor: 4 });
    expect(parseVersion('v1.31')).toMatchObject({ major: 1, minor: 31, patch: 0 });
    expect(parseVersion('1.x')).toBeUndefined();
  });
});
