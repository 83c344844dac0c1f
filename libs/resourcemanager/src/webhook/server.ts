// The resource-manager's webhook server: every enabled webhook on `.server.webhooks`, with the certificate from
// `.server.webhooks.tls.serverCertDir` or, when none is given there, a self-signed one it generates. Runs on every
// replica, independent of leader election: the API server may call any of them.
import { access, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResourceManagerConfiguration } from '@gardener-ts/component-config';
import {
  WebhookServer,
  type AdmissionHandler,
  type Client,
  type ComponentContext,
  type HttpHandler,
  type Reader,
} from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import { createSelfSignedCertificate, servingNames } from './certificates.js';
import { mutatingWebhooks, validatingWebhooks } from './configurations.js';
import { WebhookPath } from './constants.js';
import {
  crdDeletionProtectionHandler,
  highAvailabilityHandler,
  projectedTokenMountHandler,
  systemComponentsConfigHandler,
} from './handlers.js';
import { endpointSliceHints } from './endpoint-slice-hints.js';
import { extensionValidation } from './extension-validation.js';
import { kubernetesServiceHost } from './kubernetes-service-host.js';
import { podSchedulerName } from './pod-scheduler-name.js';
import { podTopologySpreadConstraints } from './pod-topology-spread-constraints.js';
import { seccompProfile } from './seccomp-profile.js';
import { TokenInvalidatorPath, tokenInvalidator } from './token-invalidator.js';
import { authorizationHandler } from './authorization-handler.js';
import { NodeAgentAuthorizerPath, authorizeNodeAgent } from './node-agent-authorizer.js';
import { apiNodeAgentReads } from './node-agent-reads.js';
import { caBundleOf, registerWebhookConfigurations, registrationTarget } from './registration.js';

export interface ResourceManagerWebhooksOptions {
  config: ResourceManagerConfiguration;
  /** Reads the source cluster (extension resources for the deletion protection). */
  source: Reader;
  /** Reads the target cluster (namespaces, ServiceAccounts, HPAs, nodes); writes the webhook configurations. */
  target: Client;
  /** Namespace of the resource-manager's Service (names in a self-signed certificate). */
  namespace: string;
  log: Logger;
  metrics?: ComponentContext<ResourceManagerConfiguration>['metrics'];
}

/** The handler for each path an enabled webhook is served at. */
export function webhookHandlers(
  o: Pick<ResourceManagerWebhooksOptions, 'config' | 'source' | 'target'>,
): Map<string, AdmissionHandler> {
  const w = o.config.webhooks;
  const handlers = new Map<string, AdmissionHandler>();
  const byPath: Record<string, AdmissionHandler> = {
    [WebhookPath.HighAvailabilityConfig]: highAvailabilityHandler(o.target, w.highAvailabilityConfig),
    [WebhookPath.KubernetesServiceHost]: (req) => kubernetesServiceHost(req, w.kubernetesServiceHost.host),
    [WebhookPath.ProjectedTokenMount]: projectedTokenMountHandler(o.target, w.projectedTokenMount.expirationSeconds),
    [WebhookPath.PodTopologySpreadConstraints]: (req) => podTopologySpreadConstraints(req),
    [WebhookPath.SystemComponentsConfig]: systemComponentsConfigHandler(o.target, w.systemComponentsConfig),
    [WebhookPath.EndpointSliceHints]: (req) => endpointSliceHints(req),
    [WebhookPath.PodSchedulerName]: (req) => podSchedulerName(req, w.podSchedulerName.schedulerName),
    [WebhookPath.SeccompProfile]: (req) => seccompProfile(req),
    [WebhookPath.CRDDeletionProtection]: crdDeletionProtectionHandler(o.source),
    [TokenInvalidatorPath]: (req) => tokenInvalidator(req),
  };
  for (const hook of [...mutatingWebhooks(o.config), ...validatingWebhooks(o.config)]) {
    handlers.set(hook.path, byPath[hook.path] ?? ((req) => extensionValidation(req)));
  }
  return handlers;
}

