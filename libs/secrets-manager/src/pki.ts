// Keys and X.509 certificates with Node's webcrypto and @peculiar/x509 (no openssl): RSA and ECDSA key pairs,
// PEM encodings as Gardener writes them (PKCS#1 `RSA PRIVATE KEY` by default, PKCS#8 on request, SEC1 for ECDSA),
// CA / server / client certificates with SANs and Go's key usages, OpenSSH public keys, and chain verification.
import 'reflect-metadata';
import { createPrivateKey, createPublicKey, webcrypto, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import * as x509 from '@peculiar/x509';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;
type SigningParams = webcrypto.RsaHashedImportParams | webcrypto.EcKeyImportParams;

x509.cryptoProvider.set(webcrypto as unknown as webcrypto.Crypto);

/** The key algorithm of a generated key pair. */
export type KeyAlgorithm = 'RSA' | 'ECDSA';

/** What to generate: RSA with a modulus length, or ECDSA on a NIST curve. */
export type KeySpec =
  | { readonly algorithm: 'RSA'; readonly bits: number }
  | { readonly algorithm: 'ECDSA'; readonly curve?: 'P-256' | 'P-384' };

/** A key pair for signing certificates. */
export interface KeyPair {
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  /** The private key as a Node key object, for PEM export. */
  readonly keyObject: KeyObject;
}

function signingAlgorithmOf(key: KeyObject): SigningParams {
  if (key.asymmetricKeyType === 'rsa') return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    const namedCurve = curve === 'secp384r1' ? 'P-384' : curve === 'secp521r1' ? 'P-521' : 'P-256';
    return { name: 'ECDSA', namedCurve } as webcrypto.EcKeyImportParams;
  }
  throw new Error(`unsupported key type ${key.asymmetricKeyType}`);
}

function hashOf(alg: SigningParams): string {
  return alg.name === 'ECDSA' && (alg as webcrypto.EcKeyImportParams).namedCurve === 'P-384' ? 'SHA-384' : 'SHA-256';
}

/** Generates a key pair. RSA takes a noticeable time for 3072 bits and more; ECDSA P-256 takes milliseconds. */
export async function generateKeyPair(spec: KeySpec): Promise<KeyPair> {
  const params =
    spec.algorithm === 'RSA'
      ? {
          name: 'RSASSA-PKCS1-v1_5',
          hash: 'SHA-256',
          modulusLength: spec.bits,
          publicExponent: new Uint8Array([1, 0, 1]),
        }
      : { name: 'ECDSA', namedCurve: spec.curve ?? 'P-256' };
  const keys = (await webcrypto.subtle.generateKey(params, true, ['sign', 'verify'])) as CryptoKeyPair;
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { ...keys, keyObject: createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }) };
}

/** Imports a PEM private key (PKCS#1, PKCS#8 or SEC1) for signing. */
export async function importPrivateKey(pem: string): Promise<KeyPair> {
  const keyObject = createPrivateKey(pem);
  const alg = signingAlgorithmOf(keyObject);
  const pkcs8 = keyObject.export({ type: 'pkcs8', format: 'der' });
  const spki = createPublicKey(keyObject).export({ type: 'spki', format: 'der' });
  const privateKey = await webcrypto.subtle.importKey('pkcs8', pkcs8, alg, true, ['sign']);
  const publicKey = await webcrypto.subtle.importKey('spki', spki, alg, true, ['verify']);
  return { privateKey, publicKey, keyObject };
}

/** The PEM encoding of a private key: PKCS#1 (`RSA PRIVATE KEY`, Gardener's default) or PKCS#8; SEC1 for ECDSA keys. */
export function privateKeyPem(key: KeyObject, format: 'pkcs1' | 'pkcs8' = 'pkcs1'): string {
  if (format === 'pkcs8') return key.export({ type: 'pkcs8', format: 'pem' }) as string;
  if (key.asymmetricKeyType === 'ec') return key.export({ type: 'sec1', format: 'pem' }) as string;
  return key.export({ type: 'pkcs1', format: 'pem' }) as string;
}

