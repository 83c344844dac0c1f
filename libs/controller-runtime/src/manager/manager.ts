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

/**
 * Leader election, plugged in from outside: resolves when this process leads. (Stage B provides the Lease-based
 * implementation; until then, or without one, the manager leads at once.)
 */
export type LeaderElection = (signal: AbortSignal) => Promise<void>;

export interface ManagerOptions {
  /** The clusters by name (`garden`, `seed`, `runtime`, ...); the first is the default. */
  clusters: Record<string, ClusterOptions | ClusterOptions['kubeConfig']>;
  log?: Logger;
  /** Registry for controller and workqueue metrics. */
  metrics?: Registry;
  /** Readiness checks (`/readyz`); the manager adds one that passes once every cache has synced. */
  ready?: Checks;
  leaderElection?: LeaderElection;
}

export class Manager {
  readonly log: Logger;
  readonly metrics?: Registry;
  private readonly runnables: Runnable[] = [];
  private readonly abort = new AbortController();
  private started = false;
  private stopping?: Promise<void>;
  private elected?: Promise<void>;

  private constructor(
    private readonly clusters: Map<string, Cluster>,
    private readonly options: ManagerOptions,
    log: Logger,
  ) {
    this.log = log;
    this.metrics = options.metrics;
    // Every runnable (controllers, caches) listens on the one stop signal; that is many listeners by design.
    setMaxListeners(0, this.abort.signal);
    options.ready?.add('cache-sync', () => this.hasSynced);
  }

  static async create(options: ManagerOptions): Promise<Manager> {
    const log = options.log ?? createLogger({ name: 'manager', level: 'silent' });
    const entries = Object.entries(options.clusters);
    if (entries.length === 0) throw new Error('a manager needs at least one cluster');
    const clusters = new Map<string, Cluster>();
    for (const [name, c] of entries) {
      const clusterOptions = typeof c === 'string' || !('kubeConfig' in c) ? { kubeConfig: c as ClusterOptions['kubeConfig'] } : c;
      clusters.set(name, await Cluster.create(name, clusterOptions, log));
    }
    return new Manager(clusters, options, log);
  }

  /** A manager wired to a component: its logger, metrics registry, readiness checks and stop signal. */
  static async forComponent(
    ctx: Pick<ComponentContext<unknown>, 'log' | 'metrics' | 'ready' | 'signal'>,
    options: Omit<ManagerOptions, 'log' | 'metrics' | 'ready'>,
  ): Promise<Manager> {
    const mgr = await Manager.create({ ...options, log: ctx.log, metrics: ctx.metrics, ready: ctx.ready });
    ctx.signal.addEventListener('abort', () => void mgr.stop(), { once: true });
    return mgr;
  }

  /** A cluster by name; without a name, the default (first) cluster. */
  cluster(name?: string): Cluster {
    const cluster = name === undefined ? this.clusters.values().next().value : this.clusters.get(name);
    if (!cluster) throw new Error(`no cluster named ${JSON.stringify(name)}; the manager has ${[...this.clusters.keys()].join(', ')}`);
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
    return this.elected !== undefined && !this.abort.signal.aborted && [...this.clusters.values()].every((c) => c.cache.hasSynced);
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
    this.elected = (this.options.leaderElection ?? (async () => undefined))(signal).then(
      () => (signal.aborted ? undefined : this.log.info('Elected leader')),
      (err: unknown) => {
        this.log.error({ err }, 'Leader election failed');
        throw err;
      },
    );
    for (const r of this.runnables) void this.startRunnable(r);
  }

  /** Stops runnables (letting reconciles in progress finish), then caches and clients. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.abort.abort();
      await Promise.all(this.runnables.map((r) => r.stop()));
      await Promise.all([...this.clusters.values()].map((c) => c.stop()));
      this.log.info('Manager stopped');
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
    try {
      await r.start();
    } catch (err) {
      this.log.error({ err }, 'Runnable failed to start');
    }
  }
}
