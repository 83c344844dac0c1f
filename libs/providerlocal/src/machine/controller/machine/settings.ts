// The effective machine-controller-manager settings of one Machine, as MCM's getEffective{Creation,Health,Drain}
// Timeout, getEffectiveMaxEvictRetries and getEffectiveNodeConditions read them: the Machine's own `spec`
// (`creationTimeout`, `healthTimeout`, `drainTimeout`, `maxEvictRetries`, `nodeConditions`, `disableHealthTimeout`:
// MCM's MachineConfiguration, copied from the MachineDeployment's template by the MachineSet, which provider-local's
// Worker fills from the pool's `machineControllerManager` settings), else the controller-wide defaults. Pure.
import { parseDuration } from '@gardener-ts/api';
import type { Machine } from '../../objects.js';
import { DefaultFailureConditions, DefaultMachineHealthOptions, type MachineHealthOptions } from './health.js';

/** machine-controller-manager's `--machine-drain-timeout` default: after it, a deleted machine is force-drained. */
export const DefaultMachineDrainTimeoutMs = 2 * 60 * 60_000;
/** How long MCM waits between two evictions of a Pod that a PodDisruptionBudget refused (`PodEvictionRetryInterval`). */
export const PodEvictionRetryIntervalMs = 20_000;
/** machine-controller-manager's `--machine-max-evict-retries` default: the drain timeout over the retry interval. */
export const DefaultMaxEvictRetries = Math.floor(DefaultMachineDrainTimeoutMs / PodEvictionRetryIntervalMs);

/** The controller-wide settings a Machine's spec may override. */
export interface MachineSettingsDefaults extends MachineHealthOptions {
  drainTimeoutMs: number;
  maxEvictRetries: number;
  /** Node conditions that make a machine unhealthy unless `False` (MCM's `--node-conditions`). */
  failureConditions: readonly string[];
}

/** machine-controller-manager's defaults. */
export const DefaultMachineSettings: MachineSettingsDefaults = {
  ...DefaultMachineHealthOptions,
  drainTimeoutMs: DefaultMachineDrainTimeoutMs,
  maxEvictRetries: DefaultMaxEvictRetries,
  failureConditions: DefaultFailureConditions,
};

/** The settings in effect for one Machine. */
export interface MachineSettings extends MachineSettingsDefaults {
  /** The health timeout never fails an Unknown machine (MCM's `disableHealthTimeout`). */
  disableHealthTimeout: boolean;
}

/** A duration of the Machine's spec in ms; undefined when absent, unparsable or negative (the default applies). */
function durationMs(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = parseDuration(value);
  return ms === undefined || ms < 0 ? undefined : ms;
}

/** The settings in effect for `machine`: its spec's, else `defaults`. */
export function machineSettingsOf(
  machine: Pick<Machine, 'spec'>,
  defaults: MachineSettingsDefaults = DefaultMachineSettings,
): MachineSettings {
  const spec = machine.spec ?? {};
  const conditions = spec.nodeConditions
    ?.split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const retries = spec.maxEvictRetries;
  return {
    ...defaults,
    creationTimeoutMs: durationMs(spec.creationTimeout) ?? defaults.creationTimeoutMs,
    healthTimeoutMs: durationMs(spec.healthTimeout) ?? defaults.healthTimeoutMs,
    drainTimeoutMs: durationMs(spec.drainTimeout) ?? defaults.drainTimeoutMs,
    maxEvictRetries:
      retries !== undefined && Number.isInteger(retries) && retries >= 0 ? retries : defaults.maxEvictRetries,
    failureConditions: spec.nodeConditions !== undefined && conditions ? conditions : defaults.failureConditions,
    disableHealthTimeout: spec.disableHealthTimeout === true,
  };
}
