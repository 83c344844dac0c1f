// Certificates checked with Node's own X.509 parser (node:crypto), independent of the library that issued them.
import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  generateKeyPair,
  issueCertificate,
  loadCertificateAuthority,
  openSSHAuthorizedKey,
  privateKeyPem,
  verifyCertificate,
  type CertificateAuthority,
} from './pki.js';

const now = new Date();
const later = new Date(now.getTime() + 3600_000);

async function ca(name: string, algorithm: 'RSA' | 'ECDSA' = 'ECDSA'): Promise<CertificateAuthority> {
  const keys = await generateKeyPair(algorithm === 'RSA' ? { algorithm, bits: 2048 } : { algorithm });
  const certificate = await issueCertificate({
    commonName: name,
    certType: 'ca',
    notBefore: now,
    notAfter: later,
    keys,
  });
  return { certificate, certificatePem: certificate.toString('pem'), keys };
}

describe('pki', () => {
  it('issues a CA and a server certificate with SANs that Node verifies against it', async () => {
    const authority = await ca('ca-shoot');
    const keys = await generateKeyPair({ algorithm: 'ECDSA' });
    const cert = await issueCertificate({
      commonName: 'kube-apiserver',
      organization: ['gardener.cloud'],
      dnsNames: ['kube-apiserver', 'kube-apiserver.shoot--foo--bar.svc', 'api.bar.foo.example.com'],
      ipAddresses: ['10.0.0.1', '::1'],
      certType: 'server',
      notBefore: now,
      notAfter: later,
      keys,
      signingCA: authority,
    });
    const node = new X509Certificate(cert.toString('pem'));
    const nodeCA = new X509Certificate(authority.certificatePem);
    expect(nodeCA.ca).toBe(true);
    expect(node.ca).toBe(false);
    expect(node.checkIssued(nodeCA)).toBe(true);
    expect(node.verify(nodeCA.publicKey)).toBe(true);
    expect(node.subject).toContain('CN=kube-apiserver');
    expect(node.subject).toContain('O=gardener.cloud');
    expect(node.subjectAltName).toBe(
      'DNS:kube-apiserver, DNS:kube-apiserver.shoot--foo--bar.svc, DNS:api.bar.foo.example.com, IP Address:10.0.0.1, IP Address:0:0:0:0:0:0:0:1',
    );
    expect(node.keyUsage).toContain('1.3.6.1.5.5.7.3.1'); // serverAuth
    expect(node.checkHost('api.bar.foo.example.com')).toBe('api.bar.foo.example.com');
    expect(await verifyCertificate(cert.toString('pem'), authority.certificatePem, now)).toBe(true);
  });

  it('signs with an RSA CA and encodes keys as PKCS#1 by default', async () => {
    const authority = await ca('ca-rsa', 'RSA');
    const keys = await generateKeyPair({ algorithm: 'RSA', bits: 2048 });
    const cert = await issueCertificate({
      commonName: 'system:admin',
      organization: ['system:masters'],
      certType: 'client',
      notBefore: now,
      notAfter: later,
      keys,
      signingCA: authority,
    });
    const node = new X509Certificate(cert.toString('pem'));
    expect(node.verify(new X509Certificate(authority.certificatePem).publicKey)).toBe(true);
    expect(node.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']); // clientAuth
    const pem = privateKeyPem(keys.keyObject);
    expect(pem).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
    expect(privateKeyPem(keys.keyObject, 'pkcs8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    // The key matches the certificate.
    expect(createPublicKey(createPrivateKey(pem)).export({ format: 'jwk' })).toEqual(
      node.publicKey.export({ format: 'jwk' }),
    );
  });

  it('loads a CA back from its PEMs and signs with it', async () => {
    const authority = await ca('ca-reloaded', 'RSA');
    const loaded = await loadCertificateAuthority(authority.certificatePem, privateKeyPem(authority.keys.keyObject));
    const cert = await issueCertificate({
      commonName: 'etcd',
      certType: 'both',
      notBefore: now,
      notAfter: later,
      keys: await generateKeyPair({ algorithm: 'ECDSA' }),
      signingCA: loaded,
    });
    expect(await verifyCertificate(cert.toString('pem'), authority.certificatePem, now)).toBe(true);
  });

  it('rejects a certificate of another CA, a CA bundle without its issuer, and expired certificates', async () => {
    const [a, b] = await Promise.all([ca('ca-a'), ca('ca-b')]);
    const cert = await issueCertificate({
      commonName: 'x',
      certType: 'server',
      notBefore: now,
      notAfter: later,
      keys: await generateKeyPair({ algorithm: 'ECDSA' }),
      signingCA: a,
    });
    const pem = cert.toString('pem');
    expect(await verifyCertificate(pem, b.certificatePem, now)).toBe(false);
    expect(await verifyCertificate(pem, b.certificatePem + a.certificatePem, now)).toBe(true);
    expect(await verifyCertificate(pem, a.certificatePem, new Date(later.getTime() + 1000))).toBe(false);
  });

  it('writes an OpenSSH public key that Node parses back to the same key', async () => {
    const keys = await generateKeyPair({ algorithm: 'RSA', bits: 2048 });
    const line = openSSHAuthorizedKey(keys.keyObject);
    expect(line).toMatch(/^ssh-rsa AAAAB3NzaC1yc2E[A-Za-z0-9+/=]+$/);
    // Decode the wire format: string "ssh-rsa", mpint e, mpint n.
    const blob = Buffer.from(line.split(' ')[1], 'base64');
    const fields: Buffer[] = [];
    for (let off = 0; off < blob.length;) {
      const len = blob.readUInt32BE(off);
      fields.push(blob.subarray(off + 4, off + 4 + len));
      off += 4 + len;
    }
    expect(fields[0].toString()).toBe('ssh-rsa');
    const jwk = createPublicKey(keys.keyObject).export({ format: 'jwk' });
    const strip = (b: Buffer) => (b[0] === 0 ? b.subarray(1) : b);
    expect(strip(fields[1]).toString('base64url')).toBe(jwk.e);
    expect(strip(fields[2]).toString('base64url')).toBe(jwk.n);
  });

  it('rejects an invalid IP SAN', async () => {
    await expect(
      issueCertificate({
        commonName: 'x',
        certType: 'server',
        ipAddresses: ['not-an-ip'],
        notBefore: now,
        notAfter: later,
        keys: await generateKeyPair({ algorithm: 'ECDSA' }),
      }),
    ).rejects.toThrow('invalid IP address "not-an-ip"');
  });
});
