// The admission webhook server: the chain's mutating and validating phases, SeedRestriction, the provider secret labels
// and the update restriction handlers on their own paths and the SeedAuthorizer's SubjectAccessReview endpoint, served
// over TLS on the controller-runtime webhook server, reading other objects through the given listers.
import type { Registry } from 'prom-client';
import { WebhookServer } from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import type { Listers } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { defaultPlugins } from '../plugins/index.js';
import { seedAuthorizerHandler } from '../authorizer/handler.js';
import { WebhookPaths } from './configurations.js';
import { mutatingHandler, validatingHandler } from './handlers.js';

export interface AdmissionWebhookServerOptions {
  listers: Listers;
  /** The chain (default: every implemented plugin). */
  plugins?: readonly AdmissionPlugin[];
  /** Directory with tls.crt and tls.key. */
  certDir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  log?: Logger;
  metrics?: Registry;
}

/** Plugins served on their own path only, never in the chain's two webhooks. */
const OWN_PATH_PLUGINS: readonly string[] = ['ProviderSecretLabels', 'UpdateRestriction'];

/** A webhook server (not yet started) serving the admission chain at `WebhookPaths`. */
export function admissionWebhookServer(options: AdmissionWebhookServerOptions): WebhookServer {
  const plugins = options.plugins ?? defaultPlugins;
  const server = new WebhookServer({
    certDir: options.certDir,
    host: options.host,
    port: options.port,
    log: options.log,
    metrics: options.metrics,
  });
  // gardener-admission-controller's handlers with a webhook of their own (Gardener's selectors) run only there.
  const chain = plugins.filter((p) => !OWN_PATH_PLUGINS.includes(p.name));
  server.mutating(WebhookPaths.mutating, mutatingHandler(chain, options.listers));
  server.validating(WebhookPaths.validating, validatingHandler(chain, options.listers));
  const alone = (name: string) => plugins.filter((p) => p.name === name);
  server.mutating(WebhookPaths.providerSecretLabels, mutatingHandler(alone('ProviderSecretLabels'), options.listers));
  server.validating(WebhookPaths.updateRestriction, validatingHandler(alone('UpdateRestriction'), options.listers));
  // SeedRestriction alone for the core kinds seed clients create (a plugin left out of the chain is left out here too).
  const seedRestriction = plugins.filter((p) => p.name === 'SeedRestriction');
  server.validating(WebhookPaths.seedRestriction, validatingHandler(seedRestriction, options.listers));
  server.handle(WebhookPaths.seedAuthorizer, seedAuthorizerHandler(options.listers, options.log));
  return server;
}
