// `@gardener-ts/admission-plugins/testing` — the garden's admission in a test: gardener-apiserver's strategies and
// admission plugins and the SeedAuthorizer served in-process as webhooks and registered on a test API server (e.g.
// `startTestEnvironment` of @gardener-ts/testing with Gardener's CRDs), so the Gardener kinds are defaulted,
// validated and guarded there as in a real garden (the example Shoot gets its CloudProfile's Kubernetes version,
// deletions need confirmation, gardenlets see only their seed's objects). It lives here rather than in
// @gardener-ts/testing because that harness is a dev dependency of the libraries this one builds on (a cycle otherwise).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, isAlreadyExists, isNotFound, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import type { Listers } from './attributes.js';
import { clientListers } from './listers.js';
import { selectPlugins } from './plugins/index.js';
import { managedIssuerConfigSecret } from './plugins/shoot-managed-issuer.js';
import { createServingCertificate } from './webhook/certificates.js';
import { admissionWebhookConfigurations, WebhookPaths } from './webhook/configurations.js';
import { admissionWebhookServer } from './webhook/server.js';

export interface TestAdmissionOptions {
  /** Gardener plugin names to leave out (gardener-apiserver's `--disable-admission-plugins`), e.g. `['ResourceReferenceManager']`. */
  disabledPlugins?: string[];
  /** Optional plugins to switch on (`optionalPlugins`, e.g. `['ExtensionValidator']`). */
  enabledPlugins?: string[];
  /**
   * The hostname of the garden's managed service account issuer, whose configuration Secret `connect` creates in the
   * `garden` namespace as Gardener's local setup has it (Gardener's example Shoot asks for the managed issuer);
   * `null` leaves the garden without it. Default `discovery.local.gardener.cloud`.
   */
  managedIssuerHostname?: string | null;
}

export interface TestGardenWebhooks {
  /** The port the webhook server listens on (127.0.0.1). */
  port: number;
  /** The serving CA (PEM) the API server must trust. */
  caPem: string;
  /** For the API server's `authorizationWebhook: { url, caPem }` (the SeedAuthorizer). */
  authorizationWebhookUrl: string;
  /** Reads the garden through this API server and registers the admission webhook configurations there. */
  connect(kubeconfigPath: string): Promise<void>;
  /** Removes the webhook configurations and stops the server. */
  stop(): Promise<void>;
}

/**
 * Starts the webhook server before the API server exists (its authorization webhook URL is a start option); call
 * `connect` once the API server runs with Gardener's CRDs.
 */
export async function startTestGardenWebhooks(options: TestAdmissionOptions = {}): Promise<TestGardenWebhooks> {
  const certDir = await mkdtemp(join(tmpdir(), 'gardener-ts-admission-'));
  const certificate = await createServingCertificate({ dns: ['localhost'], ips: ['127.0.0.1'] });
  await writeFile(join(certDir, 'tls.crt'), certificate.certPem);
  await writeFile(join(certDir, 'tls.key'), certificate.keyPem, { mode: 0o600 });
  let live: Listers | undefined;
  const notConnected = () => new Error('the test garden webhooks are not connected to an API server yet');
  const listers: Listers = {
    get: (...args) => (live ? live.get(...args) : Promise.reject(notConnected())),
    list: (...args) => (live ? live.list(...args) : Promise.reject(notConnected())),
    authorize: (...args) => (live?.authorize ? live.authorize(...args) : Promise.reject(notConnected())),
    createDryRun: (...args) => (live?.createDryRun ? live.createDryRun(...args) : Promise.reject(notConnected())),
  };
  const plugins = selectPlugins({ disabled: options.disabledPlugins, enabled: options.enabledPlugins });
  const server = admissionWebhookServer({ listers, plugins, certDir, host: '127.0.0.1', port: 0 });
  await server.start();
  const base = `https://127.0.0.1:${server.port}`;
  const configurations = admissionWebhookConfigurations({ url: base }, certificate.caPem);
  let client: ApiClient | undefined;
  return {
    port: server.port,
    caPem: certificate.caPem,
    authorizationWebhookUrl: `${base}${WebhookPaths.seedAuthorizer}`,
    async connect(kubeconfigPath) {
      client = await ApiClient.create(kubeconfigPath);
      live = clientListers(client);
      for (const configuration of configurations) await createOrReplace(client, configuration);
      const hostname =
        options.managedIssuerHostname === undefined ? 'discovery.local.gardener.cloud' : options.managedIssuerHostname;
      if (hostname !== null) {
        await createIfMissing(client, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'garden' } });
        await createIfMissing(client, managedIssuerConfigSecret(hostname) as KubernetesObject);
      }
    },
    async stop() {
      for (const configuration of client ? configurations : []) {
        await client!
          .delete(kind(configuration.apiVersion!, configuration.kind!), { name: configuration.metadata!.name! })
          .catch(() => undefined); // the API server may be gone already
      }
      client?.close();
      await server.stop();
      await rm(certDir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts the admission webhooks for the API server of `kubeconfigPath` and registers its Mutating/
 * ValidatingWebhookConfigurations there (Gardener's CRDs must be installed).
 */
export async function startTestAdmission(
  kubeconfigPath: string,
  options: TestAdmissionOptions = {},
): Promise<TestGardenWebhooks> {
  const webhooks = await startTestGardenWebhooks(options);
  try {
    await webhooks.connect(kubeconfigPath);
  } catch (err) {
    await webhooks.stop();
    throw new Error('registering the admission webhooks failed', { cause: err });
  }
  return webhooks;
}

async function createIfMissing(client: ApiClient, object: KubernetesObject): Promise<void> {
  await client.create(object).catch((err: unknown) => {
    if (!isAlreadyExists(err)) throw err;
  });
}

async function createOrReplace(client: ApiClient, object: KubernetesObject): Promise<void> {
  try {
    await client.create(object);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    const live = await client
      .get(kind(object.apiVersion!, object.kind!), { name: object.metadata!.name! })
      .catch((e: unknown) => {
        if (isNotFound(e)) return undefined;
        throw e;
      });
    await client.update({
      ...object,
      metadata: { ...object.metadata, resourceVersion: live?.metadata?.resourceVersion },
    });
  }
}
