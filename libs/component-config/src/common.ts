// Building blocks shared by all Gardener component configurations (k8s.io/component-base style).
import { z } from 'zod';
import { LOG_FORMATS, LOG_LEVELS } from '@gardener-ts/logging';
import { parseDuration } from './duration.js';
import type { Endpoint, RuntimeSettings } from './spec.js';

/** A Go duration string such as "15s" or "1m30s"; kept as text, checked for syntax. */
export const duration = (fallback?: string) => {
  const base = z.string().refine((v) => parseDuration(v) !== undefined, {
    message: 'invalid duration: expected a Go duration such as "15s", "1m30s" or "24h"',
  });
  return fallback === undefined ? base.optional() : base.default(fallback);
};

export const port = z.number().int().min(0, 'must be between 0 and 65535').max(65535, 'must be between 0 and 65535');

export const logLevel = z.enum(LOG_LEVELS).default('info');
export const logFormat = z.enum(LOG_FORMATS).default('json');

export const featureGates = z.record(z.string(), z.boolean()).default({});

/** componentbaseconfig.ClientConnectionConfiguration */
export const clientConnection = z
  .object({
    kubeconfig: z.string().default(''),
    acceptContentTypes: z.string().optional(),
    contentType: z.string().optional(),
    qps: z.number().nonnegative().default(100),
    burst: z.number().int().nonnegative().default(130),
  })
  .prefault({});

/** componentbaseconfig.LeaderElectionConfiguration */
export const leaderElection = (resourceName: string, resourceNamespace = 'garden') =>
  z
    .object({
      leaderElect: z.boolean().default(true),
      leaseDuration: duration('15s'),
      renewDeadline: duration('10s'),
      retryPeriod: duration('2s'),
      resourceLock: z.enum(['leases']).default('leases'),
      resourceName: z.string().default(resourceName),
      resourceNamespace: z.string().default(resourceNamespace),
    })
    .prefault({});

/**
 * A bind address: a host name or IP literal, empty for every interface. Gardener joins it with the port as
 * `<bindAddress>:<port>`, so its IPv6 configurations write literals in brackets (`"[::]"`); the brackets are dropped
 * here, leaving the address a Node server listens on (`::`).
 */
export const bindAddress = (fallback = '') =>
  z
    .string()
    .default(fallback)
    .transform((address) => (/^\[[^\]]*\]$/.test(address) ? address.slice(1, -1) : address));

/** A `{bindAddress, port}` server block with Gardener's defaults for the component. */
export const endpoint = (defaultPort: number, defaultBindAddress = '') =>
  z.object({ bindAddress: bindAddress(defaultBindAddress), port: port.default(defaultPort) }).prefault({});

/** `server.healthProbes` and `server.metrics`, the layout of current Gardener configurations. */
export const probesAndMetrics = (healthPort: number, metricsPort: number) =>
  z.object({ healthProbes: endpoint(healthPort), metrics: endpoint(metricsPort) }).prefault({});

/** An empty bind address means every interface, as in Go's net.Listen. */
export function toEndpoint(e: { bindAddress: string; port: number }): Endpoint {
  return { bindAddress: e.bindAddress === '' ? '0.0.0.0' : e.bindAddress, port: e.port };
}

/** The runtime settings of configurations laid out like Gardener's: top-level log settings and `server.*`. */
export function serverRuntime(c: {
  logLevel: RuntimeSettings['logLevel'];
  logFormat: RuntimeSettings['logFormat'];
  server: { healthProbes: { bindAddress: string; port: number }; metrics: { bindAddress: string; port: number } };
}): RuntimeSettings {
  return {
    logLevel: c.logLevel,
    logFormat: c.logFormat,
    healthProbes: toEndpoint(c.server.healthProbes),
    metrics: toEndpoint(c.server.metrics),
  };
}

/**
 * gardener-ts extension (not a field of Gardener's formats): the NATS servers a component publishes its events on,
 * with at most one credential. Without it the component runs without NATS.
 */
export const natsConnection = z
  .object({
    servers: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    credsFile: z.string().min(1).optional(),
    nkeySeedFile: z.string().min(1).optional(),
    token: z.string().min(1).optional(),
  })
  .refine((n) => [n.credsFile, n.nkeySeedFile, n.token].filter(Boolean).length <= 1, {
    message: 'set at most one of credsFile, nkeySeedFile and token',
  });
