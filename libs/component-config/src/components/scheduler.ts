// SchedulerConfiguration (scheduler.config.gardener.cloud/v1alpha1), the gardener-scheduler's format.
import { z } from 'zod';
import {
  natsConnection,
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

export const CANDIDATE_DETERMINATION_STRATEGIES = ['SameRegion', 'MinimalDistance'] as const;

const schema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  clientConnection,
  leaderElection: leaderElection('gardener-scheduler-leader-election'),
  logLevel,
  logFormat,
  server: z
    .object({
      healthProbes: endpoint(10251),
      metrics: endpoint(19251),
    })
    .prefault({}),
  schedulers: z
    .object({
      backupBucket: z.object({ concurrentSyncs: z.number().int().positive().default(2) }).prefault({}),
      shoot: z
        .object({
          concurrentSyncs: z.number().int().positive().default(5),
          retrySyncPeriod: duration('15s'),
          candidateDeterminationStrategy: z.enum(CANDIDATE_DETERMINATION_STRATEGIES).default('SameRegion'),
        })
        .prefault({}),
    })
    .prefault({}),
  featureGates,
  // gardener-ts: where the scheduler publishes its decisions and answers previews. Not part of Gardener's format;
  // without it the scheduler runs without NATS.
  nats: natsConnection.optional(),
});

export type SchedulerConfiguration = z.infer<typeof schema>;

export const schedulerConfigSpec: ComponentConfigSpec<SchedulerConfiguration> = {
  component: 'gardener-scheduler',
  apiVersion: 'scheduler.config.gardener.cloud/v1alpha1',
  kind: 'SchedulerConfiguration',
  schema,
  runtime: serverRuntime,
};
