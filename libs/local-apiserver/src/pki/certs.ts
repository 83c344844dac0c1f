// The local cluster's PKI: a CA, the API server's serving certificate and client certificates, as PEM.
// ECDSA P-256 keys: generated in milliseconds, so a test server starts fast.
import { webcrypto } from 'node:crypto';

type Crypto = webcrypto.Crypto;
type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 3600 * 1000;

export interface KeyPair {
  certPem: string;
  keyPem: string;
}

export interface CertificateAuthority extends KeyPair {
  cert: x509.X509Certificate;
  keys: CryptoKeyPair;
}

async function exportKey(key: CryptoKey): Promise<string> {
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', key as webcrypto.CryptoKey);
  return x509.PemConverter.encode(pkcs8, 'PRIVATE KEY');
}

function serial(): string {
  return Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)))
    .toString('hex')
    .replace(/^[89a-f]/, '1');
}

export async function createCA(commonName: string, validDays = 3650): Promise<CertificateAuthority> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${commonName}`,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + validDays * DAY_MS),
    keys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert, keys, certPem: cert.toString('pem'), keyPem: await exportKey(keys.privateKey) };
}

/** Loads a CA written earlier (restarts keep the same trust). */
export async function loadCA(certPem: string, keyPem: string): Promise<CertificateAuthority> {
  const cert = new x509.X509Certificate(certPem);
  const der = x509.PemConverter.decode(keyPem)[0];
  const privateKey = await webcrypto.subtle.importKey('pkcs8', der, ALG, true, ['sign']);
  const publicKey = await cert.publicKey.export(ALG, ['verify'], webcrypto as unknown as Crypto);
  return { cert, keys: { privateKey, publicKey } as unknown as CryptoKeyPair, certPem, keyPem };
}

export interface IssueOptions {
  commonName: string;
  organizations?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
  usage: 'server' | 'client' | 'both';
  validDays?: number;
  /** Issue for an existing public key (CSR signing) instead of generating a key pair. */
  publicKey?: CryptoKey;
  notAfter?: Date;
}

export async function issueCertificate(
  ca: CertificateAuthority,
  options: IssueOptions,
): Promise<KeyPair & { cert: x509.X509Certificate }> {
  const keys = options.publicKey
    ? undefined
    : ((await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair);
  const name = [
    `CN=${escapeRdn(options.commonName)}`,
    ...(options.organizations ?? []).map((o) => `O=${escapeRdn(o)}`),
  ].join(', ');
  const usages = {
    server: [x509.ExtendedKeyUsage.serverAuth],
    client: [x509.ExtendedKeyUsage.clientAuth],
    both: [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth],
  }[options.usage];
  const altNames = [
    ...(options.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(options.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: name,
    issuer: ca.cert.subject,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: options.notAfter ?? new Date(Date.now() + (options.validDays ?? 365) * DAY_MS),
    signingAlgorithm: ALG,
    publicKey: options.publicKey ?? keys!.publicKey,
    signingKey: ca.keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension(usages),
      await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
      ...(altNames.length > 0 ? [new x509.SubjectAlternativeNameExtension(altNames)] : []),
    ],
  });
  return { cert, certPem: cert.toString('pem'), keyPem: keys ? await exportKey(keys.privateKey) : '' };
}

function escapeRdn(value: string): string {
  return value.replace(/([,+"\\<>;=])/g, '\\$1');
}
