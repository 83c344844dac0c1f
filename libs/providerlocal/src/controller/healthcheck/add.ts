// provider-local's health checks (Gardener's pkg/provider-local/controller/healthcheck), run by the SDK's health check
// controller (its reconciler writes the conditions gardenlet's care controller reads): for Workers EveryNodeReady,
// ControlPlaneHealthy and SystemComponentsHealthy (the machine controller in place of machine-controller-manager,
// see machine-controller.ts); for ControlPlanes SystemComponentsHealthy, the ManagedResources the ControlPlane deploys
// into the shoot: `extension-controlplane-shoot-webhooks` (the shoot's webhook configuration; Gardener's provider-local
// checks this one) and, provider-local's own, the `default` StorageClass.
import type { Manager } from '@gardener-ts/controller-runtime';
import {
  DefaultHealthCheckSyncPeriodMs,
  addHealthCheckController,
  managedResourceCheck,
  type HealthCheckRegistration,
} from '@gardener-ts/extensions';
import { ShootWebhooksManagedResourceName } from '../controlplane/actuator.js';
import { StorageClassesManagedResourceName } from '../controlplane/storage-classes.js';
import { machineControllerCheck, machineControllerShootAccessCheck } from './machine-controller.js';
import { defaultShootClient, everyNodeReadyCheck, type ShootClientFactory } from './nodes.js';

/** The provider type the health checks serve. */
const LocalType = 'local';

/** Options of provider-local's health checks. */
export interface HealthCheckOptions {
  /** How often every served object is checked (the configuration's `healthCheckConfig.syncPeriod`); default 30 s. */
  syncPeriodMs?: number;
  /** Whether the machine controller runs in this process (ControlPlaneHealthy of Workers); default true. */
  machineControllerInProcess?: boolean;
  /** The shoot's client (Nodes); default through the shoot access Secret `gardener`. */
  shootClient?: ShootClientFactory;
  /**
   * Whether the ControlPlane actuator deploys the shoot's webhook configuration (provider-local serves webhooks), so
   * that ControlPlanes' SystemComponentsHealthy checks its ManagedResource; default true.
   */
  shootWebhooks?: boolean;
}

/** The checks of a Worker, by condition type. */
export function workerHealthChecks(options: HealthCheckOptions = {}): HealthCheckRegistration[] {
  return [
    {
      conditionType: 'ControlPlaneHealthy',
      checks: [machineControllerCheck(options.machineControllerInProcess ?? true)],
    },
    { conditionType: 'SystemComponentsHealthy', checks: [machineControllerShootAccessCheck()] },
    { conditionType: 'EveryNodeReady', checks: [everyNodeReadyCheck(options.shootClient ?? defaultShootClient)] },
  ];
}

/**
 * The checks of a ControlPlane (purpose `normal`; `exposure` is not served): the ManagedResources its actuator deploys,
 * the shoot webhooks' one only when `shootWebhooks` (default true) — without webhooks the actuator deploys none.
 */
export function controlPlaneHealthChecks(
  options: Pick<HealthCheckOptions, 'shootWebhooks'> = {},
): HealthCheckRegistration[] {
  const managedResources = [
    ...((options.shootWebhooks ?? true) ? [ShootWebhooksManagedResourceName] : []),
    StorageClassesManagedResourceName,
  ];
  return [
    {
      conditionType: 'SystemComponentsHealthy',
      checks: managedResources.map((name) => managedResourceCheck(name)),
      preCheck: (obj) => (obj.spec as { purpose?: string } | undefined)?.purpose !== 'exposure',
    },
  ];
}

/** Adds the health check controllers of Workers and ControlPlanes of type `local` (class `shoot`, as Gardener's). */
export function addHealthCheckControllers(mgr: Manager, options: HealthCheckOptions = {}): void {
  const syncPeriodMs = options.syncPeriodMs ?? DefaultHealthCheckSyncPeriodMs;
  addHealthCheckController(mgr, {
    kind: 'Worker',
    types: [LocalType],
    classes: ['shoot'],
    registrations: workerHealthChecks(options),
    syncPeriodMs,
  });
  addHealthCheckController(mgr, {
    kind: 'ControlPlane',
    types: [LocalType],
    classes: ['shoot'],
    registrations: controlPlaneHealthChecks(options),
    syncPeriodMs,
  });
}
