import { describe, expect, it } from 'vitest';
import type { Secret } from '@gardener-ts/controller-runtime';
import { caCertificateValiditiesConstraint, goTime } from './constraints.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const clock = { now: () => new Date(NOW) };
const ca = (name: string, validUntil: string, withKey = true): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: `${name}-abc`, labels: { name, persist: 'true', 'valid-until-time': validUntil } },
  data: { 'ca.crt': 'Y2E=', ...(withKey ? { 'ca.key': 'a2V5' } : {}) },
});
const unix = (iso: string) => String(Date.parse(iso) / 1000);

describe('CACertificateValiditiesAcceptable', () => {
  it('is not shown while every CA is valid for another year', () => {
    expect(
      caCertificateValiditiesConstraint(undefined, [ca('ca', unix('2036-01-01T00:00:00Z'))], clock),
    ).toBeUndefined();
  });

  it('names the CAs expiring within a year', () => {
    const c = caCertificateValiditiesConstraint(
      undefined,
      [
        ca('ca-etcd', unix('2026-06-01T00:00:00Z')),
        ca('ca', unix('2036-01-01T00:00:00Z')),
        ca('ca-client', unix('2026-12-01T00:00:00Z')),
        ca('ca-bundle-like', unix('2026-02-01T00:00:00Z'), false),
      ],
      clock,
    );
    expect(c).toMatchObject({
      type: 'CACertificateValiditiesAcceptable',
      status: 'False',
      reason: 'ExpiringCACertificates',
      message:
        'Some CA certificates are expiring in less than 8760h0m0s, you should rotate them: "ca-client" (expiring at 2026-12-01 00:00:00 +0000 UTC), "ca-etcd" (expiring at 2026-06-01 00:00:00 +0000 UTC)',
    });
  });

  it('fails on a CA without a parsable validity', () => {
    expect(() => caCertificateValiditiesConstraint(undefined, [ca('ca', 'soon')], clock)).toThrow(
      'could not parse valid-until-time label from secret "ca-abc"',
    );
    expect(goTime(new Date('2027-03-04T05:06:07Z'))).toBe('2027-03-04 05:06:07 +0000 UTC');
  });
});
