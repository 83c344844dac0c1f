// Wires the garbage collector (Gardener's pkg/resourcemanager/controller/garbagecollector/add.go): no watched kind,
// one request enqueued at start (controller-runtime's EnqueueOnce); each run requeues itself after the sync period.
import { controllerFor, onceSource, type Controller, type Manager } from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import { GarbageCollectorReconciler } from './reconciler.js';

/** The controller's name, in logs and metrics. */
export const ControllerName = 'garbage-collector';

/** What the garbage collector needs. */
export interface GarbageCollectorDeps {
  /** The manager's cluster to collect in (the target cluster). */
  targetCluster: string;
  /** Objects created less than this long ago are kept. Gardener: 10 minutes. */
  minimumObjectLifetimeMs: number;
  syncPeriodMs: number;
  log: Logger;
}

/** Adds the garbage collector to the manager; it runs once at start, then every sync period (leader only). */
export function addGarbageCollector(mgr: Manager, deps: GarbageCollectorDeps): Controller {
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.targetCluster)
    .watchesRawSource(onceSource({ namespace: '', name: ControllerName }))
    .complete(
      new GarbageCollectorReconciler({
        client: mgr.cluster(deps.targetCluster).api,
        minimumObjectLifetimeMs: deps.minimumObjectLifetimeMs,
        syncPeriodMs: deps.syncPeriodMs,
        log: deps.log,
      }),
    );
}
