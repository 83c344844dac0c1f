// kube-scheduler's configuration file (KubeSchedulerConfiguration, kubescheduler.config.k8s.io/v1) as `gardener-local
// scheduler --config` reads it: the client connection's kubeconfig, leader election (kube's defaults: on, Lease
// kube-system/kube-scheduler) and the profiles' scheduler names (Gardener's `bin-packing-scheduler` included). Plugins,
// plugin configuration (MostAllocated scoring), extenders and tuning fields have no counterpart in the substrate's
// scheduler: every profile scores as the default one; they come back as ignored fields.
import { common, parseComponentConfig, type ComponentConfigSpec } from '@gardener-ts/component-config';
import { z } from 'zod';

/** The scheduler name of kube-scheduler's default profile. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

const schema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  clientConnection: common.clientConnection,
  leaderElection: common.leaderElection('kube-scheduler', 'kube-system'),
  profiles: z
    .array(z.object({ schedulerName: z.string().default(DEFAULT_SCHEDULER_NAME) }))
    .default([{ schedulerName: DEFAULT_SCHEDULER_NAME }]),
});

/** A KubeSchedulerConfiguration, defaulted as kube-scheduler defaults it (for the fields read here). */
export type KubeSchedulerConfiguration = z.infer<typeof schema>;

const spec: ComponentConfigSpec<KubeSchedulerConfiguration> = {
  component: 'kube-scheduler',
  apiVersion: 'kubescheduler.config.k8s.io/v1',
  kind: 'KubeSchedulerConfiguration',
  schema,
  // The health endpoint is set by flags (--secure-port), not by this file.
  runtime: () => ({
    logLevel: 'info',
    logFormat: 'json',
    healthProbes: { bindAddress: '', port: 10259 },
    metrics: { bindAddress: '', port: 10259 },
  }),
};

/** What `gardener-local scheduler` takes from a KubeSchedulerConfiguration, and what it cannot honour. */
export interface SchedulerSettings {
  config: KubeSchedulerConfiguration;
  /** The profiles' scheduler names: pods naming any of them are placed (all score as the default profile does). */
  schedulerNames: string[];
  /** Field paths of the file without effect here (plugins, plugin configuration, extenders, tuning). */
  ignored: string[];
}

/** Parses and defaults a KubeSchedulerConfiguration file's text; throws a ConfigError naming the bad fields. */
export function parseKubeSchedulerConfiguration(text: string, file = '<inline>'): SchedulerSettings {
  const { config, ignoredFields } = parseComponentConfig(spec, text, file);
  return { config, schedulerNames: [...new Set(config.profiles.map((p) => p.schedulerName))], ignored: ignoredFields };
}
