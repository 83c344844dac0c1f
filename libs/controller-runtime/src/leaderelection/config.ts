// A leader elector from a component configuration's `leaderElection` block (componentbaseconfig's
// LeaderElectionConfiguration, as @gardener-ts/component-config parses it: Go duration strings).
import { parseDuration } from '@gardener-ts/component-config';
import { LeaderElector, type LeaderElectorOptions } from './elector.js';

export interface LeaderElectionConfiguration {
  leaderElect: boolean;
  leaseDuration: string;
  renewDeadline: string;
  retryPeriod: string;
  resourceLock: string;
  resourceName: string;
  resourceNamespace: string;
}

type FromConfig = Omit<LeaderElectorOptions, 'lock' | 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>;

/** The elector the configuration asks for, or undefined when `leaderElect` is false (the process leads at once). */
export function leaderElectorFromConfig(
  config: LeaderElectionConfiguration,
  options: FromConfig,
): LeaderElector | undefined {
  if (!config.leaderElect) return undefined;
  if (config.resourceLock !== 'leases')
    throw new Error(
      `leaderElection.resourceLock ${JSON.stringify(config.resourceLock)} is not supported; use "leases"`,
    );
  return new LeaderElector({
    ...options,
    lock: { namespace: config.resourceNamespace, name: config.resourceName },
    leaseDurationMs: durationMs('leaseDuration', config.leaseDuration),
    renewDeadlineMs: durationMs('renewDeadline', config.renewDeadline),
    retryPeriodMs: durationMs('retryPeriod', config.retryPeriod),
  });
}

function durationMs(field: string, text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined)
    throw new Error(`leaderElection.${field}: ${JSON.stringify(text)} is not a duration such as "15s"`);
  return ms;
}
