// Wiring of the health check controller: a timer is its only trigger.
import { controllerFor, timerSource, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import { KubeletHealthCheckReconciler, type KubeletHealthCheckOptions } from './reconciler.js';

/** The controller's name (Gardener's). */
export const ControllerName = 'healthcheck';
/** How often the kubelet is checked by default. */
export const DefaultHealthCheckIntervalMs = 20_000;

/** Adds the kubelet health check to `mgr`. */
export function addHealthCheckController(
  mgr: Manager,
  options: KubeletHealthCheckOptions & { intervalMs?: number },
): Controller {
  const reconciler = new KubeletHealthCheckReconciler({ ...options, log: options.log ?? mgr.log });
  return controllerFor(mgr, ControllerName)
    .watchesRawSource(
      timerSource(options.intervalMs ?? DefaultHealthCheckIntervalMs, () => [{ namespace: '', name: 'kubelet' }]),
    )
    .withOptions({ needLeaderElection: false })
    .complete(() => reconciler.reconcile());
}
