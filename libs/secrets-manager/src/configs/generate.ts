// Generates the data of a secret from its configuration, with the data keys and formats of Gardener's
// pkg/utils/secrets: certificates (`ca.crt`/`ca.key` for a CA, `tls.crt`/`tls.key`/`ca.crt` otherwise), RSA keys
// (`id_rsa`, `id_rsa.pub`), basic auth (`username`, `password`, `auth`), static tokens (`static_tokens.csv`), etcd
// encryption keys (`key`, `secret`, `encoding`) and bundles (`bundle.crt`, `bundle.key`).
import { createHash, randomBytes, randomInt } from 'node:crypto';
import {
  DataKeyCertificate,
  DataKeyCertificateBundle,
  DataKeyCertificateCA,
  DataKeyEncryptionKeyName,
  DataKeyEncryptionSecret,
  DataKeyEncryptionSecretEncoding,
  DataKeyPassword,
  DataKeyPrivateKey,
  DataKeyPrivateKeyBundle,
  DataKeyPrivateKeyCA,
  DataKeyRSAPrivateKey,
  DataKeySHA1Auth,
  DataKeySSHAuthorizedKeys,
  DataKeyStaticTokenCSV,
  DataKeyUserName,
} from '../constants.js';
import {
  generateKeyPair,
  issueCertificate,
  openSSHAuthorizedKey,
  privateKeyPem,
  type CertificateAuthority,
  type KeyPair,
  type KeySpec,
} from '../pki.js';
import type {
  BasicAuthSecretConfig,
  CertificateSecretConfig,
  ETCDEncryptionKeySecretConfig,
  RSASecretConfig,
  SecretConfig,
  StaticTokenSecretConfig,
} from './types.js';

/** Secret data: data key → bytes. */
export type SecretData = Record<string, Buffer>;

/** Inputs of a generation besides the configuration. */
export interface GenerateDataOptions {
  /** The current time (certificate validity, etcd key names). */
  readonly now: Date;
  /** The CA signing a certificate; a certificate without one is self-signed. */
  readonly signingCA?: CertificateAuthority;
  /** The key pair of a certificate or RSA key, generated ahead for this config; a new one is generated without it. */
  readonly keys?: KeyPair;
}

/** The key of a certificate without `key` in its config: RSA with 3072 bits, as Gardener's. */
export const DefaultCertificateKey: KeySpec = { algorithm: 'RSA', bits: 3072 };

const TEN_YEARS_MS = 10 * 365.25 * 24 * 3600 * 1000;
/** Certificates start one minute in the past, allowing for clock skew (Gardener's `AdjustToClockSkew`). */
export const ALLOWED_CLOCK_SKEW_MS = 60_000;

/** Generates the secret data for a configuration. */
export async function generateData(config: SecretConfig, options: GenerateDataOptions): Promise<SecretData> {
  switch (config.kind) {
    case 'certificate':
      return generateCertificate(config, options);
    case 'rsa':
      return generateRSAKey(config, options.keys);
    case 'basicAuth':
      return generateBasicAuth(config);
    case 'staticToken':
      return generateStaticToken(config);
    case 'etcdEncryptionKey':
      return generateETCDEncryptionKey(config, options.now);
    case 'certificateBundle':
      return { [DataKeyCertificateBundle]: Buffer.from(config.certificatePEMs.join('')) };
    case 'privateKeyBundle':
      return { [DataKeyPrivateKeyBundle]: Buffer.from(config.privateKeyPEMs.join('')) };
  }
}

// Without a signing CA the certificate is self-signed and stored under the CA keys, as Gardener does.
async function generateCertificate(config: CertificateSecretConfig, options: GenerateDataOptions): Promise<SecretData> {
  const keys = options.keys ?? (await generateKeyPair(config.key ?? DefaultCertificateKey));
  const now = options.now.getTime();
  const certificate = await issueCertificate({
    commonName: config.commonName,
    organization: config.organization,
    dnsNames: config.dnsNames,
    ipAddresses: config.ipAddresses,
    certType: config.certType,
    notBefore: new Date(Math.floor((now - ALLOWED_CLOCK_SKEW_MS) / 1000) * 1000),
    notAfter: new Date(Math.floor((now + (config.validity ?? TEN_YEARS_MS)) / 1000) * 1000),
    keys,
    signingCA: options.signingCA,
  });
  const certificatePem = certificate.toString('pem') + '\n';
  const keyPem = privateKeyPem(keys.keyObject, config.pkcs === 8 ? 'pkcs8' : 'pkcs1');
  if (!options.signingCA) {
    return { [DataKeyCertificateCA]: Buffer.from(certificatePem), [DataKeyPrivateKeyCA]: Buffer.from(keyPem) };
  }
  const chain =
    config.certType === 'server' && config.includeCACertificateInServerChain
      ? certificatePem + options.signingCA.certificatePem
      : certificatePem;
  const data: SecretData = { [DataKeyCertificate]: Buffer.from(chain), [DataKeyPrivateKey]: Buffer.from(keyPem) };
  if (!config.skipPublishingCACertificate) data[DataKeyCertificateCA] = Buffer.from(options.signingCA.certificatePem);
  return data;
}

async function generateRSAKey(config: RSASecretConfig, prepared: KeyPair | undefined): Promise<SecretData> {
  const keys = prepared ?? (await generateKeyPair({ algorithm: 'RSA', bits: config.bits }));
  const data: SecretData = { [DataKeyRSAPrivateKey]: Buffer.from(privateKeyPem(keys.keyObject, 'pkcs1')) };
  if (config.usedForSSH) data[DataKeySSHAuthorizedKeys] = Buffer.from(openSSHAuthorizedKey(keys.keyObject));
  return data;
}

function generateBasicAuth(config: BasicAuthSecretConfig): SecretData {
  const password = randomString(config.passwordLength);
  return {
    [DataKeyUserName]: Buffer.from(config.username),
    [DataKeyPassword]: Buffer.from(password),
    [DataKeySHA1Auth]: Buffer.from(sha1Auth(config.username, password)),
  };
}

/** The htpasswd SHA1 line `user:{SHA}base64(sha1(password))` (Gardener's `CreateSHA1Secret`). */
export function sha1Auth(username: string, password: string): string {
  return `${username}:{SHA}${createHash('sha1').update(password).digest('base64')}`;
}

function generateStaticToken(config: StaticTokenSecretConfig): SecretData {
  const lines = config.tokens.map((t) => {
    const groups = (t.groups ?? []).join(',');
    return [randomString(128), t.username, t.userID, (t.groups?.length ?? 0) > 1 ? `"${groups}"` : groups].join(',');
  });
  return { [DataKeyStaticTokenCSV]: Buffer.from(lines.join('\n')) };
}

function generateETCDEncryptionKey(config: ETCDEncryptionKeySecretConfig, now: Date): SecretData {
  const secret = randomBytes(config.secretLength);
  const name = `key${Math.floor(now.getTime() / 1000)}-${createHash('sha256').update(secret).digest('hex').slice(0, 6)}`;
  return {
    [DataKeyEncryptionKeyName]: Buffer.from(name),
    [DataKeyEncryptionSecret]: secret,
    [DataKeyEncryptionSecretEncoding]: Buffer.from('none'),
  };
}

const ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A random string of letters and digits (Gardener's `GenerateRandomString`), from a CSPRNG. */
export function randomString(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}
