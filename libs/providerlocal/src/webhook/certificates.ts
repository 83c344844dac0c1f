// The webhook CA and serving certificate of provider-local, as Gardener's extension webhook certificate management
// keeps them: the secrets manager (identity `gardener-extension-provider-local-webhook`) generates the CA
// `ca-provider-local-webhook` (30 days, rotated keeping the old one for a day) and the server certificate
// `provider-local-webhook-server` it signs for the Service's names, as Secrets in the extension's namespace, so a
// restart reuses them and the configurations keep trusting the same CA. The server's key pair is written to the
// webhook server's certificate directory; the CA bundle is what the webhook configurations carry.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DataKeyCertificate,
  DataKeyCertificateBundle,
  DataKeyCertificateCA,
  DataKeyPrivateKey,
  SecretsManager,
  decode,
  type CertificateSecretConfig,
  type SecretsClient,
  type SecretsManagerLogger,
} from '@gardener-ts/secrets-manager';
import { WebhookServiceName, servingNames } from './configurations.js';

const DAY_MS = 24 * 3600_000;

/** The secrets manager identity of the webhook certificates. */
export const WebhookCertificatesIdentity = `${WebhookServiceName}-webhook`;
/** The config name of the webhook CA. */
export const WebhookCAName = 'ca-provider-local-webhook';
/** The config name of the webhook server certificate. */
export const WebhookServerCertificateName = 'provider-local-webhook-server';

/** The CA's secret config (Gardener's: 30 days; ECDSA instead of RSA 3072 to spare the machine's CPU). */
export function webhookCAConfig(): CertificateSecretConfig {
  return {
    kind: 'certificate',
    name: WebhookCAName,
    commonName: WebhookCAName,
    certType: 'ca',
    validity: 30 * DAY_MS,
    key: { algorithm: 'ECDSA' },
  };
}

/** The server certificate's secret config for the Service in `namespace` (and `extraNames`). */
export function webhookServerCertificateConfig(
  namespace: string,
  extraNames: readonly string[] = [],
): CertificateSecretConfig {
  const names = servingNames(namespace, extraNames);
  return {
    kind: 'certificate',
    name: WebhookServerCertificateName,
    commonName: 'provider-local',
    dnsNames: names.dns,
    ipAddresses: names.ips,
    certType: 'server',
    skipPublishingCACertificate: true,
    key: { algorithm: 'ECDSA' },
  };
}

/** Options of {@link ensureWebhookCertificates}. */
export interface WebhookCertificatesOptions {
  /** The extension's namespace: the Secrets live there, the certificate names its Service there. */
  namespace: string;
  /** The webhook server's certificate directory: `tls.crt` and `tls.key` are written into it. */
  certDir: string;
  /** More names (DNS names or IP addresses) the server is reached at. */
  extraNames?: readonly string[];
  logger?: SecretsManagerLogger;
  now?: () => Date;
}

/**
 * Generates (or reuses) the webhook CA and server certificate, writes the server's key pair to `certDir` and returns
 * the CA bundle (PEM) to trust: the current CA and, during a rotation, the old one.
 */
export async function ensureWebhookCertificates(
  client: SecretsClient,
  options: WebhookCertificatesOptions,
): Promise<string> {
  const sm = await SecretsManager.create(client, {
    namespace: options.namespace,
    identity: WebhookCertificatesIdentity,
    caSecretAutoRotation: true,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  await sm.generate(webhookCAConfig(), { rotate: 'KeepOld', ignoreOldSecretsAfter: DAY_MS });
  // The current CA signs, so dropping the old CA from the bundle never invalidates the serving certificate.
  const server = await sm.generate(webhookServerCertificateConfig(options.namespace, options.extraNames), {
    signedByCA: WebhookCAName,
    signingCAClass: 'current',
  });
  const ca = sm.get(WebhookCAName)!;
  const caBundle = decode(ca, ca.data?.[DataKeyCertificateBundle] ? DataKeyCertificateBundle : DataKeyCertificateCA);
  await mkdir(options.certDir, { recursive: true, mode: 0o700 });
  await writeFile(join(options.certDir, DataKeyPrivateKey), decode(server, DataKeyPrivateKey), { mode: 0o600 });
  await writeFile(join(options.certDir, DataKeyCertificate), decode(server, DataKeyCertificate), { mode: 0o600 });
  await sm.cleanup();
  return caBundle.toString('utf8');
}
