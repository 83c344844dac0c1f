import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNewer, mustAutoRenew, newest, unixTime, validUntilForValidity } from './lifetime.js';

const DAY = 86400;
const labels = (issuedAt: number, validUntil: number, percentage?: number) => ({
  'issued-at-time': String(issuedAt),
  'valid-until-time': String(validUntil),
  ...(percentage ? { 'renew-after-validity-percentage': String(percentage) } : {}),
});
const at = (unix: number) => new Date(unix * 1000);

describe('mustAutoRenew', () => {
  it('renews at 80 % of the validity', () => {
    const issued = 1_700_000_000;
    const l = labels(issued, issued + 100 * DAY);
    expect(mustAutoRenew(l, at(issued + 79 * DAY))).toBe(false);
    expect(mustAutoRenew(l, at(issued + 80 * DAY))).toBe(false);
    expect(mustAutoRenew(l, at(issued + 80 * DAY + 1))).toBe(true);
  });

  it('renews less than 10 days before expiry even before 80 %', () => {
    const issued = 1_700_000_000;
    const l = labels(issued, issued + 20 * DAY);
    expect(mustAutoRenew(l, at(issued + 9 * DAY))).toBe(false);
    expect(mustAutoRenew(l, at(issued + 10 * DAY + 1))).toBe(true);
  });

  it('honours renew-after-validity-percentage', () => {
    const issued = 1_700_000_000;
    expect(mustAutoRenew(labels(issued, issued + 100 * DAY, 50), at(issued + 51 * DAY))).toBe(true);
  });

  it('never renews a secret without lifetime labels', () => {
    expect(mustAutoRenew({}, new Date(8e15))).toBe(false);
    expect(mustAutoRenew({ 'issued-at-time': '1' }, new Date(8e15))).toBe(false);
  });

  it('rejects a malformed label', () => {
    expect(() => mustAutoRenew({ 'issued-at-time': 'yesterday', 'valid-until-time': '5' }, new Date())).toThrow(
      'label issued-at-time="yesterday" is not a unix time',
    );
  });

  it('once due, stays due; a fresh secret with a long validity is not due', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2e9 }),
        fc.integer({ min: 1, max: 20 * 365 * DAY }),
        fc.integer({ min: 0, max: 40 * 365 * DAY }),
        fc.integer({ min: 0, max: 365 * DAY }),
        (issued, validity, t, dt) => {
          const l = labels(issued, issued + validity);
          if (mustAutoRenew(l, at(issued + t))) expect(mustAutoRenew(l, at(issued + t + dt))).toBe(true);
          if (validity > 50 * DAY) expect(mustAutoRenew(l, at(issued))).toBe(false);
          if (t > validity) expect(mustAutoRenew(l, at(issued + t))).toBe(true);
        },
      ),
    );
  });
});

describe('newest', () => {
  const s = (created: string, rotation = '', issued = '') => ({
    metadata: {
      creationTimestamp: created,
      labels: { 'last-rotation-initiation-time': rotation, 'issued-at-time': issued },
    },
  });
  it('picks the latest creation time, then the latest rotation, then the latest issue time', () => {
    expect(newest([s('2026-01-01T00:00:00Z'), s('2026-01-02T00:00:00Z'), s('2025-01-01T00:00:00Z')])).toEqual(
      s('2026-01-02T00:00:00Z'),
    );
    expect(newest([s('2026-01-01T00:00:00Z', '20'), s('2026-01-01T00:00:00Z', '10')])).toEqual(
      s('2026-01-01T00:00:00Z', '20'),
    );
    expect(newest([s('2026-01-01T00:00:00Z', '', '5'), s('2026-01-01T00:00:00Z', '', '7')])).toEqual(
      s('2026-01-01T00:00:00Z', '', '7'),
    );
    expect(newest([])).toBeUndefined();
    expect(isNewer(s('2026-01-01T00:00:00Z'), s('2026-01-01T00:00:00Z'))).toBe(false);
  });
});

describe('validity labels', () => {
  it('expire at issued-at plus the validity', () => {
    expect(unixTime(new Date('2026-01-01T00:00:00.900Z'))).toBe('1767225600');
    expect(validUntilForValidity('1000', 3_600_000)).toBe('4600');
  });
});
