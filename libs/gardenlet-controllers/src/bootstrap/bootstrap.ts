// The gardenlet's garden connection (Gardener pkg/gardenlet/bootstrap): a kubeconfig file, the kubeconfig stored in
// gardenClientConnection.kubeconfigSecret, or TLS bootstrapping with the bootstrap kubeconfig Secret — a CSR for the
// seed's identity, approved by gardener-controller-manager (or a human), the certificate stored as a kubeconfig in
// the kubeconfig Secret, the bootstrap Secret deleted. A shell over the pure kubeconfig/csr/rotation helpers.
import { readFile } from 'node:fs/promises';
import type { KubeConfig } from '@kubernetes/client-node';
import type { GardenletConfiguration } from '@gardener-ts/component-config';
import {
  ApiClient,
  ignoreNotFound,
  isNotFound,
  Kinds,
  loadKubeConfig,
  wrapError,
  type Client,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import { CSR_APPROVAL_TIMEOUT_MS, KUBECONFIG_KEY } from '../constants.js';
import { certificateInfo, certificateSigningRequest, generateCertificateRequest } from './csr.js';
import {
  certificateKubeconfig,
  clientCertificateOf,
  clusterOf,
  gardenCluster,
  parseKubeconfig,
  type ClusterInfo,
} from './kubeconfig.js';
import { renewalRequested } from './rotation.js';

type GardenClientConnection = GardenletConfiguration['gardenClientConnection'];
type SecretRef = { name: string; namespace: string };

interface CSRObject extends KubernetesObject {
  status?: {
    certificate?: string;
    conditions?: { type: string; status?: string; reason?: string; message?: string }[];
  };
}
const CSRKind = Kinds.CertificateSigningRequest;

export interface CertificateRequestOptions {
  seedName: string;
  /** The requested validity (`kubeconfigValidity.validity`); the signer's default when absent. */
  validitySeconds?: number;
  /** How often the CSR is read while waiting (default 1 s). */
  pollMs?: number;
  /** After this long unanswered, a new CSR is created (default 15 min, as Gardener). */
  approvalTimeoutMs?: number;
  signal?: AbortSignal;
  log?: Logger;
}

/** Waits `ms`; rejects with the abort reason when `signal` aborts first (its listener removed either way). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Creates a CSR for the seed's identity with `client` (the bootstrap token or the current certificate) and waits until
 * it is approved and signed; a denied or failed CSR is an error, an unanswered one is replaced after the timeout.
 */
export async function requestClientCertificate(
  client: Pick<Client, 'create' | 'get'>,
  options: CertificateRequestOptions,
): Promise<{ certPem: string; keyPem: string; csrName: string }> {
  const pollMs = options.pollMs ?? 1_000;
  const timeoutMs = options.approvalTimeoutMs ?? CSR_APPROVAL_TIMEOUT_MS;
  for (;;) {
    const { csrPem, keyPem } = await generateCertificateRequest(options.seedName);
    const object = certificateSigningRequest(csrPem, options.validitySeconds) as CSRObject;
    const name = object.metadata!.name!;
    try {
      await client.create(object);
    } catch (err) {
      throw wrapError(err, `creating CertificateSigningRequest ${name}`);
    }
    options.log?.info({ csr: name }, 'Created CertificateSigningRequest, waiting for its approval');
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const csr = (await client.get(CSRKind, { name }).catch(ignoreNotFound)) as CSRObject | undefined;
      const conditions = csr?.status?.conditions ?? [];
      const refused = conditions.find((c) => (c.type === 'Denied' || c.type === 'Failed') && c.status !== 'False');
      if (refused) {
        throw new Error(
          `CertificateSigningRequest ${name} was ${refused.type.toLowerCase()}: ${refused.reason ?? ''} ${refused.message ?? ''}`.trim(),
        );
      }
      if (csr?.status?.certificate) {
        options.log?.info({ csr: name }, 'CertificateSigningRequest approved, certificate issued');
        return { certPem: Buffer.from(csr.status.certificate, 'base64').toString('utf8'), keyPem, csrName: name };
      }
      await sleep(pollMs, options.signal);
    }
    options.log?.info({ csr: name, timeoutMs }, 'CertificateSigningRequest not answered in time, creating a new one');
  }
}

/** Reads the kubeconfig of a Secret (`data.kubeconfig`); undefined if the Secret or the key is missing. */
export async function readKubeconfigSecret(
  seed: Pick<Client, 'get'>,
  ref: SecretRef,
): Promise<{ kubeconfig: string; annotations: Record<string, string> } | undefined> {
  const secret = await seed.get(Kinds.Secret, ref).catch(ignoreNotFound);
  const data = secret?.data?.[KUBECONFIG_KEY];
  if (!secret || !data) return undefined;
  return { kubeconfig: Buffer.from(data, 'base64').toString('utf8'), annotations: secret.metadata?.annotations ?? {} };
}

/** Writes the kubeconfig into the Secret (created if missing) and clears a renewal request on it. */
export async function writeKubeconfigSecret(
  seed: Pick<Client, 'get' | 'create' | 'update'>,
  ref: SecretRef,
  kubeconfig: string,
): Promise<void> {
  const data = { [KUBECONFIG_KEY]: Buffer.from(kubeconfig, 'utf8').toString('base64') };
  const existing = await seed.get(Kinds.Secret, ref).catch(ignoreNotFound);
  if (!existing) {
    await seed.create({ apiVersion: 'v1', kind: 'Secret', metadata: { ...ref }, type: 'Opaque', data });
    return;
  }
  const annotations = { ...existing.metadata?.annotations };
  if (renewalRequested(annotations)) delete annotations['gardener.cloud/operation'];
  await seed.update({ ...existing, metadata: { ...existing.metadata, annotations }, data });
}

