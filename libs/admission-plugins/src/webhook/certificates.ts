// The webhook server's serving certificate when none is mounted: a fresh self-signed CA and a server certificate it
// signs for the Service's DNS names (`<service>.<namespace>.svc`, ...) and loopback, written as ca.crt/tls.crt/tls.key
// (the layout of a kubernetes.io/tls Secret). ECDSA P-256: generated in milliseconds. The CA is what the webhook
// configurations carry as caBundle (Gardener's admission controller manages its own CA and serving cert the same way).
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';

type Crypto = webcrypto.Crypto;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 3600_000;

/** The names a serving certificate is for. */
export interface ServingNames {
  dns: string[];
  ips: string[];
}

/** The names of a Service's in-cluster DNS entries, plus loopback. */
export function serviceNames(service: { name: string; namespace: string }): ServingNames {
  const { name, namespace } = service;
  return {
    dns: [
      'localhost',
      name,
      `${name}.${namespace}`,
      `${name}.${namespace}.svc`,
      `${name}.${namespace}.svc.cluster.local`,
    ],
    ips: ['127.0.0.1', '::1'],
  };
}

const serial = () => {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return Buffer.from(bytes).toString('hex');
};

const generate = async () =>
  (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;

async function pkcs8Pem(key: webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
}

/** A CA and a server certificate it signed, as PEM. */
export interface ServingCertificate {
  caPem: string;
  certPem: string;
  keyPem: string;
}

/** Generates a self-signed CA and a serving certificate for `names`, valid for `validDays`. */
export async function createServingCertificate(names: ServingNames, validDays = 365): Promise<ServingCertificate> {
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + validDays * DAY_MS);
  const caKeys = await generate();
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: 'CN=gardener-admission-controller-ca',
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
    subject: 'CN=gardener-admission-controller',
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
  return { caPem: ca.toString('pem'), certPem: cert.toString('pem'), keyPem: await pkcs8Pem(keys.privateKey) };
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * The CA bundle for the certificate in `certDir`: when `tls.crt` and `tls.key` are there (a mounted Secret), its
 * `ca.crt`, else the certificate itself; otherwise a new CA and certificate for `names` are written there first.
 */
export async function ensureServingCertificate(
  certDir: string,
  names: ServingNames,
): Promise<{ caPem: string; generated: boolean }> {
  const [crt, key] = [join(certDir, 'tls.crt'), join(certDir, 'tls.key')];
  if ((await exists(crt)) && (await exists(key))) {
    const ca = join(certDir, 'ca.crt');
    return { caPem: await readFile((await exists(ca)) ? ca : crt, 'utf8'), generated: false };
  }
  const created = await createServingCertificate(names);
  await mkdir(certDir, { recursive: true, mode: 0o700 });
  await writeFile(join(certDir, 'ca.crt'), created.caPem);
  await writeFile(key, created.keyPem, { mode: 0o600 });
  await writeFile(crt, created.certPem);
  return { caPem: created.caPem, generated: true };
}
