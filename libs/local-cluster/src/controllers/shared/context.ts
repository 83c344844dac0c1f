// What every controller of the controller manager is built from: the manager, its clients and cache, a logger,
// an event recorder per component and the clock.
import type { ApiClient, CachedClient, InformerCache, Manager } from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import { EventRecorder } from './events.js';

export interface ControllerContext {
  mgr: Manager;
  /** Reads from the cache, writes to the API server. */
  client: CachedClient;
  /** Live reads, for the few checks that must not be stale. */
  api: ApiClient;
  cache: InformerCache;
  log: Logger;
  /** Milliseconds since the epoch; tests inject their own. */
  now: () => number;
  events(component: string): EventRecorder;
}

export function controllerContext(mgr: Manager, log: Logger, now: () => number): ControllerContext {
  const cluster = mgr.cluster();
  return {
    mgr,
    client: cluster.client,
    api: cluster.api,
    cache: cluster.cache,
    log,
    now,
    events: (component) => new EventRecorder(cluster.client, component, log.child({ component })),
  };
}
