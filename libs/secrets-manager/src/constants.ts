// Gardener's secrets manager labels and data keys (pkg/utils/secrets/manager and pkg/utils/secrets), unchanged so
// secrets written here read the same as Gardener's.

/** Label: the secret config's name (`name`). */
export const LabelKeyName = 'name';
/** Label: `managed-by=secrets-manager`. */
export const LabelKeyManagedBy = 'managed-by';
/** Label: the identity of the secrets manager instance owning the secret. */
export const LabelKeyManagerIdentity = 'manager-identity';
/** Label: checksum of the configuration the data was generated from. */
export const LabelKeyChecksumConfig = 'checksum-of-config';
/** Label: checksum of the CA that signed the certificate in the data. */
export const LabelKeyChecksumSigningCA = 'checksum-of-signing-ca';
/** Label: the secret is the bundle of the named secret. */
export const LabelKeyBundleFor = 'bundle-for';
/** Label: `persist=true`: kept in the ShootState and restored on control plane migration. */
export const LabelKeyPersist = 'persist';
/** Label: unix time of the last rotation initiation (empty before the first rotation). */
export const LabelKeyLastRotationInitiationTime = 'last-rotation-initiation-time';
/** Label: unix time the data was created (a certificate's not-before). */
export const LabelKeyIssuedAtTime = 'issued-at-time';
/** Label: unix time until which the data is valid (a certificate's not-after). */
export const LabelKeyValidUntilTime = 'valid-until-time';
/** Label: renew after this percentage of the validity (80 when absent). */
export const LabelKeyRenewAfterValidityPercentage = 'renew-after-validity-percentage';

/** Label value `true`. */
export const LabelValueTrue = 'true';
/** Label value of `managed-by`. */
export const LabelValueSecretsManager = 'secrets-manager';

/** Suffix of a bundle secret's config name (`<name>-bundle`). */
export const NameSuffixBundle = '-bundle';

/** Data key of a certificate. */
export const DataKeyCertificate = 'tls.crt';
/** Data key of a certificate's private key. */
export const DataKeyPrivateKey = 'tls.key';
/** Data key of a CA certificate (in a CA secret, and the signing CA in a certificate secret). */
export const DataKeyCertificateCA = 'ca.crt';
/** Data key of a CA's private key. */
export const DataKeyPrivateKeyCA = 'ca.key';
/** Data key of a certificate bundle (CA bundle: current and old CA). */
export const DataKeyCertificateBundle = 'bundle.crt';
/** Data key of a private key bundle (e.g. current and old service account key). */
export const DataKeyPrivateKeyBundle = 'bundle.key';
/** Data key of an RSA private key. */
export const DataKeyRSAPrivateKey = 'id_rsa';
/** Data key of the OpenSSH authorized key of an RSA key used for SSH. */
export const DataKeySSHAuthorizedKeys = 'id_rsa.pub';
/** Data key of a basic auth user name. */
export const DataKeyUserName = 'username';
/** Data key of a basic auth password. */
export const DataKeyPassword = 'password';
/** Data key of the SHA1-schemed basic auth pair (`user:{SHA}base64(sha1(password))`, htpasswd format). */
export const DataKeySHA1Auth = 'auth';
/** Data key of the static token file (kube-apiserver `--token-auth-file` CSV). */
export const DataKeyStaticTokenCSV = 'static_tokens.csv';
/** Data key of an etcd encryption key's name. */
export const DataKeyEncryptionKeyName = 'key';
/** Data key of an etcd encryption key's secret. */
export const DataKeyEncryptionSecret = 'secret';
/** Data key telling whether the encryption secret is base64 encoded (`none` for raw bytes). */
export const DataKeyEncryptionSecretEncoding = 'encoding';
