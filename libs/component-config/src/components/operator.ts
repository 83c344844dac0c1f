// OperatorConfiguration (operator.config.gardener.cloud/v1alpha1), the gardener-operator's format.
// Defaults follow Gardener's pkg/operator/apis/config/v1alpha1/defaults.go. Blocks that are not modelled
// (debugging, controllers.garden.etcdConfig, ...) are reported as ignored by the loader.
import { z } from 'zod';
import {
  clientConnection,
  duration,
  endpoint,
  featureGates,
  leaderElection,
  logFormat,
  logLevel,
  serverRuntime,
} from '../common.js';
import type { ComponentConfigSpec } from '../spec.js';

const concurrentSyncs = (fallback?: number) => {
  const base = z.number().int().nonnegative();
  return fallback === undefined ? base.optional() : base.default(fallback);
};

const conditionThresholds = z.array(z.object({ type: z.string().min(1), duration: duration().unwrap() })).optional();

const controllers = z
  .object({
    garden: z.object({ concurrentSyncs: concurrentSyncs(1), syncPeriod: duration('1h') }).prefault({}),
    gardenCare: z.object({ syncPeriod: duration('1m'), conditionThresholds }).prefault({}),
    gardenletDeployer: z.object({ concurrentSyncs: concurrentSyncs(1) }).prefault({}),
    networkPolicy: z.object({ concurrentSyncs: concurrentSyncs() }).optional(),
    vpaEvictionRequirements: z.object({ concurrentSyncs: concurrentSyncs() }).optional(),
    extension: z.object({ concurrentSyncs: concurrentSyncs(5) }).prefault({}),
    extensionRequiredRuntime: z.object({ concurrentSyncs: concurrentSyncs(5) }).prefault({}),
    extensionRequiredVirtual: z.object({ concurrentSyncs: concurrentSyncs(5) }).prefault({}),
  })
  .prefault({});

const schema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  // The operator's client connections default to qps 100 and burst 130, as the shared building block does.
  runtimeClientConnection: clientConnection,
  virtualClientConnection: clientConnection,
  leaderElection: leaderElection('gardener-operator-leader-election'),
  logLevel,
  logFormat,
  server: z
    .object({
      webhooks: endpoint(2750),
      healthProbes: endpoint(2751),
      metrics: endpoint(2752),
    })
    .prefault({}),
  featureGates,
  controllers,
  nodeToleration: z
    .object({
      defaultNotReadyTolerationSeconds: z.number().int().nonnegative().optional(),
      defaultUnreachableTolerationSeconds: z.number().int().nonnegative().optional(),
    })
    .optional(),
});

export type OperatorConfiguration = z.infer<typeof schema>;

export const operatorConfigSpec: ComponentConfigSpec<OperatorConfiguration> = {
  component: 'gardener-operator',
  apiVersion: 'operator.config.gardener.cloud/v1alpha1',
  kind: 'OperatorConfiguration',
  schema,
  runtime: serverRuntime,
};
