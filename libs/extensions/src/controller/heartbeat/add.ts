// Adds the heartbeat controller: one request, enqueued at start and every renew interval by a timer source, and
// again when the Lease itself changes (someone deleted it or took it over; not on its own renewals).
import {
  Kinds,
  controllerFor,
  timerSource,
  type Controller,
  type Lease,
  type Manager,
  type Predicate,
  type Request,
} from '@gardener-ts/controller-runtime';
import { DefaultRenewIntervalSeconds, HeartbeatLeaseName, HeartbeatReconciler } from './reconciler.js';

/** The heartbeat controller's name. */
export const HeartbeatControllerName = 'heartbeat';

/** How to add the heartbeat controller. */
export interface HeartbeatControllerOptions {
  /** The extension's name (the Lease's holder identity). */
  extensionName: string;
  /** The extension's namespace in the seed (where the Lease lives). */
  namespace: string;
  /** Default 30. */
  renewIntervalSeconds?: number;
  /** The manager's cluster (its default otherwise). */
  cluster?: string;
}

/** Only the heartbeat Lease of `namespace`. */
export function isHeartbeatLease(namespace: string): Predicate {
  return (event) =>
    event.object.metadata?.name === HeartbeatLeaseName && event.object.metadata?.namespace === namespace;
}

/**
 * Not the controller's own renewals: an update that leaves the Lease held by `extensionName` is the heartbeat's own
 * write (reacting to it would renew again at once, an endless loop of writes); creations, deletions and another
 * holder are reacted to.
 */
export function isNotOwnRenewal(extensionName: string): Predicate {
  return (event) => event.type !== 'update' || (event.object as Lease).spec?.holderIdentity !== extensionName;
}

/**
 * Adds the heartbeat controller to `mgr`. It watches Leases: scope the manager's Lease cache to the extension's
 * namespace (`cache: { scopes: [{ kind: Kinds.Lease, scope: { namespace } }] }`) so the seed's other Leases are not cached.
 */
export function addHeartbeatController(mgr: Manager, options: HeartbeatControllerOptions): Controller {
  const interval = options.renewIntervalSeconds ?? DefaultRenewIntervalSeconds;
  if (!(interval > 0)) throw new Error(`heartbeat renew interval must be positive, got ${interval}`);
  const request: Request = { namespace: options.namespace, name: HeartbeatLeaseName };
  const reconciler = new HeartbeatReconciler({
    ...options,
    renewIntervalSeconds: interval,
    client: mgr.cluster(options.cluster).api,
  });
  const builder = controllerFor(mgr, HeartbeatControllerName)
    .for(Kinds.Lease, { predicates: [isHeartbeatLease(options.namespace), isNotOwnRenewal(options.extensionName)] })
    .watchesRawSource(timerSource(interval * 1000, () => [request], { immediate: true }));
  if (options.cluster) builder.inCluster(options.cluster);
  return builder.complete(reconciler);
}