export interface GardenConnection {
  kubeConfig: KubeConfig;
  /** Where the kubeconfig came from. */
  source: 'kubeconfig-file' | 'kubeconfig-secret' | 'bootstrap' | 'default';
  /** The kubeconfig text when it authenticates with a client certificate the gardenlet may rotate. */
  kubeconfig?: string;
}

export interface GardenConnectionOptions extends Omit<CertificateRequestOptions, 'validitySeconds'> {
  connection: GardenClientConnection;
  /** Live client of the seed cluster (the Secrets live there). */
  seed: Pick<Client, 'get' | 'create' | 'update' | 'delete'>;
  /** Requests the certificate; defaults to `requestClientCertificate` (a seam for tests). */
  requestCertificate?: typeof requestClientCertificate;
}

/** The validity a configuration asks for, in seconds. */
export function requestedValiditySeconds(
  connection: GardenClientConnection,
  parse: (d: string) => number | undefined,
): number | undefined {
  const v = connection.kubeconfigValidity.validity;
  const ms = v === undefined ? undefined : parse(v);
  return ms === undefined ? undefined : ms / 1000;
}

/**
 * Decides the garden kubeconfig as Gardener does: `gardenClientConnection.kubeconfig` if set; else a usable kubeconfig
 * in `kubeconfigSecret` (renewed first when annotated `gardener.cloud/operation=renew`); else TLS bootstrapping with
 * `bootstrapKubeconfig`; else the default loading rules ($KUBECONFIG, in-cluster).
 */
export async function gardenConnection(
  options: GardenConnectionOptions & { validitySeconds?: number },
): Promise<GardenConnection> {
  const { connection, seed, log } = options;
  const request = options.requestCertificate ?? requestClientCertificate;
  if (connection.kubeconfig) {
    await readFile(connection.kubeconfig).catch((err: unknown) => {
      throw wrapError(err, `reading gardenClientConnection.kubeconfig ${connection.kubeconfig}`);
    });
    return { kubeConfig: loadKubeConfig(connection.kubeconfig), source: 'kubeconfig-file' };
  }
  const secretRef = connection.kubeconfigSecret;
  const stored = secretRef ? await readKubeconfigSecret(seed, secretRef) : undefined;
  if (secretRef && stored) {
    if (!renewalRequested(stored.annotations)) {
      log?.info(
        { secret: `${secretRef.namespace}/${secretRef.name}` },
        'Using the garden kubeconfig from the kubeconfig Secret',
      );
      return {
        kubeConfig: parseKubeconfig(stored.kubeconfig),
        source: 'kubeconfig-secret',
        kubeconfig: stored.kubeconfig,
      };
    }
    log?.info(
      { secret: `${secretRef.namespace}/${secretRef.name}` },
      'Renewal of the garden kubeconfig requested on its Secret',
    );
    const renewed = await renewKubeconfig(stored.kubeconfig, options, request);
    await writeKubeconfigSecret(seed, secretRef, renewed);
    return { kubeConfig: parseKubeconfig(renewed), source: 'kubeconfig-secret', kubeconfig: renewed };
  }
  const bootstrapRef = connection.bootstrapKubeconfig;
  if (bootstrapRef) {
    const bootstrap = await readKubeconfigSecret(seed, bootstrapRef);
    if (!bootstrap) {
      throw new Error(
        `gardenClientConnection.bootstrapKubeconfig: Secret ${bootstrapRef.namespace}/${bootstrapRef.name} has no key ${KUBECONFIG_KEY}` +
          (secretRef
            ? ` and the kubeconfig Secret ${secretRef.namespace}/${secretRef.name} holds no kubeconfig either`
            : ''),
      );
    }
    log?.info('Starting TLS bootstrapping with the bootstrap kubeconfig');
    const cluster = gardenCluster(bootstrap.kubeconfig, connection);
    const bootstrapClient = await ApiClient.create(parseKubeconfig(bootstrap.kubeconfig));
    let kubeconfig: string;
    try {
      const { certPem, keyPem } = await request(bootstrapClient, options);
      kubeconfig = certificateKubeconfig(cluster, certPem, keyPem);
    } finally {
      bootstrapClient.close();
    }
    if (secretRef) {
      await writeKubeconfigSecret(seed, secretRef, kubeconfig);
      // The bootstrap token has done its job (Gardener deletes the bootstrap kubeconfig Secret). Without a
      // kubeconfig Secret it stays: the next start has to bootstrap again.
      await seed.delete(Kinds.Secret, bootstrapRef).catch((err: unknown) => {
        if (!isNotFound(err)) log?.warn({ err }, 'Could not delete the bootstrap kubeconfig Secret');
      });
    }
    log?.info('TLS bootstrapping done, using the new garden kubeconfig');
    return { kubeConfig: parseKubeconfig(kubeconfig), source: 'bootstrap', kubeconfig };
  }
  return { kubeConfig: loadKubeConfig(''), source: 'default' };
}

/** A new certificate for the same cluster, requested with the current certificate (rotation). */
export async function renewKubeconfig(
  current: string,
  options: CertificateRequestOptions,
  request: typeof requestClientCertificate = requestClientCertificate,
): Promise<string> {
  const cluster: ClusterInfo = clusterOf(current);
  const client = await ApiClient.create(parseKubeconfig(current));
  try {
    const { certPem, keyPem } = await request(client, options);
    return certificateKubeconfig(cluster, certPem, keyPem);
  } finally {
    client.close();
  }
}

/** Validity window of the client certificate in a kubeconfig, if it has one inline. */
export function kubeconfigCertificate(kubeconfig: string): { notBefore: Date; notAfter: Date } | undefined {
  const pem = clientCertificateOf(kubeconfig);
  return pem ? certificateInfo(pem) : undefined;
}
