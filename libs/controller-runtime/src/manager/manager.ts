// The manager runs everything of a process as one: clusters (clients and caches) and controllers. It starts the
// caches, waits for them to sync, starts the controllers (those that need leadership once elected), and stops it
// all together, letting reconciles in progress finish.
import { setMaxListeners } from 'node:events';
import type { Registry } from 'prom-client';
import { createLogger, type Logger } from '@gardener-ts/logging';
import type { Checks } from '../component/health.js';
import type { ComponentContext } from '../component/run-component.js';
import { Cluster, type ClusterOptions } from './cluster.js';

/** Something the manager starts and stops: a controller, or any other long-running piece. */
export interface Runnable {
  /** Runnables that need leadership start only after `leaderElection` resolves. */
  readonly needLeaderElection: boolean;
  start(): void | Promise<void>;
  stop(): Promise<void>;
}

/** What the manager tells a leader election about itself. */
export interface LeaderElectionHooks {
  /** Call when leadership is lost (not released on a stop): the manager stops itself, skipping the grace period. */
  onLost?: () => void;
  /** Call once leading, with a promise that settles when leadership has ended (the Lease released after a stop). */
  onLeading?: (ended: Promise<void>) => void;
}

/**
 * Leader election, plugged in from outside (a `LeaderElector`'s `run`): resolves when this process leads. Its
 * `signal` aborts only after the manager's runnables have stopped, so the Lease is held until reconciles in progress
 * have finished (controller-runtime's order). Without one, the manager leads at once.
 */
export type LeaderElection = (signal: AbortSignal, hooks: LeaderElectionHooks) => Promise<void>;

export interface ManagerOptions {
  /** The clusters by name (`garden`, `seed`, `runtime`, ...); the first is the default. */
  clusters: Record<string, ClusterOptions | ClusterOptions['kubeConfig']>;
  log?: Logger;
  /** Registry for controller and workqueue metrics. */
  metrics?: Registry;
  /** Readiness checks (`/readyz`); the manager adds one that passes once every cache has synced. */
  ready?: Checks;
  leaderElection?: LeaderElection;
  /**
   * How long `stop` waits for runnables (reconciles in progress) to finish before it stops the caches and releases
   * leadership anyway (controller-runtime's GracefulShutdownTimeout). Default 30 s; 0 skips waiting; negative waits
   * without limit. Losing leadership always skips waiting.
   */
  gracefulShutdownTimeoutMs?: number;
  /** Client-side rate limit of every cluster's API client that does not set its own (client-go's QPS and burst). */
  rateLimit?: ClusterOptions['rateLimit'];
}

export class Manager {
  readonly log: Logger;
  readonly metrics?: Registry;
  private readonly runnables: Runnable[] = [];
  private readonly abort = new AbortController();
  /** Aborted last, once everything else has stopped: ends leader election (releasing the Lease). */
  private readonly leaderAbort = new AbortController();
  private started = false;
  private stopping?: Promise<void>;
  private elected?: Promise<void>;
  private leadershipEnded?: Promise<void>;
  private failure?: Error;
  private readonly stopped: Promise<void>;
  private markStopped!: () => void;

  private constructor(
    private readonly clusters: Map<string, Cluster>,
    private readonly options: ManagerOptions,
    log: Logger,
  ) {
    this.log = log;
    this.metrics = options.metrics;
    // Every runnable (controllers, caches) listens on the one stop signal; that is many listeners by design.
    setMaxListeners(0, this.abort.signal);
    this.stopped = new Promise((resolve) => (this.markStopped = resolve));
    options.ready?.add('cache-sync', () => this.hasSynced);
  }

  static async create(options: ManagerOptions): Promise<Manager> {
    const log = options.log ?? createLogger({ name: 'manager', level: 'silent' });
    const entries = Object.entries(options.clusters);
    if (entries.length === 0) throw new Error('a manager needs at least one cluster');
    const clusters = new Map<string, Cluster>();
    for (const [name, c] of entries) {
      const clusterOptions: ClusterOptions =
        typeof c === 'string' || !('kubeConfig' in c) ? { kubeConfig: c as ClusterOptions['kubeConfig'] } : c;
      clusters.set(
        name,
        await Cluster.create(
          name,
          { ...clusterOptions, rateLimit: clusterOptions.rateLimit ?? options.rateLimit },
          log,
        ),
      );
    }
    return new Manager(clusters, options, log);
  }

