// provider-local's webhook server: the CA and serving certificate from the secrets manager (certificates.ts), a TLS
// WebhookServer with the node and control plane webhooks (add.ts), the seed's MutatingWebhookConfiguration with the CA
// bundle, then the empty patch of every seed Node so they report 100 CPUs and 100Gi at once (registration.ts; with
// leader election, the leader starts it: `triggerNodes`). The shoot's configuration (same CA) is what the ControlPlane
// actuator deploys into each shoot; `renewCertificates` is what the webhook certificate reconciler (certificate/, the
// leader's) calls every sync period, `reloadCertificate` what the certificate reloader (reloader/, every replica) calls
// to serve the certificate the leader renewed. Runs on every replica.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Kinds,
  WebhookServer,
  type Client,
  type KubernetesObject,
  type WebhookServerOptions,
} from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import {
  DataKeyCertificate,
  DataKeyPrivateKey,
  LabelKeyManagedBy,
  LabelKeyManagerIdentity,
  LabelKeyName,
  LabelValueSecretsManager,
  decode,
} from '@gardener-ts/secrets-manager';
import { addProviderLocalWebhooks } from './add.js';
import {
  WebhookCertificatesIdentity,
  WebhookServerCertificateName,
  ensureWebhookCertificates,
} from './certificates.js';
import { WebhookServerPort, seedWebhookConfiguration, shootWebhookConfiguration } from './configurations.js';
import { reconcileSeedWebhookConfiguration, triggerNodeWebhook, type TriggerOptions } from './registration.js';

/** Options of {@link ProviderLocalWebhooks}. */
export interface ProviderLocalWebhooksOptions {
  /** The seed (uncached): Secrets of the certificates, the webhook configuration, Nodes. */
  client: Client;
  /** The extension's namespace (its Service, the certificates' Secrets, the owner of the seed configuration). */
  namespace: string;
  log: Logger;
  /** Listen port (the configuration's `server.webhooks.port`; default {@link WebhookServerPort}; 0 picks a free one). */
  port?: number;
  /** Listen address (the configuration's `server.webhooks.bindAddress`; default every interface). */
  host?: string;
  /** More names (DNS names or IPs) for the serving certificate: where else the server is reached. */
  extraNames?: readonly string[];
  /** The seed configuration's client config: its Service (default) or a base URL (the extension runs outside). */
  seedURL?: string;
  /** How the empty Node patches retry. */
  trigger?: TriggerOptions;
  /**
   * Whether `start` begins the empty Node patches (default true). With leader election the leader begins them by
   * calling {@link ProviderLocalWebhooks.triggerNodes} (Gardener's start-up trigger is a leader's runnable).
   */
  triggerNodesOnStart?: boolean;
  metrics?: WebhookServerOptions['metrics'];
}

/** provider-local's webhook server and its seed registration. */
export class ProviderLocalWebhooks {
  private server?: WebhookServer;
  private certDir?: string;
  private caBundle?: string;
  private readonly stopping = new AbortController();

  constructor(private readonly options: ProviderLocalWebhooksOptions) {}

  /** The port the server listens on, once started. */
  get port(): number | undefined {
    return this.server?.port;
  }

  /** The shoot's MutatingWebhookConfiguration (for the ControlPlane actuator); undefined before the start. */
  shootWebhookConfiguration(): KubernetesObject | undefined {
    return this.caBundle ? shootWebhookConfiguration(this.options.namespace, this.caBundle) : undefined;
  }

  /** Starts serving, registers the seed configuration and triggers the node webhook for every seed Node. */
  async start(): Promise<void> {
    const { client, namespace, log } = this.options;
    this.certDir = await mkdtemp(join(tmpdir(), 'provider-local-webhook-'));
    this.caBundle = await ensureWebhookCertificates(client, {
      namespace,
      certDir: this.certDir,
      ...(this.options.extraNames ? { extraNames: this.options.extraNames } : {}),
      logger: log,
    });
    const server = new WebhookServer({
      port: this.options.port ?? WebhookServerPort,
      ...(this.options.host ? { host: this.options.host } : {}),
      certDir: this.certDir,
      log: log.child({ component: 'webhook-server' }),
      ...(this.options.metrics ? { metrics: this.options.metrics } : {}),
    });
    addProviderLocalWebhooks(server);
    await server.start();
    this.server = server;
    log.info({ port: server.port, paths: server.paths }, 'Webhook server started');

    const configuration = this.seedWebhookConfiguration();
    await reconcileSeedWebhookConfiguration(client, configuration, namespace);
    log.info({ name: configuration.metadata?.name }, 'Seed webhook configuration reconciled');

    if (this.options.triggerNodesOnStart ?? true) this.triggerNodes();
  }

  /** Settles once every seed Node got the local resources (or the trigger gave up): the Nodes that did not. */
  nodesTriggered: Promise<string[]> = Promise.resolve([]);

