// The ManagedSeed controller's jittered enqueueing (Gardener's `EnqueueWithJitterDelay` of
// pkg/gardenlet/controller/managedseed, `controllers.managedSeed.syncJitterPeriod`/`jitterUpdates`): ManagedSeeds seen
// when the gardenlet (re)starts are spread over the jitter period, so a rollout of all gardenlets does not reconcile
// every ManagedSeed — and roll out every child gardenlet — at once; new generations are jittered only with
// `jitterUpdates`; new ManagedSeeds and deletions go in at once.
import type {
  Enqueue,
  KubernetesObject,
  ObjectEvent,
  Predicate,
  Request,
  SharedInformer,
  Source,
} from '@gardener-ts/controller-runtime';
import { Annotations, Operations } from '@gardener-ts/api';
import type { ManagedSeed } from './kinds.js';

/** The jitter settings of `controllers.managedSeed`. */
export interface JitterConfig {
  /** `syncJitterPeriod` in milliseconds: delays are drawn from [0, period). */
  syncJitterPeriodMs: number;
  /** `jitterUpdates`: also delay the reconciliation of a new generation. */
  jitterUpdates: boolean;
}

/** Gardener's `RandomDurationWithMetaDuration`: uniform in [0, period), 0 without a period. */
export function jitter(periodMs: number, random: () => number): number {
  return periodMs > 0 ? Math.floor(random() * periodMs) : 0;
}

const renewRequested = (ms: ManagedSeed) =>
  ms.metadata?.annotations?.[Annotations.GardenerOperation] === Operations.OperationRenewKubeconfig;

/**
 * When an event of a ManagedSeed enqueues it (pure): undefined — not at all (an update whose generation was already
 * observed), 0 — at once (deletions, a deletion timestamp, a new ManagedSeed with generation 1, a `renew-kubeconfig`
 * request), else after a jitter: always for a ManagedSeed seen on start-up whose generation was observed, for a new
 * generation only with `jitterUpdates`.
 */
export function enqueueDelay(
  event: ObjectEvent<ManagedSeed>,
  config: JitterConfig,
  random: () => number,
): number | undefined {
  if (event.type === 'delete' || event.type === 'generic') return 0;
  const ms = event.object;
  const generation = ms.metadata?.generation;
  const generationChanged = generation !== ms.status?.observedGeneration;
  // Immediate, whatever the generation: a CRD-served object gets no new generation for these.
  if (ms.metadata?.deletionTimestamp || generation === 1) return 0;
  if (event.type === 'update' && renewRequested(ms) && !renewRequested(event.oldObject)) return 0;
  const jittered = jitter(config.syncJitterPeriodMs, random);
  if (event.type === 'create') return generationChanged && !config.jitterUpdates ? 0 : jittered;
  if (!generationChanged) return undefined;
  return config.jitterUpdates ? jittered : 0;
}

/**
 * A raw source over the ManagedSeed informer: events passing `predicates` enqueue their ManagedSeed after
 * {@link enqueueDelay}. Pending delays are dropped when the controller stops.
 */
export function jitteredManagedSeedSource(
  informer: Pick<SharedInformer<ManagedSeed>, 'addEventHandler'>,
  options: {
    predicates: Predicate<ManagedSeed>[];
    config: JitterConfig;
    random?: () => number;
  },
): Source {
  const random = options.random ?? Math.random;
  return {
    start(enqueue: Enqueue, signal: AbortSignal) {
      if (signal.aborted) return;
      const timers = new Set<NodeJS.Timeout>();
      const handle = (event: ObjectEvent<ManagedSeed>) => {
        if (options.predicates.some((p) => !p(event))) return;
        const delay = enqueueDelay(event, options.config, random);
        if (delay === undefined) return;
        const request = requestOf(event.object);
        if (delay <= 0) return enqueue(request);
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!signal.aborted) enqueue(request);
        }, delay);
        timer.unref?.();
        timers.add(timer);
      };
      const unregister = informer.addEventHandler({
        onAdd: (object) => handle({ type: 'create', object }),
        onUpdate: (oldObject, object) => handle({ type: 'update', oldObject, object }),
        onDelete: (object) => handle({ type: 'delete', object }),
      });
      signal.addEventListener(
        'abort',
        () => {
          unregister();
          for (const timer of timers) clearTimeout(timer);
          timers.clear();
        },
        { once: true },
      );
    },
  };
}

function requestOf(object: KubernetesObject): Request {
  return { namespace: object.metadata?.namespace ?? '', name: object.metadata?.name ?? '' };
}