  /**
   * A manager wired to a component: its logger, metrics registry, readiness checks and stop signal. When the manager
   * stops itself (leadership lost), the component fails: it shuts down and exits 1, as a controller-runtime process does.
   */
  static async forComponent(
    ctx: Pick<ComponentContext<unknown>, 'log' | 'metrics' | 'ready' | 'signal'> &
      Partial<Pick<ComponentContext<unknown>, 'fail'>>,
    options: Omit<ManagerOptions, 'log' | 'metrics' | 'ready'>,
  ): Promise<Manager> {
    const mgr = await Manager.create({ ...options, log: ctx.log, metrics: ctx.metrics, ready: ctx.ready });
    ctx.signal.addEventListener('abort', () => void mgr.stop(), { once: true });
    mgr.done().catch((err: unknown) => {
      if (!ctx.signal.aborted) ctx.fail?.(err);
    });
    return mgr;
  }

  /** A cluster by name; without a name, the default (first) cluster. */
  cluster(name?: string): Cluster {
    const cluster = name === undefined ? this.clusters.values().next().value : this.clusters.get(name);
    if (!cluster)
      throw new Error(
        `no cluster named ${JSON.stringify(name)}; the manager has ${[...this.clusters.keys()].join(', ')}`,
      );
    return cluster;
  }

  get clusterNames(): string[] {
    return [...this.clusters.keys()];
  }

  /** Adds a runnable (controllers add themselves); runnables added after start start at once. */
  add(runnable: Runnable): void {
    if (this.stopping) throw new Error('manager is stopping');
    this.runnables.push(runnable);
    if (this.started) void this.startRunnable(runnable);
  }

  /** True once started and every informer (including ones created since) has synced. */
  get hasSynced(): boolean {
    return (
      this.elected !== undefined &&
      !this.abort.signal.aborted &&
      [...this.clusters.values()].every((c) => c.cache.hasSynced)
    );
  }

  /**
   * Starts caches, waits until they have synced, then starts the runnables (the ones that need leadership once
   * elected, without waiting for that here). Resolves once that is done; `stop` ends it all.
   */
  async start(): Promise<void> {
    if (this.started) throw new Error('manager already started');
    this.started = true;
    const { signal } = this.abort;
    for (const cluster of this.clusters.values()) cluster.start(signal);
    for (const cluster of this.clusters.values()) {
      if (!(await cluster.cache.waitForSync(signal))) return;
    }
    this.log.info({ clusters: this.clusterNames }, 'Caches synced');
    const hooks: LeaderElectionHooks = {
      onLost: () => {
        this.log.error('Leader election lost');
        this.failure ??= new Error('leader election lost');
        void this.shutdown(0);
      },
      onLeading: (ended) => {
        this.leadershipEnded = ended.catch(() => undefined);
      },
    };
    this.elected = (this.options.leaderElection ?? (async () => undefined))(this.leaderAbort.signal, hooks).then(
      () => (signal.aborted ? undefined : this.log.info('Elected leader')),
      (err: unknown) => {
        this.log.error({ err }, 'Leader election failed');
        throw err;
      },
    );
    for (const r of this.runnables) void this.startRunnable(r);
  }

  /**
   * Stops taking new work, waits (up to the graceful shutdown timeout) for reconciles in progress to finish, stops
   * caches and clients, and only then ends leader election (the Lease is released after the last reconcile).
   */
  stop(): Promise<void> {
    return this.shutdown(this.options.gracefulShutdownTimeoutMs ?? 30_000);
  }

  /**
   * Settles once the manager has stopped: resolves after a requested stop, rejects when it stopped itself because
   * leadership was lost (`leader election lost`, as controller-runtime's Start returns) or the grace period ran out.
   */
  async done(): Promise<void> {
    await this.stopped;
    if (this.failure) throw this.failure;
  }

  private shutdown(graceMs: number): Promise<void> {
    this.stopping ??= (async () => {
      this.abort.abort();
      const runnables = Promise.all(
        this.runnables.map((r) => r.stop().catch((err: unknown) => this.log.error({ err }, 'Runnable failed to stop'))),
      );
      if (graceMs < 0) await runnables;
      else if (graceMs > 0 && !(await settlesWithin(runnables, graceMs))) {
        this.failure ??= new Error(`failed waiting for all runnables to end within grace period of ${graceMs / 1000}s`);
        this.log.error({ gracefulShutdownTimeoutMs: graceMs }, 'Runnables did not finish within the grace period');
      }
      await Promise.all([...this.clusters.values()].map((c) => c.stop()));
      // Last: release leadership (controller-runtime cancels leader election after the runnables have ended).
      this.leaderAbort.abort();
      await this.leadershipEnded;
      this.log.info('Manager stopped');
      this.markStopped();
    })();
    return this.stopping;
  }

  private async startRunnable(r: Runnable): Promise<void> {
    if (r.needLeaderElection) {
      try {
        await this.elected;
      } catch {
        return;
      }
    }
    if (this.abort.signal.aborted || !this.elected) return;
    if (r.needLeaderElection && this.leaderAbort.signal.aborted) return;
    try {
      await r.start();
    } catch (err) {
      this.log.error({ err }, 'Runnable failed to start');
    }
  }
}

function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void work.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
