// A self-signed serving certificate for the webhook server when the configuration names no certificate directory:
// a fresh CA and a certificate it signs, written as ca.crt / tls.crt / tls.key into a private temporary directory.
// ECDSA P-256 (fast to generate); the CA's PEM is what webhook configurations need as `caBundle`.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';

type Crypto = webcrypto.Crypto;
type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 3600_000;

export interface SelfSignedCertificate {
  /** Directory holding ca.crt, tls.crt and tls.key. */
  certDir: string;
  caPem: string;
}

const serial = () =>
  Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
    .toString('hex')
    .replace(/^[89a-f]/, '1');
const generate = async () =>
  (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;

/** The names the certificate is valid for: loopback, this host, and the in-cluster Service names. */
export function servingNames(
  namespace: string,
  service = 'gardener-resource-manager',
): { dns: string[]; ips: string[] } {
  return {
    dns: [
      'localhost',
      hostname(),
      service,
      `${service}.${namespace}`,
      `${service}.${namespace}.svc`,
      `${service}.${namespace}.svc.cluster.local`,
    ],
    ips: ['127.0.0.1', '::1'],
  };
}

export async function createSelfSignedCertificate(
  names: { dns: string[]; ips: string[] },
  validDays = 365,
): Promise<SelfSignedCertificate> {
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + validDays * DAY_MS);
  const caKeys = await generate();
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: 'CN=gardener-resource-manager-webhook-ca',
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true),
    ],
  });
  const keys = await generate();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: 'CN=gardener-resource-manager',
    issuer: ca.subject,
    notBefore,
    notAfter,
    publicKey: keys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        ...names.dns.map((value) => ({ type: 'dns' as const, value })),
        ...names.ips.map((value) => ({ type: 'ip' as const, value })),
      ]),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey as CryptoKey);
  const certDir = await mkdtemp(join(tmpdir(), 'gardener-resource-manager-webhook-'));
  const caPem = ca.toString('pem');
  await writeFile(join(certDir, 'ca.crt'), caPem, { mode: 0o600 });
  await writeFile(join(certDir, 'tls.crt'), cert.toString('pem'), { mode: 0o600 });
  await writeFile(join(certDir, 'tls.key'), x509.PemConverter.encode(pkcs8, 'PRIVATE KEY'), { mode: 0o600 });
  return { certDir, caPem };
}
