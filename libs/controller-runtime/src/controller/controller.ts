// A controller: watches feed a deduplicating queue; workers take keys and call the reconciler, one worker per key.
import type { Registry } from 'prom-client';
import { createLogger, type Logger } from '@gardener-ts/logging';
import type { SharedInformer } from '../cache/informer.js';
import type { KubernetesObject } from '../client/types.js';
import type { EventHandler } from '../handler/handlers.js';
import type { ObjectEvent } from '../predicate/event.js';
import type { Predicate } from '../predicate/predicates.js';
import type { RateLimiter } from '../queue/rate-limiter.js';
import { WorkQueue } from '../queue/work-queue.js';
import { controllerMetricFamilies, type ReconcileResult as ResultLabel } from './metrics.js';
import type { ReconcileFunc, Reconciler } from './reconciler.js';
import { parseRequestKey, requestKey } from './request.js';
import type { Source } from './source.js';

export interface ControllerOptions {
  /** Workers reconciling in parallel (distinct keys only). Default 1. */
  maxConcurrentReconciles?: number;
  rateLimiter?: RateLimiter;
  /** Start only once this instance leads (true by default, as in controller-runtime). */
  needLeaderElection?: boolean;
  /** Kind reconciled, for log lines (`Widget`). */
  kind?: string;
  log?: Logger;
  metrics?: Registry;
}

/** One watched event stream: an informer, what to enqueue for its events, and which events to let through. */
export interface Watch<T extends KubernetesObject = KubernetesObject> {
  informer: SharedInformer<T>;
  handler: EventHandler<T>;
  predicates?: Predicate<T>[];
}

export class Controller {
  readonly queue: WorkQueue;
  readonly needLeaderElection: boolean;
  private readonly reconcileFunc: ReconcileFunc;
  private readonly watches: Watch<any>[] = [];
  private readonly rawSources: Source[] = [];
  private readonly unregister: (() => void)[] = [];
  private readonly workers: Promise<void>[] = [];
  private readonly abort = new AbortController();
  private readonly metrics?: ReturnType<typeof controllerMetricFamilies>;
  private readonly log: Logger;
  private started = false;

  constructor(
    readonly name: string,
    reconciler: Reconciler,
    private readonly options: ControllerOptions = {},
  ) {
    if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name))
      throw new Error(`controller name ${JSON.stringify(name)} must be a lower-case DNS label-like name`);
    const workers = options.maxConcurrentReconciles ?? 1;
    if (!Number.isInteger(workers) || workers < 1)
      throw new Error(`maxConcurrentReconciles must be a positive integer, got ${workers}`);
    this.reconcileFunc = typeof reconciler === 'function' ? reconciler : reconciler.reconcile.bind(reconciler);
    this.queue = new WorkQueue({ name, metrics: options.metrics, rateLimiter: options.rateLimiter });
    this.needLeaderElection = options.needLeaderElection ?? true;
    this.log = (options.log ?? createLogger({ name: 'controller-runtime', level: 'silent' })).child({
      controller: name,
    });
    if (options.metrics) this.metrics = controllerMetricFamilies(options.metrics);
  }

  /** Adds an event source; only before start. */
  watch<T extends KubernetesObject>(watch: Watch<T>): void {
    if (this.started) throw new Error(`controller ${this.name}: add watches before start`);
    this.watches.push(watch);
  }

  /** Adds a raw source (requests pushed by a NATS subscriber, a timer, ...); only before start. */
  watchRaw(source: Source): void {
    if (this.started) throw new Error(`controller ${this.name}: add sources before start`);
    this.rawSources.push(source);
  }

  /** Registers the watches' handlers and starts the workers. Informers must be running (the manager starts them). */
  start(): void {
    if (this.started) return;
    this.started = true;
    const workers = this.options.maxConcurrentReconciles ?? 1;
    this.metrics?.maxConcurrent.set({ controller: this.name }, workers);
    this.metrics?.activeWorkers.set({ controller: this.name }, 0);
    for (const w of this.watches) {
      const enqueue = (event: ObjectEvent<KubernetesObject>) => {
        if (w.predicates?.some((p) => !p(event))) return;
        for (const req of w.handler(event)) if (req.name) this.queue.add(requestKey(req));
      };
      this.unregister.push(
        w.informer.addEventHandler({
          onAdd: (object) => enqueue({ type: 'create', object }),
          onUpdate: (oldObject, object) => enqueue({ type: 'update', oldObject, object }),
          onDelete: (object) => enqueue({ type: 'delete', object }),
        }),
      );
    }
    const enqueueRequest = (req: { namespace: string; name: string }) => {
      if (req.name && !this.abort.signal.aborted) this.queue.add(requestKey(req));
    };
    for (const source of this.rawSources) {
      try {
        Promise.resolve(source.start(enqueueRequest, this.abort.signal)).catch((err: unknown) =>
          this.log.error({ err }, 'Raw source failed to start'),
        );
      } catch (err) {
        this.log.error({ err }, 'Raw source failed to start');
      }
    }
    for (let i = 0; i < workers; i++) this.workers.push(this.work());
    this.log.info({ workers }, 'Started controller');
  }

  /** Stops taking keys and waits for the reconciles in progress to finish. */
  async stop(): Promise<void> {
    for (const unregister of this.unregister.splice(0)) unregister();
    this.abort.abort();
    await this.queue.shutdown();
    await Promise.all(this.workers);
  }

  private async work(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      await this.reconcileOne(key);
    }
  }

  private async reconcileOne(key: string): Promise<void> {
    const request = parseRequestKey(key);
    const labels = { controller: this.name };
    const started = performance.now();
    const log = this.log.child({
      ...(this.options.kind ? { kind: this.options.kind } : {}),
      namespace: request.namespace,
      name: request.name,
    });
    this.metrics?.activeWorkers.inc(labels);
    let result: ResultLabel;
    try {
      const outcome = await this.reconcileFunc(request, { signal: this.abort.signal, log, controller: this.name });
      if (outcome?.requeueAfter !== undefined && outcome.requeueAfter > 0) {
        this.queue.forget(key);
        this.queue.addAfter(key, outcome.requeueAfter);
        result = 'requeue_after';
      } else if (outcome?.requeue) {
        this.queue.addRateLimited(key);
        result = 'requeue';
      } else {
        this.queue.forget(key);
        result = 'success';
      }
    } catch (err) {
      this.queue.addRateLimited(key);
      result = 'error';
      this.metrics?.errors.inc(labels);
      log.error({ err, retries: this.queue.numRequeues(key) }, 'Reconciler error');
    } finally {
      this.queue.done(key);
      this.metrics?.activeWorkers.dec(labels);
    }
    this.metrics?.total.inc({ controller: this.name, result });
    this.metrics?.time.observe(labels, (performance.now() - started) / 1000);
  }
}
