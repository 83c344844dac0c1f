// The admission webhook server: the chain's mutating and validating phases, SeedRestriction on its own path and the
// SeedAuthorizer's SubjectAccessReview endpoint, served over TLS on the controller-runtime webhook server, reading other objects
// through the given listers.
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
  server.mutating(WebhookPaths.mutating, mutatingHandler(plugins, options.listers));
  server.validating(WebhookPaths.validating, validatingHandler(plugins, options.listers));
  // SeedRestriction alone for the core kinds seed clients create (a plugin left out of the chain is left out here too).
  const seedRestriction = plugins.filter((p) => p.name === 'SeedRestriction');
  server.validating(WebhookPaths.seedRestriction, validatingHandler(seedRestriction, options.listers));
  server.handle(WebhookPaths.seedAuthorizer, seedAuthorizerHandler(options.listers, options.log));
  return server;
}
