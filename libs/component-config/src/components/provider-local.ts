// ControllerConfiguration (local.provider.extensions.config.gardener.cloud/v1alpha1), the configuration of
// gardener-extension-provider-local.
//
// Gardener's provider-local has no configuration file of its own: it is configured by command-line flags
// (charts/gardener/provider-local/templates/deployment.yaml: --log-level, --log-format, --health-bind-address,
// --metrics-bind-address, ...). This format follows the ControllerConfiguration that Gardener provider
// extensions use (clientConnection, etcd, healthCheckConfig, featureGates) and, as our own extension, adds
// what gardener-ts takes from the file rather than from flags:
//   - logLevel / logFormat (the --log-level / --log-format flags; defaults info / json),
//   - server.healthProbes (--health-bind-address; default port 8081),
//   - server.metrics (--metrics-bind-address; default port 8080).
import { tryParseQuantity } from '@gardener-ts/api';
import { z } from 'zod';
import { duration, featureGates, logFormat, logLevel, probesAndMetrics, serverRuntime } from '../common.js';
import type { ComponentConfigSpec } from '../spec.js';

/** A Kubernetes resource.Quantity such as "10Gi", "500M" or "1.5". */
const quantity = z
  .union([z.string(), z.number().nonnegative().transform(String)])
  .refine((v) => (tryParseQuantity(v)?.sign() ?? -1) >= 0, {
    message: 'must be a resource quantity such as "10Gi"',
  });

const schema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  /** Optional overrides of the client towards the seed's kube-apiserver. */
  clientConnection: z
    .object({
      kubeconfig: z.string().optional(),
      acceptContentTypes: z.string().optional(),
      contentType: z.string().optional(),
      qps: z.number().nonnegative().optional(),
      burst: z.number().int().nonnegative().optional(),
    })
    .optional(),
  // gardener-ts extension, see the header comment.
  logLevel,
  logFormat,
  server: probesAndMetrics(8081, 8080),
  /** Settings for the etcd instances of shoot control planes. */
  etcd: z
    .object({
      storage: z.object({ className: z.string().optional(), capacity: quantity.optional() }).optional(),
      backup: z.object({ schedule: z.string().optional() }).optional(),
    })
    .optional(),
  /** Settings of the health check controllers. */
  healthCheckConfig: z
    .object({
      syncPeriod: duration('30s'),
      shootRESTOptions: z
        .object({
          qps: z.number().nonnegative().optional(),
          burst: z.number().int().nonnegative().optional(),
        })
        .optional(),
    })
    .optional(),
  featureGates,
});

export type ProviderLocalConfiguration = z.infer<typeof schema>;

export const providerLocalConfigSpec: ComponentConfigSpec<ProviderLocalConfiguration> = {
  component: 'gardener-extension-provider-local',
  apiVersion: 'local.provider.extensions.config.gardener.cloud/v1alpha1',
  kind: 'ControllerConfiguration',
  schema,
  runtime: serverRuntime,
};