/** The authorization webhooks (SubjectAccessReviews, not AdmissionReviews) the configuration enables, by path. */
export function authorizationHandlers(
  o: Pick<ResourceManagerWebhooksOptions, 'config' | 'source' | 'target' | 'log'>,
): Map<string, HttpHandler> {
  const routes = new Map<string, HttpHandler>();
  const nodeAgent = o.config.webhooks.nodeAgentAuthorizer;
  if (nodeAgent.enabled) {
    const options = {
      machineNamespace: nodeAgent.machineNamespace,
      authorizeWithSelectors: nodeAgent.authorizeWithSelectors ?? false,
      reads: apiNodeAgentReads(o.source, o.target),
    };
    routes.set(
      NodeAgentAuthorizerPath,
      authorizationHandler(
        (attrs) => authorizeNodeAgent(attrs, options),
        o.log.child({ webhook: 'node-agent-authorizer' }),
      ),
    );
  }
  return routes;
}

async function hasCertificate(dir: string): Promise<boolean> {
  try {
    await Promise.all([access(join(dir, 'tls.crt')), access(join(dir, 'tls.key'))]);
    return true;
  } catch {
    return false;
  }
}

export class ResourceManagerWebhooks {
  private server?: WebhookServer;
  /** The CA of a generated certificate (undefined when the certificate comes from the configuration). */
  caPem?: string;
  certDir?: string;

  constructor(private readonly options: ResourceManagerWebhooksOptions) {}

  /** Whether any webhook is enabled (otherwise there is nothing to serve). */
  get enabled(): boolean {
    const { config } = this.options;
    return (
      mutatingWebhooks(config).length + validatingWebhooks(config).length > 0 ||
      config.webhooks.nodeAgentAuthorizer.enabled
    );
  }

  get port(): number | undefined {
    return this.server?.port;
  }

  async start(): Promise<void> {
    const { config, log } = this.options;
    const endpoint = config.server.webhooks;
    let certDir = endpoint.tls.serverCertDir;
    if (!certDir || !(await hasCertificate(certDir))) {
      if (certDir)
        log.info(
          { serverCertDir: certDir },
          'No tls.crt/tls.key in the webhook certificate directory, generating a self-signed certificate',
        );
      const generated = await createSelfSignedCertificate(servingNames(this.options.namespace));
      certDir = generated.certDir;
      this.caPem = generated.caPem;
    }
    this.certDir = certDir;
    const server = new WebhookServer({
      host: endpoint.bindAddress || undefined,
      port: endpoint.port,
      certDir,
      log: log.child({ component: 'webhook-server' }),
      metrics: this.options.metrics,
    });
    const validating = new Set(validatingWebhooks(config).map((h) => h.path));
    for (const [path, handler] of webhookHandlers(this.options)) {
      if (validating.has(path)) server.validating(path, handler);
      else server.mutating(path, handler);
    }
    // The authorization webhook shares the port, as on Gardener's one webhook server.
    for (const [path, handler] of authorizationHandlers(this.options)) server.handle(path, handler);
    await server.start();
    this.server = server;
    log.info(
      {
        port: server.port,
        paths: server.paths,
        certDir,
        ...(this.caPem ? { caBundleFile: join(certDir, 'ca.crt') } : {}),
      },
      'Webhook server for the resource-manager webhooks started',
    );
    if (config.webhookRegistration.enabled) {
      const caBundle = await caBundleOf(certDir, this.caPem);
      await registerWebhookConfigurations(
        this.options.target,
        config,
        registrationTarget(config, server.port),
        caBundle,
        log,
      );
    }
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    this.server = undefined;
    // A generated certificate lives only as long as this server.
    if (this.caPem && this.certDir) await rm(this.certDir, { recursive: true, force: true });
  }
}
