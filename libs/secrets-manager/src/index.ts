// @gardener-ts/secrets-manager: Gardener's secrets manager: CAs, certificates, keys and tokens generated, persisted in Secrets, rotated and cleaned up.
export {
  SecretsManager,
  decode,
  type GenerateOptions,
  type RotationStrategy,
  type SecretClass,
  type SecretsClient,
  type SecretsManagerLogger,
  type SecretsManagerOptions,
} from './manager.js';
export {
  caRotationOptions,
  generateAllSecrets,
  secretNamesToTimesForCARotation,
  type CredentialsRotationPhase,
  type SecretConfigWithOptions,
} from './ca-rotation.js';
export type {
  BasicAuthSecretConfig,
  CertificateBundleSecretConfig,
  CertificateSecretConfig,
  ETCDEncryptionKeySecretConfig,
  PrivateKeyBundleSecretConfig,
  RSASecretConfig,
  SecretConfig,
  StaticTokenSecretConfig,
  TokenConfig,
} from './configs/types.js';
export { generateData, randomString, sha1Auth, type GenerateDataOptions, type SecretData } from './configs/generate.js';
export { configChecksum, dataChecksum, secretMeta, secretName } from './naming.js';
export { mustAutoRenew, unixTime } from './lifetime.js';
export {
  generateKeyPair,
  importPrivateKey,
  issueCertificate,
  loadCertificateAuthority,
  openSSHAuthorizedKey,
  parseCertificates,
  privateKeyPem,
  verifyCertificate,
  type CertType,
  type CertificateAuthority,
  type CertificateRequest,
  type KeyAlgorithm,
  type KeyPair,
  type KeySpec,
  type PublicKey,
} from './pki.js';
export { KeyPool, keySpecId, keyStockOf, type KeyPoolOptions, type KeyStock } from './key-pool.js';
export * from './constants.js';
