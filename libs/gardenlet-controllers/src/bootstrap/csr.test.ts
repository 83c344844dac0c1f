import * as x509 from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { certificateSigningRequest, generateCertificateRequest, seedSubject, seedUserName } from './csr.js';

describe('the gardenlet CSR', () => {
  it('requests the seed identity Gardener approves', async () => {
    const { csrPem, keyPem } = await generateCertificateRequest('local');
    const request = new x509.Pkcs10CertificateRequest(csrPem);
    expect(request.subject).toBe('CN=gardener.cloud:system:seed:local, O=gardener.cloud:system:seeds');
    expect(await request.verify()).toBe(true);
    expect(keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(seedUserName('local')).toBe('gardener.cloud:system:seed:local');
    expect(seedSubject('a')).toBe('CN=gardener.cloud:system:seed:a, O=gardener.cloud:system:seeds');
  });

  it('is a kube-apiserver-client CSR named after its request', async () => {
    const { csrPem } = await generateCertificateRequest('local');
    const csr = certificateSigningRequest(csrPem, 86400) as {
      metadata: { name: string };
      spec: Record<string, unknown>;
    };
    expect(csr.metadata.name).toMatch(/^seed-csr-[0-9a-f]{16}$/);
    expect(csr.spec).toEqual({
      request: Buffer.from(csrPem).toString('base64'),
      signerName: 'kubernetes.io/kube-apiserver-client',
      usages: ['digital signature', 'key encipherment', 'client auth'],
      expirationSeconds: 86400,
    });
    expect((certificateSigningRequest(csrPem) as typeof csr).metadata.name).toBe(csr.metadata.name);
    expect((certificateSigningRequest(csrPem) as typeof csr).spec.expirationSeconds).toBeUndefined();
    const other = await generateCertificateRequest('local');
    expect((certificateSigningRequest(other.csrPem) as typeof csr).metadata.name).not.toBe(csr.metadata.name);
  });
});
