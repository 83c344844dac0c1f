import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CertificateSecretConfig } from './configs/types.js';
import { configChecksum, dataChecksum, secretMeta, secretName } from './naming.js';

const server: CertificateSecretConfig = {
  kind: 'certificate',
  name: 'kube-apiserver',
  commonName: 'kube-apiserver',
  dnsNames: ['kubernetes', 'kubernetes.default.svc'],
  certType: 'server',
};

const configArb = fc.record({
  kind: fc.constant('certificate' as const),
  name: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
  commonName: fc.string({ minLength: 1, maxLength: 20 }),
  organization: fc.option(fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 3 }), { nil: undefined }),
  dnsNames: fc.option(fc.array(fc.domain(), { maxLength: 4 }), { nil: undefined }),
  certType: fc.constantFrom('ca' as const, 'server' as const, 'client' as const, 'both' as const),
  validity: fc.option(fc.integer({ min: 1, max: 1e12 }), { nil: undefined }),
});

describe('configChecksum', () => {
  it('is a decimal uint64 that ignores key order and zero values', () => {
    fc.assert(
      fc.property(configArb, (config) => {
        const checksum = configChecksum(config);
        expect(checksum).toMatch(/^\d{1,20}$/);
        expect(BigInt(checksum) < 2n ** 64n).toBe(true);
        const reordered = Object.fromEntries(Object.entries(config).reverse()) as unknown as CertificateSecretConfig;
        expect(configChecksum(reordered)).toBe(checksum);
        expect(
          configChecksum({ ...config, pkcs: undefined, skipPublishingCACertificate: false, ipAddresses: [] }),
        ).toBe(checksum);
      }),
    );
  });

  it('changes when anything that shapes the data changes', () => {
    const base = configChecksum(server);
    expect(configChecksum({ ...server, dnsNames: [...server.dnsNames!, 'api.example.com'] })).not.toBe(base);
    expect(configChecksum({ ...server, certType: 'both' })).not.toBe(base);
    expect(configChecksum({ ...server, validity: 86400_000 })).not.toBe(base);
    expect(configChecksum({ ...server, key: { algorithm: 'ECDSA' } })).not.toBe(base);
  });
});

describe('secretMeta', () => {
  it('labels as Gardener does and names <name>-<8 hex>, plus -<5 hex> once rotated', () => {
    const meta = secretMeta({
      identity: 'gardenlet',
      config: server,
      lastRotationInitiationTime: '',
      signingCAChecksum: 'abc',
      persist: true,
    });
    expect(meta.labels).toEqual({
      name: 'kube-apiserver',
      'managed-by': 'secrets-manager',
      'manager-identity': 'gardenlet',
      'checksum-of-config': configChecksum(server),
      'last-rotation-initiation-time': '',
      'checksum-of-signing-ca': 'abc',
      persist: 'true',
    });
    expect(meta.name).toMatch(/^kube-apiserver-[0-9a-f]{8}$/);
    const rotated = secretMeta({
      identity: 'gardenlet',
      config: server,
      lastRotationInitiationTime: '1700000000',
      signingCAChecksum: 'abc',
    });
    expect(rotated.name).toMatch(new RegExp(`^${meta.name}-[0-9a-f]{5}$`));
  });

  it('renames a certificate when its signing CA changes', () => {
    const a = secretMeta({ identity: 'i', config: server, lastRotationInitiationTime: '', signingCAChecksum: 'ca-1' });
    const b = secretMeta({ identity: 'i', config: server, lastRotationInitiationTime: '', signingCAChecksum: 'ca-2' });
    expect(a.name).not.toBe(b.name);
  });

  it('keeps a CA name plain when asked to ignore the config checksum', () => {
    const ca: CertificateSecretConfig = { kind: 'certificate', name: 'ca', commonName: 'ca', certType: 'ca' };
    const labels = secretMeta({ identity: 'i', config: ca, lastRotationInitiationTime: '' }).labels;
    expect(secretName(ca, labels, true)).toBe('ca');
    expect(secretName(ca, labels, false)).toMatch(/^ca-[0-9a-f]{8}$/);
    // Only CAs: a server certificate keeps its hash.
    expect(secretName(server, labels, true)).toMatch(/^kube-apiserver-[0-9a-f]{8}$/);
  });

  it('gives different configs different names and equal configs equal names', () => {
    fc.assert(
      fc.property(configArb, configArb, (a, b) => {
        const na = secretMeta({ identity: 'i', config: a, lastRotationInitiationTime: '' }).name;
        const nb = secretMeta({ identity: 'i', config: { ...b, name: a.name }, lastRotationInitiationTime: '' }).name;
        const same = configChecksum(a) === configChecksum({ ...b, name: a.name });
        expect(na === nb).toBe(same);
        expect(secretMeta({ identity: 'i', config: structuredClone(a), lastRotationInitiationTime: '' }).name).toBe(na);
      }),
    );
  });
});

describe('dataChecksum', () => {
  it('hashes the base64 data map with sorted keys, whatever the input form', () => {
    const fromBuffers = dataChecksum({ 'tls.key': Buffer.from('k'), 'tls.crt': Buffer.from('c') });
    const fromWire = dataChecksum({
      'tls.crt': Buffer.from('c').toString('base64'),
      'tls.key': Buffer.from('k').toString('base64'),
    });
    expect(fromBuffers).toBe(fromWire);
    expect(fromBuffers).toMatch(/^[0-9a-f]{64}$/);
    expect(dataChecksum({ 'tls.crt': 'Yw==' })).not.toBe(fromWire);
  });
});
