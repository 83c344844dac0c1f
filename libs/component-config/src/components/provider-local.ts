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
//   - server.metrics (--metrics-bind-address; default port 8080),
//   - server.webhooks (--webhook-config-server-host / --webhook-config-server-port: the webhook server's address and
//     port; default every interface, port 9443, controller-runtime's default — Gardener's provider-local sets 443,
//     which a non-root container cannot bind),
//   - leaderElection (--leader-election, --leader-election-resource-lock, --leader-election-id,
//     --leader-election-namespace, in componentbaseconfig's LeaderElectionConfiguration: enabled, Lease
//     `provider-local-leader-election`, an empty namespace meaning the Pod's own ($POD_NAMESPACE, Gardener's
//     $LEADER_ELECTION_NAMESPACE); the durations, not flags in Gardener, keep controller-runtime's 15s/10s/2s).
import { tryParseQuantity } from '@gardener-ts/api';
import { z } from 'zod';
import { duration, endpoint, featureGates, leaderElection, logFormat, logLevel, serverRuntime } from '../common.js';
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
  server: z
    .object({
      healthProbes: endpoint(8081),
      metrics: endpoint(8080),
      /** The webhook server: every replica serves the webhooks, leader or not. */
      webhooks: endpoint(9443),
    })
    .prefault({}),
  /** Only the leader runs the controllers (webhooks are served by every replica). */
  leaderElection: leaderElection('provider-local-leader-election', ''),
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
