// The secret configurations (Gardener's `secrets.ConfigInterface` implementations in pkg/utils/secrets), as plain
// data discriminated by `kind`: their checksum names the secret, so every field that changes the data is here.
import type { CertType, KeySpec } from '../pki.js';

/** A CA, server, client or server+client certificate (Gardener's `CertificateSecretConfig`). */
export interface CertificateSecretConfig {
  readonly kind: 'certificate';
  readonly name: string;
  /** The subject's common name; for a CA the manager uses the secret name instead (unique subjects across rotations). */
  readonly commonName: string;
  readonly organization?: readonly string[];
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  readonly certType: CertType;
  /** Validity in milliseconds; 10 years by default. */
  readonly validity?: number;
  /** Private key encoding: 1 = PKCS#1 (default), 8 = PKCS#8. */
  readonly pkcs?: 1 | 8;
  /** The key: RSA 3072 bits by default (as Gardener); ECDSA P-256 is much faster to generate. */
  readonly key?: KeySpec;
  /** Leave `ca.crt` out of a signed certificate's secret. */
  readonly skipPublishingCACertificate?: boolean;
  /** Append the CA certificate to a server certificate's `tls.crt`. */
  readonly includeCACertificateInServerChain?: boolean;
}

/** An RSA private key, optionally with its OpenSSH public key (Gardener's `RSASecretConfig`). */
export interface RSASecretConfig {
  readonly kind: 'rsa';
  readonly name: string;
  readonly bits: number;
  /** Adds `id_rsa.pub` (OpenSSH authorized key) and keeps the key out of a private key bundle. */
  readonly usedForSSH?: boolean;
}

/** A user name and a random password (Gardener's `BasicAuthSecretConfig`). */
export interface BasicAuthSecretConfig {
  readonly kind: 'basicAuth';
  readonly name: string;
  readonly username: string;
  readonly passwordLength: number;
}

/** One user of a static token file. */
export interface TokenConfig {
  readonly username: string;
  readonly userID: string;
  readonly groups?: readonly string[];
}

/** Random tokens for users, as a kube-apiserver token file (Gardener's `StaticTokenSecretConfig`). */
export interface StaticTokenSecretConfig {
  readonly kind: 'staticToken';
  readonly name: string;
  readonly tokens: readonly TokenConfig[];
}

/** A random etcd encryption key (Gardener's `ETCDEncryptionKeySecretConfig`). */
export interface ETCDEncryptionKeySecretConfig {
  readonly kind: 'etcdEncryptionKey';
  readonly name: string;
  /** Length of the random secret in bytes (32 for AES-CBC / AES-GCM 256). */
  readonly secretLength: number;
}

/** A bundle of PEM certificates (`bundle.crt`); the manager generates these for CAs. */
export interface CertificateBundleSecretConfig {
  readonly kind: 'certificateBundle';
  readonly name: string;
  readonly certificatePEMs: readonly string[];
}

/** A bundle of PEM private keys (`bundle.key`); the manager generates these for RSA keys not used for SSH. */
export interface PrivateKeyBundleSecretConfig {
  readonly kind: 'privateKeyBundle';
  readonly name: string;
  readonly privateKeyPEMs: readonly string[];
}

/** Any secret configuration the manager can generate. */
export type SecretConfig =
  | CertificateSecretConfig
  | RSASecretConfig
  | BasicAuthSecretConfig
  | StaticTokenSecretConfig
  | ETCDEncryptionKeySecretConfig
  | CertificateBundleSecretConfig
  | PrivateKeyBundleSecretConfig;
