// How the care reconciler reaches a shoot's API server: at its advertised address, trusting the shoot's cluster CA
// bundle, from the secrets the gardenlet's secrets manager keeps in the control plane namespace. /healthz is asked
// with the `health-check` static token (kube-apiserver's `--token-auth-file`, the least privileged credential the
// shoot has). Nodes, Leases and Pods are read with a short-lived client certificate in `system:masters` issued from the
// shoot's client CA (`ca-client`), as the admin kubeconfig is issued — the gardenlet's shoot access token of Gardener
// needs the shoot's gardener-resource-manager, which the local flow does not deploy yet. The selection of secrets and
// the token file parsing are pure; `ShootClients` is the shell that builds and caches the clients.
import { createHash } from 'node:crypto';
import { ApiClient, ApiError, Kinds, type Client, type Secret } from '@gardener-ts/controller-runtime';
import {
  DataKeyCertificateBundle,
  DataKeyCertificateCA,
  DataKeyPrivateKeyCA,
  DataKeyStaticTokenCSV,
  generateKeyPair,
  issueCertificate,
  LabelKeyManagedBy,
  LabelKeyManagerIdentity,
  LabelKeyName,
  LabelValueSecretsManager,
  loadCertificateAuthority,
  privateKeyPem,
} from '@gardener-ts/secrets-manager';
import { KubeConfig } from '@kubernetes/client-node';
import { SecretNames, StaticTokenUsers } from '../../component/secrets.js';
import { SecretsManagerIdentity } from '../../shoot/seed-steps.js';
import type { HealthzResult } from './health.js';

/** The credentials of a shoot API server, from the control plane namespace. */
export interface ShootAccess {
  server: string;
  /** PEM bundle of the shoot's cluster CA(s). */
  caBundle: string;
  /** The `health-check` user's static token, when the token file exists. */
  healthCheckToken?: string;
  /** The client CA (certificate and key PEM) client certificates are issued from, when it exists. */
  clientCA?: { certificatePem: string; privateKeyPem: string };
}

const b64 = (s: string | undefined) => (s === undefined ? undefined : Buffer.from(s, 'base64').toString('utf8'));

/** The user name of the `health-check` static token. */
export const HealthCheckUser = StaticTokenUsers[0].username;

/** One line of kube-apiserver's token file (`token,user,uid[,"groups"]`). */
export interface StaticToken {
  token: string;
  user: string;
  uid: string;
}

/** Parses a static token file (pure). */
export function parseStaticTokens(csv: string): StaticToken[] {
  return csv
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [token = '', user = '', uid = ''] = line.split(',');
      return { token, user, uid };
    });
}

/**
 * The newest secret of the secrets manager for a config name (pure): the gardenlet's `managed-by=secrets-manager`
 * secrets labelled `name=<config>`, newest first by creation time, so after a rotation the current one wins.
 */
export function newestManagedSecret(secrets: readonly Secret[], config: string): Secret | undefined {
  return secrets
    .filter(
      (s) =>
        s.metadata?.labels?.[LabelKeyName] === config &&
        s.metadata.labels[LabelKeyManagedBy] === LabelValueSecretsManager &&
        s.metadata.labels[LabelKeyManagerIdentity] === SecretsManagerIdentity,
    )
    .sort((a, b) => Date.parse(b.metadata?.creationTimestamp ?? '') - Date.parse(a.metadata?.creationTimestamp ?? ''))
    .at(0);
}

/** The address the gardenlet reaches the shoot API server at: the external, internal or unmanaged one (pure). */
export function shootServer(addresses: readonly { name: string; url: string }[] | undefined): string | undefined {
  for (const name of ['external', 'internal', 'unmanaged']) {
    const found = addresses?.find((a) => a.name === name);
    if (found) return found.url;
  }
  return addresses?.[0]?.url;
}

/**
 * The shoot's access from the secrets of its control plane namespace (pure); undefined, with the reason, when the
 * address or the CA bundle is not there yet.
 */
export function shootAccessFrom(
  server: string | undefined,
  secrets: readonly Secret[],
): { access: ShootAccess } | { missing: string } {
  if (!server) return { missing: 'the shoot has no advertised address yet' };
  const bundle = newestManagedSecret(secrets, `${SecretNames.CACluster}-bundle`);
  const ca = newestManagedSecret(secrets, SecretNames.CACluster);
  const caBundle = b64(bundle?.data?.[DataKeyCertificateBundle]) ?? b64(ca?.data?.[DataKeyCertificateCA]);
  if (!caBundle) return { missing: `the shoot's cluster CA secret "${SecretNames.CACluster}" does not exist yet` };
  const tokens = b64(newestManagedSecret(secrets, SecretNames.StaticToken)?.data?.[DataKeyStaticTokenCSV]);
  const healthCheckToken = tokens
    ? parseStaticTokens(tokens).find((t) => t.user === HealthCheckUser)?.token
    : undefined;
  const clientCA = newestManagedSecret(secrets, SecretNames.CAClient);
  const caCert = b64(clientCA?.data?.[DataKeyCertificateCA]);
  const caKey = b64(clientCA?.data?.[DataKeyPrivateKeyCA]);
  return {
    access: {
      server,
      caBundle,
      ...(healthCheckToken ? { healthCheckToken } : {}),
      ...(caCert && caKey ? { clientCA: { certificatePem: caCert, privateKeyPem: caKey } } : {}),
    },
  };
}

