// Adds a health check controller for one extension kind and type: every sync period (a timer source listing the
// served objects from the cache) and on each change of a served object, the registered checks run.
import {
  controllerFor,
  timerSource,
  type Controller,
  type Manager,
  type ObjectEvent,
  type Request,
} from '@gardener-ts/controller-runtime';
import { kindSpecFor } from '../controller/generic/add.js';
import type { ExtensionKindName, ExtensionKindSpec, ExtensionObject } from '../controller/generic/kinds.js';
import { hasClass, hasType, type ExtensionClass } from '../controller/generic/operation.js';
import type { HealthCheckContext } from './checks.js';
import { HealthCheckReconciler, type HealthCheckRegistration } from './reconciler.js';

/** Gardener's default health check sync period: 30 s. */
export const DefaultHealthCheckSyncPeriodMs = 30_000;

/** How to add a health check controller. */
export interface HealthCheckControllerOptions {
  kind: ExtensionKindName | ExtensionKindSpec;
  /** The `spec.type` values served. */
  types: readonly string[];
  classes?: readonly ExtensionClass[];
  registrations: readonly HealthCheckRegistration[];
  /** Default 30 s. */
  syncPeriodMs?: number;
  /** A client of the shoot, for checks inside it (Nodes, kube-system workloads). */
  shootClient?: HealthCheckContext['shootClient'];
  /** Controller name; `<kind>-healthcheck` by default. */
  name?: string;
  cluster?: string;
}

/** Adds the health check controller to `mgr`. */
export function addHealthCheckController(mgr: Manager, options: HealthCheckControllerOptions): Controller {
  const kind = kindSpecFor({ kind: options.kind, types: options.types });
  const syncPeriodMs = options.syncPeriodMs ?? DefaultHealthCheckSyncPeriodMs;
  const cluster = mgr.cluster(options.cluster);
  const responsibleFor = (obj: ExtensionObject) => hasType(obj, options.types) && hasClass(obj, options.classes);
  const reconciler = new HealthCheckReconciler({
    kind,
    client: cluster.client,
    registrations: options.registrations,
    responsibleFor,
    ...(options.shootClient ? { shootClient: options.shootClient } : {}),
  });
  const informer = cluster.cache.informerFor(kind.kind);
  const served = (): Request[] =>
    informer.store
      .list()
      .filter(responsibleFor)
      .map((obj) => ({ namespace: obj.metadata?.namespace ?? '', name: obj.metadata?.name ?? '' }));
  const builder = controllerFor(mgr, options.name ?? `${kind.name.toLowerCase()}-healthcheck`)
    .for(kind.kind, {
      predicates: [(event: ObjectEvent<ExtensionObject>) => event.type !== 'delete' && responsibleFor(event.object)],
    })
    .watchesRawSource(timerSource(syncPeriodMs, served));
  if (options.cluster) builder.inCluster(options.cluster);
  return builder.complete(reconciler);
}
