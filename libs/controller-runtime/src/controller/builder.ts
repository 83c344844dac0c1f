// The fluent way to define a controller:
//
//   controllerFor(mgr, 'widget')
//     .for(WidgetKind, { predicates: [generationChanged] })
//     .owns(ConfigMapKind)
//     .watches(SecretKind, (secret) => [...requests])
//     .watchesRawSource(wakeUps)                       // channelSource() fed by a NATS subscriber, timerSource(...)
//     .withOptions({ maxConcurrentReconciles: 4 })
//     .complete(reconciler);
//
// Informers are created at once, so the manager waits for their sync before it reports ready and starts controllers.
import type { Kind } from '../client/gvk.js';
import type { KubernetesObject } from '../client/types.js';
import { enqueueForObject, enqueueForOwner, enqueueMapped, type EventHandler } from '../handler/handlers.js';
import type { Manager } from '../manager/manager.js';
import type { Predicate } from '../predicate/predicates.js';
import { Controller, type ControllerOptions } from './controller.js';
import type { Reconciler } from './reconciler.js';
import type { Request } from './request.js';
import type { Source } from './source.js';

export interface WatchOptions<T extends KubernetesObject> {
  predicates?: Predicate<T>[];
  /** Which of the manager's clusters to watch; the controller's cluster by default. */
  cluster?: string;
}

export interface OwnsOptions<T extends KubernetesObject> extends WatchOptions<T> {
  /** Also enqueue owners that are not the controller owner (`controller: true`). Default false. */
  anyOwner?: boolean;
}

interface PendingWatch {
  kind: Kind<any>;
  handler: (ownerNamespaced: boolean) => EventHandler<any>;
  options: WatchOptions<any>;
  /** The handler needs the reconciled kind (`owns`). */
  needsFor?: boolean;
}

export class ControllerBuilder {
  private forKind?: Kind<any>;
  private readonly pending: PendingWatch[] = [];
  private readonly rawSources: Source[] = [];
  private readonly globalPredicates: Predicate<any>[] = [];
  private options: Omit<ControllerOptions, 'log' | 'metrics' | 'kind'> = {};
  private clusterName?: string;

  constructor(
    private readonly mgr: Manager,
    private readonly name: string,
  ) {}

  /** The kind this controller reconciles: its events enqueue the object itself. Exactly once. */
  for<T extends KubernetesObject>(kind: Kind<T>, options: WatchOptions<T> = {}): this {
    if (this.forKind) throw new Error(`controller ${this.name}: for() may be called once`);
    this.forKind = kind;
    this.pending.push({ kind, handler: () => enqueueForObject(), options });
    return this;
  }

  /** Objects of `kind` owned by the reconciled kind: their events enqueue their controller owner. */
  owns<T extends KubernetesObject>(kind: Kind<T>, options: OwnsOptions<T> = {}): this {
    this.pending.push({
      kind,
      handler: (ownerNamespaced) =>
        enqueueForOwner(this.requireFor(), { onlyController: !options.anyOwner, ownerNamespaced }),
      options,
      needsFor: true,
    });
    return this;
  }

  /** Any kind: `map` says which requests its events enqueue. */
  watches<T extends KubernetesObject>(kind: Kind<T>, map: (obj: T) => Request[], options: WatchOptions<T> = {}): this {
    this.pending.push({ kind, handler: () => enqueueMapped(map), options });
    return this;
  }

  /**
   * A raw source (controller-runtime's `WatchesRawSource`): requests pushed from outside the caches — a NATS
   * subscription through `channelSource()`, a periodic `timerSource()`. Global predicates do not apply to it.
   */
  watchesRawSource(source: Source): this {
    this.rawSources.push(source);
    return this;
  }

  /** Predicates every event of every watch must pass. */
  withPredicates(...predicates: Predicate<any>[]): this {
    this.globalPredicates.push(...predicates);
    return this;
  }

  withOptions(options: Omit<ControllerOptions, 'log' | 'metrics' | 'kind'>): this {
    this.options = { ...this.options, ...options };
    return this;
  }

  /** The cluster whose cache the watches use by default (the manager's default cluster otherwise). */
  inCluster(name: string): this {
    this.mgr.cluster(name);
    this.clusterName = name;
    return this;
  }

  /**
   * Builds the controller and adds it to the manager, which starts it. A controller without `for()` is allowed when
   * raw sources and mapped watches are its only triggers (a periodic job such as a garbage collector, or one object
   * kept in step with others); `owns()` needs it.
   */
  complete(reconciler: Reconciler): Controller {
    const triggered = this.pending.length > 0 || this.rawSources.length > 0;
    const forKind =
      this.forKind ?? (triggered && !this.pending.some((p) => p.needsFor) ? undefined : this.requireFor());
    const controller = new Controller(this.name, reconciler, {
      ...this.options,
      ...(forKind ? { kind: forKind.kind } : {}),
      log: this.mgr.log,
      metrics: this.mgr.metrics,
    });
    const forCluster = this.mgr.cluster(this.clusterName);
    const sources = this.pending.map((w) => ({
      ...w,
      informer: this.mgr.cluster(w.options.cluster ?? this.clusterName).cache.informerFor(w.kind),
    }));
    this.mgr.add({
      needLeaderElection: controller.needLeaderElection,
      start: async () => {
        const ownerNamespaced = forKind ? (await forCluster.api.mapping(forKind)).namespaced : true;
        for (const s of sources) {
          controller.watch({
            informer: s.informer,
            handler: s.handler(ownerNamespaced),
            predicates: [...this.globalPredicates, ...(s.options.predicates ?? [])],
          });
        }
        for (const source of this.rawSources) controller.watchRaw(source);
        controller.start();
      },
      stop: () => controller.stop(),
    });
    return controller;
  }

  private requireFor(): Kind<any> {
    if (!this.forKind) throw new Error(`controller ${this.name}: call for(kind) first`);
    return this.forKind;
  }
}

/** Starts defining a controller named `name` (used in metrics and logs) in `mgr`. */
export function controllerFor(mgr: Manager, name: string): ControllerBuilder {
  return new ControllerBuilder(mgr, name);
}