  /**
   * Begins the empty patches of every seed Node in the background (see {@link nodesTriggered}): the Service has no
   * endpoints until this Pod is ready, and the kubelet reports an unchanged status only every 5 minutes
   * (nodeStatusReportFrequency), so they go on until every Node has the local resources. Once per start.
   */
  triggerNodes(): void {
    if (this.nodesTriggering || this.stopping.signal.aborted) return;
    this.nodesTriggering = true;
    this.nodesTriggered = this.patchNodes();
  }

  private nodesTriggering = false;

  private async patchNodes(): Promise<string[]> {
    const { client, log } = this.options;
    const abort = this.stopping.signal;
    const attempts = this.options.trigger?.attempts ?? 10;
    let delay = this.options.trigger?.retryDelayMs ?? 500;
    const giveUpAt = Date.now() + (this.options.trigger?.timeoutMs ?? 10 * 60_000);
    for (;;) {
      try {
        const untouched = await triggerNodeWebhook(client, this.options.trigger);
        if (untouched.length === 0) {
          log.info('Seed Nodes got the local resources from the node webhook');
          return [];
        }
        if (abort.aborted || Date.now() >= giveUpAt) {
          log.info({ nodes: untouched }, 'Seed Nodes did not get the local resources from the node webhook');
          return untouched;
        }
        log.debug({ nodes: untouched, attempts }, 'Seed Nodes did not get the local resources yet, trying again');
      } catch (err) {
        if (abort.aborted) return [];
        log.error({ err }, 'Patching the seed Nodes to trigger the node webhook failed, trying again');
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        abort.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
      delay = Math.min(delay * 2, 10_000);
    }
  }

  /**
   * Generates the certificates again (the secrets manager renews what nears its end) and writes them for the server,
   * which reloads them; a changed CA bundle goes into the seed configuration. Returns whether the bundle changed.
   */
  async renewCertificates(): Promise<boolean> {
    if (!this.certDir || !this.caBundle) throw new Error('the webhook server has not been started');
    const { client, namespace, log } = this.options;
    const caBundle = await ensureWebhookCertificates(client, {
      namespace,
      certDir: this.certDir,
      ...(this.options.extraNames ? { extraNames: this.options.extraNames } : {}),
      logger: log,
    });
    if (caBundle === this.caBundle) return false;
    this.caBundle = caBundle;
    await reconcileSeedWebhookConfiguration(client, this.seedWebhookConfiguration(), namespace);
    log.info('Webhook CA bundle changed, seed webhook configuration updated');
    return true;
  }

  /**
   * Serves the serving certificate the secrets manager keeps (Gardener's webhook certificate reloader): reads its
   * Secret and, when it differs from the files the server serves, writes them (the server reloads them). A replica
   * that does not lead renews nothing itself and follows the leader's renewals this way. Returns whether it wrote a
   * new certificate; false also while there is not exactly one such Secret (a renewal in progress: the next call).
   */
  async reloadCertificate(): Promise<boolean> {
    const { certDir } = this;
    if (!certDir) throw new Error('the webhook server has not been started');
    const { client, namespace, log } = this.options;
    const secrets = await client.list(Kinds.Secret, {
      namespace,
      labelSelector: {
        [LabelKeyName]: WebhookServerCertificateName,
        [LabelKeyManagedBy]: LabelValueSecretsManager,
        [LabelKeyManagerIdentity]: WebhookCertificatesIdentity,
      },
    });
    if (secrets.items.length !== 1) {
      log.debug({ secrets: secrets.items.length }, 'Not exactly one webhook server certificate Secret, checking later');
      return false;
    }
    const [secret] = secrets.items;
    const certificate = decode(secret, DataKeyCertificate);
    const served = await readFile(join(certDir, DataKeyCertificate)).catch(() => undefined);
    if (served?.equals(certificate)) return false;
    // The key first: the server reloads when the certificate changes and must find the matching key then.
    await writeFile(join(certDir, DataKeyPrivateKey), decode(secret, DataKeyPrivateKey), { mode: 0o600 });
    await writeFile(join(certDir, DataKeyCertificate), certificate, { mode: 0o600 });
    await this.server?.reloadCertificate();
    log.info({ secret: secret.metadata?.name }, 'Webhook server certificate reloaded');
    return true;
  }

  private seedWebhookConfiguration(): KubernetesObject {
    const { namespace, seedURL } = this.options;
    return seedURL
      ? seedWebhookConfiguration(namespace, this.caBundle!, { url: seedURL })
      : seedWebhookConfiguration(namespace, this.caBundle!);
  }

  /** Stops serving and removes the certificate files. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.nodesTriggered;
    await this.server?.stop();
    this.server = undefined;
    if (this.certDir) await rm(this.certDir, { recursive: true, force: true });
  }
}
