import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { certificateRequestPem } from '../../../test/support/csr.js';
import { isSeedClientCert, parseSeedCertificateRequest, SeedClientUsages, SeedsGroup } from './seed-client.js';

const GOOD = {
  commonName: 'gardener.cloud:system:seed:local',
  organizations: [SeedsGroup],
  dnsNames: [],
  emailAddresses: [],
  ipAddresses: [],
};

describe('parseSeedCertificateRequest', () => {
  it('reads the subject and subject alternative names of a PEM request as gardenlet sends it', async () => {
    const pem = await certificateRequestPem(`CN=gardener.cloud:system:seed:local, O=${SeedsGroup}`, {
      dns: ['a.example'],
      email: ['x@example.com'],
      ip: ['10.0.0.1'],
    });
    expect(parseSeedCertificateRequest(Buffer.from(pem))).toEqual({
      commonName: 'gardener.cloud:system:seed:local',
      organizations: [SeedsGroup],
      dnsNames: ['a.example'],
      emailAddresses: ['x@example.com'],
      ipAddresses: ['10.0.0.1'],
    });
  });

  it('refuses what is no PEM certificate request', () => {
    expect(() => parseSeedCertificateRequest(Buffer.from('hello'))).toThrow(
      'PEM block type must be CERTIFICATE REQUEST',
    );
  });
});

describe('isSeedClientCert', () => {
  it("accepts gardenlet's request with its three usages in any order", () => {
    fc.assert(
      fc.property(fc.shuffledSubarray([...SeedClientUsages], { minLength: 3 }), (usages) => {
        expect(isSeedClientCert(GOOD, usages)).toEqual({ ok: true });
      }),
    );
  });

  it('refuses any other set of usages', () => {
    const usage = fc.constantFrom('key encipherment', 'digital signature', 'client auth', 'server auth', 'signing');
    fc.assert(
      fc.property(fc.array(usage, { maxLength: 5 }), (usages) => {
        const exact =
          usages.length === 3 && new Set(usages).size === 3 && SeedClientUsages.every((u) => usages.includes(u));
        expect(isSeedClientCert(GOOD, usages).ok).toBe(exact);
      }),
    );
  });

  it("names Gardener's reason for each requirement that is not met", () => {
    const usages = [...SeedClientUsages];
    expect(isSeedClientCert({ ...GOOD, organizations: ['system:nodes'] }, usages)).toEqual({
      ok: false,
      reason: "subject's organization is not set to [gardener.cloud:system:seeds]",
    });
    expect(isSeedClientCert({ ...GOOD, organizations: [SeedsGroup, 'extra'] }, usages).ok).toBe(false);
    expect(isSeedClientCert({ ...GOOD, dnsNames: ['x'] }, usages)).toEqual({
      ok: false,
      reason: 'DNSNames, EmailAddresses and IPAddresses fields must be empty',
    });
    expect(isSeedClientCert({ ...GOOD, commonName: 'system:node:x' }, usages)).toEqual({
      ok: false,
      reason: 'CommonName does not start with "gardener.cloud:system:seed:"',
    });
  });
});
