// Wiring of the shoot scheduler: which events reach the queue, how many workers, and the waker for pending shoots.
import type { Shoot } from '@gardener-ts/api';
import {
  BucketRateLimiter,
  ItemExponentialRateLimiter,
  MaxOfRateLimiter,
  controllerFor,
  requestFor,
  requestKey,
  type Controller,
  type Manager,
  type Predicate,
} from '@gardener-ts/controller-runtime';
import type { Strategy } from '../types.js';
import { AssumedBindings } from './assumed.js';
import { ShootKind } from './kinds.js';
import { isPendingShoot } from './pending.js';
import { ShootReconciler, type DecisionSink, type ShootEventSink } from './reconcile.js';
import { informerSchedulingCache, schedulingInformers, type SchedulingCache } from './scheduling-cache.js';
import { PendingShootWaker } from './waker.js';

export const CONTROLLER_NAME = 'shoot-scheduler';

/**
 * Pending shoots when they appear or their spec changes (generation). Status-only updates — the scheduler's own
 * lastOperation report among them — do not re-enqueue: retries follow the back-off, and the waker ends it early.
 */
export const pendingShootChanged: Predicate<Shoot> = (event) => {
  if (event.type === 'delete' || !isPendingShoot(event.object)) return false;
  if (event.type !== 'update') return true;
  return event.oldObject.metadata?.generation !== event.object.metadata?.generation || !isPendingShoot(event.oldObject);
};

export interface ShootSchedulerOptions {
  strategy: Strategy;
  concurrentSyncs: number;
  events: ShootEventSink;
  decisions?: DecisionSink;
  /** The manager's cluster holding Shoots and Seeds (the garden); the default cluster when absent. */
  cluster?: string;
  allowIPv4Overlap?: boolean;
  /** Longest wait between two attempts for a shoot that fits nowhere (schedulers.shoot.retrySyncPeriod). Default 15 s. */
  maxRetryDelayMs?: number;
}

export interface ShootScheduler {
  controller: Controller;
  cache: SchedulingCache;
  assumed: AssumedBindings;
  waker: PendingShootWaker;
}

export function addShootScheduler(mgr: Manager, options: ShootSchedulerOptions): ShootScheduler {
  const cluster = mgr.cluster(options.cluster);
  const informers = schedulingInformers(cluster.cache);
  const cache = informerSchedulingCache(informers);
  const assumed = new AssumedBindings();
  const reconciler = new ShootReconciler({
    cache,
    client: cluster.api,
    events: options.events,
    decisions: options.decisions,
    strategy: options.strategy,
    assumed,
    allowIPv4Overlap: options.allowIPv4Overlap,
  });
  const controller = controllerFor(mgr, CONTROLLER_NAME)
    .inCluster(cluster.name)
    .for(ShootKind, { predicates: [pendingShootChanged] })
    .withOptions({
      maxConcurrentReconciles: options.concurrentSyncs,
      // Exponential back-off from 5 ms, capped at the retry period; the overall 10 qps bucket as in controller-runtime.
      rateLimiter: new MaxOfRateLimiter(
        new ItemExponentialRateLimiter(5, Math.max(5, options.maxRetryDelayMs ?? 15_000)),
        new BucketRateLimiter(10, 100),
      ),
    })
    .complete(reconciler.reconcile);
  const waker = new PendingShootWaker(cache, (shoot) => controller.queue.add(requestKey(requestFor(shoot)))).watch(
    informers,
  );
  mgr.add({ needLeaderElection: false, start: () => undefined, stop: async () => waker.stop() });
  return { controller, cache, assumed, waker };
}
