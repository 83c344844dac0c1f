import { X509Certificate, createHash, createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateKeyPair, issueCertificate, privateKeyPem, type CertificateAuthority } from '../pki.js';
import { generateData, randomString, sha1Auth } from './generate.js';

const now = new Date('2026-03-01T10:00:00Z');

async function authority(): Promise<CertificateAuthority> {
  const keys = await generateKeyPair({ algorithm: 'ECDSA' });
  const certificate = await issueCertificate({
    commonName: 'ca',
    certType: 'ca',
    notBefore: now,
    notAfter: new Date(now.getTime() + 86400_000),
    keys,
  });
  return { certificate, certificatePem: certificate.toString('pem') + '\n', keys };
}

describe('generateData', () => {
  it('writes a CA as ca.crt and ca.key, valid 10 years from one minute ago', async () => {
    const data = await generateData(
      { kind: 'certificate', name: 'ca', commonName: 'ca', certType: 'ca', key: { algorithm: 'ECDSA' } },
      { now },
    );
    expect(Object.keys(data).sort()).toEqual(['ca.crt', 'ca.key']);
    const cert = new X509Certificate(data['ca.crt']);
    expect(cert.ca).toBe(true);
    expect(new Date(cert.validFrom).toISOString()).toBe('2026-03-01T09:59:00.000Z');
    expect(new Date(cert.validTo).getUTCFullYear()).toBe(2036);
  });

  it('writes a signed certificate as tls.crt, tls.key and the signing ca.crt', async () => {
    const ca = await authority();
    const data = await generateData(
      {
        kind: 'certificate',
        name: 'kube-apiserver',
        commonName: 'kube-apiserver',
        dnsNames: ['kubernetes.default.svc'],
        certType: 'server',
        validity: 30 * 86400_000,
        key: { algorithm: 'ECDSA' },
        pkcs: 8,
      },
      { now, signingCA: ca },
    );
    expect(Object.keys(data).sort()).toEqual(['ca.crt', 'tls.crt', 'tls.key']);
    expect(data['ca.crt'].toString()).toBe(ca.certificatePem);
    expect(data['tls.key'].toString()).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const cert = new X509Certificate(data['tls.crt']);
    expect(cert.verify(new X509Certificate(ca.certificatePem).publicKey)).toBe(true);
    expect(new Date(cert.validTo).toISOString()).toBe('2026-03-31T10:00:00.000Z');
  });

  it('chains the CA into a server certificate and can leave ca.crt out', async () => {
    const ca = await authority();
    const data = await generateData(
      {
        kind: 'certificate',
        name: 's',
        commonName: 's',
        certType: 'server',
        key: { algorithm: 'ECDSA' },
        includeCACertificateInServerChain: true,
        skipPublishingCACertificate: true,
      },
      { now, signingCA: ca },
    );
    expect(data['ca.crt']).toBeUndefined();
    expect(data['tls.crt'].toString().match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(data['tls.crt'].toString().endsWith(ca.certificatePem)).toBe(true);
  });

  it('generates an RSA key pair for SSH with an OpenSSH public key', async () => {
    const data = await generateData({ kind: 'rsa', name: 'ssh-keypair', bits: 2048, usedForSSH: true }, { now });
    expect(data['id_rsa'].toString()).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
    expect(createPrivateKey(data['id_rsa']).asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(data['id_rsa.pub'].toString()).toMatch(/^ssh-rsa \S+$/);
  });

  it('generates an RSA service account key without a public key', async () => {
    const data = await generateData({ kind: 'rsa', name: 'service-account-key', bits: 2048 }, { now });
    expect(Object.keys(data)).toEqual(['id_rsa']);
  });

  it('generates basic auth with a random alphanumeric password and the htpasswd SHA1 line', async () => {
    const data = await generateData(
      { kind: 'basicAuth', name: 'observability-ingress', username: 'admin', passwordLength: 32 },
      { now },
    );
    const password = data.password.toString();
    expect(password).toMatch(/^[a-zA-Z0-9]{32}$/);
    expect(data.username.toString()).toBe('admin');
    expect(data.auth.toString()).toBe(`admin:{SHA}${createHash('sha1').update(password).digest('base64')}`);
  });

  it('computes the htpasswd SHA1 line as Gardener does', () => {
    expect(sha1Auth('admin', 'foo')).toBe('admin:{SHA}C+7Hteo/D9vJXQ3UfzxbwnXaijM=');
  });

  it('writes a static token file: token,user,uid,groups with several groups quoted', async () => {
    const data = await generateData(
      {
        kind: 'staticToken',
        name: 'kube-apiserver-static-token',
        tokens: [
          { username: 'health-check', userID: 'health-check' },
          { username: 'admin', userID: 'admin', groups: ['system:masters', 'gardener'] },
        ],
      },
      { now },
    );
    const lines = data['static_tokens.csv'].toString().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^[a-zA-Z0-9]{128},health-check,health-check,$/);
    expect(lines[1]).toMatch(/^[a-zA-Z0-9]{128},admin,admin,"system:masters,gardener"$/);
  });

  it('generates an etcd encryption key named after the time and the key hash', async () => {
    const data = await generateData(
      { kind: 'etcdEncryptionKey', name: 'kube-apiserver-etcd-encryption-key', secretLength: 32 },
      { now },
    );
    expect(data.secret).toHaveLength(32);
    const hash = createHash('sha256').update(data.secret).digest('hex').slice(0, 6);
    expect(data.key.toString()).toBe(`key${now.getTime() / 1000}-${hash}`);
    expect(data.encoding.toString()).toBe('none');
  });

  it('concatenates bundles', async () => {
    const ca = await authority();
    const data = await generateData(
      { kind: 'certificateBundle', name: 'ca-bundle', certificatePEMs: [ca.certificatePem, ca.certificatePem] },
      { now },
    );
    expect(data['bundle.crt'].toString()).toBe(ca.certificatePem + ca.certificatePem);
    const key = privateKeyPem(ca.keys.keyObject);
    const keys = await generateData({ kind: 'privateKeyBundle', name: 'k-bundle', privateKeyPEMs: [key] }, { now });
    expect(keys['bundle.key'].toString()).toBe(key);
  });

  it('draws random strings of the requested length from letters and digits', () => {
    expect(randomString(0)).toBe('');
    const s = randomString(2000);
    expect(s).toMatch(/^[a-zA-Z0-9]{2000}$/);
    expect(new Set(s).size).toBeGreaterThan(50);
  });
});
