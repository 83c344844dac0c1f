// Wires the hello extension into a manager: the Extension controller, its health check and the heartbeat.
import type { Manager } from '@gardener-ts/controller-runtime';
// eslint-disable-next-line @nx/enforce-module-boundaries -- by package name on purpose: the sample uses only the public API
import {
  addExtensionController,
  addHealthCheckController,
  addHeartbeatController,
  seedDeploymentCheck,
  type ExtensionClass,
} from '@gardener-ts/extensions';
import { HelloActuator, HelloServer, HelloType } from './actuator.js';

/** How to run the hello extension. */
export interface HelloOptions {
  /** The extension's own namespace in the seed (where the heartbeat Lease lives). */
  namespace: string;
  /** Extension classes served; `shoot` by default. */
  classes?: ExtensionClass[];
  /** Health check sync period; Gardener's 30 s by default. */
  healthSyncPeriodMs?: number;
  /** Heartbeat renew interval; 30 s by default. */
  heartbeatRenewIntervalSeconds?: number;
  /** Injectable clock of the actuator. */
  now?: () => Date;
}

/** Adds the hello extension's controllers to `mgr`. */
export function addHelloExtension(mgr: Manager, options: HelloOptions): void {
  addExtensionController(mgr, {
    kind: 'Extension',
    types: [HelloType],
    actuator: new HelloActuator(options.now),
    ...(options.classes ? { classes: options.classes } : {}),
  });
  addHealthCheckController(mgr, {
    kind: 'Extension',
    types: [HelloType],
    ...(options.classes ? { classes: options.classes } : {}),
    registrations: [{ conditionType: 'ControlPlaneHealthy', checks: [seedDeploymentCheck(HelloServer)] }],
    ...(options.healthSyncPeriodMs ? { syncPeriodMs: options.healthSyncPeriodMs } : {}),
  });
  addHeartbeatController(mgr, {
    extensionName: 'gardener-extension-hello',
    namespace: options.namespace,
    ...(options.heartbeatRenewIntervalSeconds ? { renewIntervalSeconds: options.heartbeatRenewIntervalSeconds } : {}),
  });
}