/** The OpenSSH `authorized_keys` line of an RSA key (`ssh-rsa AAAA...`, no trailing newline), as Go's ssh package writes it. */
export function openSSHAuthorizedKey(key: KeyObject): string {
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  if (jwk.kty !== 'RSA' || !jwk.n || !jwk.e) throw new Error('an OpenSSH public key needs an RSA key');
  const string = (b: Buffer) => Buffer.concat([uint32(b.length), b]);
  const mpint = (b64url: string) => {
    let b = Buffer.from(b64url, 'base64url');
    while (b.length > 1 && b[0] === 0 && (b[1] & 0x80) === 0) b = b.subarray(1);
    if (b[0] & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
    return string(b);
  };
  const blob = Buffer.concat([string(Buffer.from('ssh-rsa')), mpint(jwk.e), mpint(jwk.n)]);
  return `ssh-rsa ${blob.toString('base64')}`;
}

function uint32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

/** The kinds of certificates (Gardener's `CertType`). */
export type CertType = 'ca' | 'server' | 'client' | 'both';

/** A certificate with its key: what signs other certificates. */
export interface CertificateAuthority {
  readonly certificate: x509.X509Certificate;
  readonly certificatePem: string;
  readonly keys: KeyPair;
}

/** The public half of a key pair: what a certificate for someone else's key (a PKCS#10 request's) is made of. */
export interface PublicKey {
  readonly publicKey: CryptoKey;
  /** The public (or private) key as a Node key object, for its type. */
  readonly keyObject: KeyObject;
}

/** Everything a certificate is made of. */
export interface CertificateRequest {
  readonly commonName: string;
  readonly organization?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly certType: CertType;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** The subject's keys; only the public half (a key of a PKCS#10 request) when a signingCA signs. */
  readonly keys: KeyPair | PublicKey;
  /** The signer; self-signed when absent. */
  readonly signingCA?: CertificateAuthority;
}

/** Issues a certificate as Go's crypto/x509 does for Gardener's templates; returns it as PEM. */
export async function issueCertificate(request: CertificateRequest): Promise<x509.X509Certificate> {
  const isCA = request.certType === 'ca';
  const isRSA = request.keys.keyObject.asymmetricKeyType === 'rsa';
  let usages = x509.KeyUsageFlags.digitalSignature | (isRSA ? x509.KeyUsageFlags.keyEncipherment : 0);
  if (isCA) usages |= x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign;
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(isCA, undefined, true),
    new x509.KeyUsagesExtension(usages, true),
    await x509.SubjectKeyIdentifierExtension.create(request.keys.publicKey),
  ];
  const extendedUsages = {
    ca: [],
    server: [x509.ExtendedKeyUsage.serverAuth],
    client: [x509.ExtendedKeyUsage.clientAuth],
    both: [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth],
  }[request.certType];
  if (extendedUsages.length > 0) extensions.push(new x509.ExtendedKeyUsageExtension(extendedUsages));
  const sans = [
    ...(request.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(request.ipAddresses ?? []).map((value) => {
      if (!isIP(value)) throw new Error(`invalid IP address ${JSON.stringify(value)}`);
      return { type: 'ip' as const, value };
    }),
  ];
  if (sans.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(sans));
  const subject: x509.JsonName = [{ CN: [request.commonName] }];
  if (request.organization?.length) subject.unshift({ O: [...request.organization] });
  const signer = request.signingCA;
  if (signer) extensions.push(await x509.AuthorityKeyIdentifierExtension.create(signer.certificate));
  const signingKeys = signer ? signer.keys : request.keys;
  if (!('privateKey' in signingKeys)) throw new Error('a self-signed certificate needs its private key');
  const alg = signingAlgorithmOf(signingKeys.keyObject);
  return x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject,
    issuer: signer ? signer.certificate.subjectName : subject,
    notBefore: request.notBefore,
    notAfter: request.notAfter,
    publicKey: request.keys.publicKey,
    signingKey: signingKeys.privateKey,
    signingAlgorithm: { name: alg.name, hash: hashOf(alg) } as webcrypto.Algorithm,
    extensions,
  });
}

// A random positive 128-bit serial, as Gardener draws it.
function serialNumber(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] &= 0x7f;
  if (bytes[0] === 0) bytes[0] = 1;
  return Buffer.from(bytes).toString('hex');
}

/** Loads a CA from its certificate and private key PEMs (Gardener's `LoadCertificate`). */
export async function loadCertificateAuthority(
  certificatePem: string,
  privateKeyPemText: string,
): Promise<CertificateAuthority> {
  const certificate = new x509.X509Certificate(certificatePem);
  return { certificate, certificatePem, keys: await importPrivateKey(privateKeyPemText) };
}

/** Splits a PEM bundle into its certificates. */
export function parseCertificates(pem: string): x509.X509Certificate[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map(
    (block) => new x509.X509Certificate(block),
  );
}

/**
 * Whether the (first) certificate in `certificatePem` was signed by one of the CAs in `caBundlePem` and is valid
 * at `at`: the issuer matches a CA's subject, the CA is a CA, and the signature verifies with its key.
 */
export async function verifyCertificate(
  certificatePem: string,
  caBundlePem: string,
  at: Date = new Date(),
): Promise<boolean> {
  const [leaf] = parseCertificates(certificatePem);
  if (!leaf) return false;
  if (at < leaf.notBefore || at > leaf.notAfter) return false;
  for (const ca of parseCertificates(caBundlePem)) {
    if (ca.subject !== leaf.issuer) continue;
    const constraints = ca.getExtension(x509.BasicConstraintsExtension);
    if (!constraints?.ca) continue;
    if (await leaf.verify({ publicKey: ca, signatureOnly: true })) return true;
  }
  return false;
}

export { x509 };