/** A kubeconfig for `server` trusting `caBundle`, authenticated by a token or a client certificate. */
export function shootKubeConfig(
  access: Pick<ShootAccess, 'server' | 'caBundle'>,
  user: { token: string } | { certificatePem: string; keyPem: string },
): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'shoot', server: access.server, caData: Buffer.from(access.caBundle).toString('base64') }],
    users: [
      'token' in user
        ? { name: 'care', token: user.token }
        : {
            name: 'care',
            certData: Buffer.from(user.certificatePem).toString('base64'),
            keyData: Buffer.from(user.keyPem).toString('base64'),
          },
    ],
    contexts: [{ name: 'shoot', cluster: 'shoot', user: 'care' }],
    currentContext: 'shoot',
  });
  return kc;
}

/** The common name and group of the care reconciler's client certificate. */
export const CareClientUser = { commonName: 'gardener.cloud:system:gardenlet-care', group: 'system:masters' } as const;
/** Validity of the care reconciler's client certificate; it is reissued when less than a third is left. */
export const CareClientCertificateValidityMs = 60 * 60_000;

/** What the care reconciler needs from a shoot: /healthz, and a client to read (and collect garbage) with. */
export interface ShootClient {
  healthz(signal?: AbortSignal): Promise<HealthzResult>;
  /** Undefined when the shoot has no client CA (no certificate can be issued). */
  client?: Pick<Client, 'list' | 'delete'>;
}

interface Cached {
  fingerprint: string;
  expires: number;
  shoot: ShootClient;
  close(): void;
}

/** Asks `GET /healthz` of an API client; the body is text (`ok`), not JSON. */
async function probe(api: ApiClient, signal?: AbortSignal): Promise<HealthzResult> {
  try {
    await api.transport.request({
      method: 'GET',
      path: '/healthz',
      accept: 'text/plain',
      ...(signal ? { signal } : {}),
    });
    return { statusCode: 200, body: 'ok' };
  } catch (err) {
    if (err instanceof SyntaxError) return { statusCode: 200, body: 'ok' };
    if (err instanceof ApiError && err.code > 0) return { statusCode: err.code, body: err.message };
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** Builds and caches the clients of the shoots (by control plane namespace), rebuilt when their credentials change. */
export class ShootClients {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  /**
   * The shoot client of a control plane namespace, from the secrets there; the reason when the shoot cannot be
   * reached yet.
   */
  async forShoot(
    seed: Pick<Client, 'list'>,
    namespace: string,
    server: string | undefined,
  ): Promise<{ shoot: ShootClient } | { missing: string }> {
    const secrets = (
      await seed.list(Kinds.Secret, { namespace, labelSelector: { [LabelKeyManagedBy]: LabelValueSecretsManager } })
    ).items;
    const found = shootAccessFrom(server, secrets);
    if ('missing' in found) {
      this.forget(namespace);
      return found;
    }
    const { access } = found;
    const fingerprint = createHash('sha256').update(JSON.stringify(access)).digest('hex');
    const cached = this.cache.get(namespace);
    const now = this.now().getTime();
    if (cached && cached.fingerprint === fingerprint && cached.expires > now) return { shoot: cached.shoot };
    this.forget(namespace);
    const built = await this.build(access, now);
    this.cache.set(namespace, { ...built, fingerprint });
    return { shoot: built.shoot };
  }

  /** Drops (and closes) the clients of a namespace. */
  forget(namespace: string): void {
    this.cache.get(namespace)?.close();
    this.cache.delete(namespace);
  }

  /** Closes every client. */
  close(): void {
    for (const namespace of [...this.cache.keys()]) this.forget(namespace);
  }

  private async build(access: ShootAccess, now: number): Promise<Omit<Cached, 'fingerprint'>> {
    const clients: ApiClient[] = [];
    const open = async (kc: KubeConfig) => {
      const api = await ApiClient.create(kc, { requestTimeoutMs: 10_000 });
      clients.push(api);
      return api;
    };
    let certClient: ApiClient | undefined;
    let expires = Number.POSITIVE_INFINITY;
    if (access.clientCA) {
      const ca = await loadCertificateAuthority(access.clientCA.certificatePem, access.clientCA.privateKeyPem);
      const keys = await generateKeyPair({ algorithm: 'ECDSA' });
      const notAfter = now + CareClientCertificateValidityMs;
      const certificate = await issueCertificate({
        commonName: CareClientUser.commonName,
        organization: [CareClientUser.group],
        certType: 'client',
        notBefore: new Date(now - 60_000),
        notAfter: new Date(notAfter),
        keys,
        signingCA: ca,
      });
      certClient = await open(
        shootKubeConfig(access, { certificatePem: certificate.toString('pem'), keyPem: privateKeyPem(keys.keyObject) }),
      );
      expires = now + (CareClientCertificateValidityMs * 2) / 3;
    }
    const healthzClient = access.healthCheckToken
      ? await open(shootKubeConfig(access, { token: access.healthCheckToken }))
      : certClient;
    return {
      expires,
      shoot: {
        healthz: (signal) =>
          healthzClient
            ? probe(healthzClient, signal)
            : Promise.resolve({ error: 'the shoot has neither a health-check token nor a client CA' }),
        ...(certClient ? { client: certClient } : {}),
      },
      close: () => clients.forEach((c) => c.transport.close()),
    };
  }
}
