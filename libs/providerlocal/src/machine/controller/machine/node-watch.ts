// The Nodes of the shoots, watched as machine-controller-manager watches its target cluster's Nodes: one informer per
// shoot (control plane namespace), through the shoot access Secret `gardener`, started when a machine of the shoot is
// first looked at and stopped when the namespace has no machine left. Every change of a Node is handed on (the machine
// controller enqueues the Machine whose `node` label names it), and the health check reads the Node from the
// informer's store instead of asking the shoot. A shoot whose list/watch fails counts as unreachable until a live look
// at the Node answers again (a resumed watch may stay quiet); a new Secret (a rotated token) restarts the watch.
import {
  ApiClient,
  Kinds,
  SharedInformer,
  isGone,
  isNotFound,
  type Client,
  type Kind,
  type KubernetesObject,
  type NodeObject,
  type WatchEvent,
} from '@gardener-ts/controller-runtime';
import { ShootAccessSecretName, shootClientFor } from '@gardener-ts/extensions';
import { nodeStateOf } from './health.js';
import type { ShootNodeReadiness } from './reconciler.js';

/** How long the health check waits for a new watch's first list before it asks the shoot itself. */
export const NodeWatchSyncWaitMs = 5_000;

/** An ApiClient that reports whether its lists and watches (the informer's requests) succeed. */
class ObservedApiClient extends ApiClient {
  constructor(
    inner: ApiClient,
    private readonly observe: (err?: unknown) => void,
  ) {
    super(inner.transport, inner.mapper);
  }

  override async listPages<T extends KubernetesObject>(
    kind: Kind<T>,
    opts?: Parameters<ApiClient['listPages']>[1],
  ): Promise<{ items: T[]; resourceVersion: string }> {
    try {
      const result = await super.listPages(kind, opts);
      this.observe();
      return result;
    } catch (err) {
      this.observe(err);
      throw err;
    }
  }

  override async watch<T extends KubernetesObject>(
    kind: Kind<T>,
    opts: Parameters<ApiClient['watch']>[1],
    onEvent: (event: WatchEvent<T>) => void,
  ): Promise<void> {
    try {
      await super.watch(kind, opts, (event) => {
        this.observe();
        onEvent(event);
      });
    } catch (err) {
      // A stopped watch or an expired resourceVersion (a list follows) says nothing about the shoot.
      if (!opts.signal?.aborted && !isGone(err)) this.observe(err);
      throw err;
    }
  }
}

/** The watch of one shoot's Nodes. */
interface ShootWatch {
  informer: SharedInformer<NodeObject>;
  client: ApiClient;
  /** The resourceVersion of the shoot access Secret the client was built from. */
  secretVersion: string;
  /** Since when (ms) and why its list/watch fails, if it does. */
  failing?: { since: number; error: string };
  /** Told when its list/watch fails (a health check waiting for the first list stops waiting). */
  failed: Set<() => void>;
}

/** Options of {@link ShootNodeWatches}. */
export interface ShootNodeWatchesOptions {
  /** A client of the shoot of a namespace (default: through its shoot access Secret). */
  clientFor?: (namespace: string) => Promise<ApiClient>;
  /** Now, ms since the epoch. */
  now?: () => number;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** The Node watches of the shoots of a seed's control plane namespaces. */
export class ShootNodeWatches {
  private readonly watches = new Map<string, Promise<ShootWatch | undefined>>();
  private readonly clientFor: (namespace: string) => Promise<ApiClient>;
  private readonly now: () => number;

  /** `onNode` is told of every add, update and delete of a Node in the shoot of a namespace. */
  constructor(
    private readonly seed: Pick<Client, 'get'>,
    private readonly onNode: (namespace: string, node: NodeObject) => void,
    private readonly options: ShootNodeWatchesOptions = {},
  ) {
    this.clientFor =
      options.clientFor ?? ((namespace) => shootClientFor(this.seed, namespace, { requestTimeoutMs: 10_000 }));
    this.now = options.now ?? Date.now;
  }

  /** The namespaces whose shoot's Nodes are watched. */
  get namespaces(): string[] {
    return [...this.watches.keys()];
  }

  /**
   * The watch of the shoot of `namespace`, started when there is none; undefined when the namespace has no shoot
   * access Secret (no shoot was provisioned there). A Secret that changed since the watch started restarts it.
   */
  async watchOf(namespace: string): Promise<ShootWatch | undefined> {
    const secret = await this.seed
      .get(Kinds.Secret, { namespace, name: ShootAccessSecretName })
      .catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
    if (!secret) {
      await this.stop(namespace);
      return undefined;
    }
    const version = secret.metadata?.resourceVersion ?? '';
    const existing = this.watches.get(namespace);
    // Read and replaced without an await in between: concurrent health checks of one shoot share one watch.
    if (!existing) return this.begin(namespace, version);
    const current = await existing.catch(() => undefined);
    if (this.watches.get(namespace) !== existing) return this.watchOf(namespace); // replaced meanwhile
    if (current && current.secretVersion === version) return current;
    const started = this.begin(namespace, version);
    if (current) await this.close(namespace, current, 'the shoot access Secret changed');
    return started;
  }

  /** Starts the watch of a namespace's shoot and registers it (a failed start is forgotten). */
  private begin(namespace: string, secretVersion: string): Promise<ShootWatch> {
    const started = this.start(namespace, secretVersion);
    this.watches.set(namespace, started);
    started.catch(() => {
      if (this.watches.get(namespace) === started) this.watches.delete(namespace);
    });
    return started;
  }

  private async start(namespace: string, secretVersion: string): Promise<ShootWatch> {
    const inner = await this.clientFor(namespace);
    const watch: ShootWatch = {
      secretVersion,
      client: inner,
      informer: undefined as unknown as SharedInformer<NodeObject>,
      failed: new Set(),
    };
    const observed = new ObservedApiClient(inner, (err) => {
      if (err === undefined) {
        watch.failing = undefined;
        return;
      }
      watch.failing ??= { since: this.now(), error: err instanceof Error ? err.message : String(err) };
      for (const tell of watch.failed) tell();
    });
    watch.informer = new SharedInformer<NodeObject>(observed, Kinds.Node);
    watch.informer.addEventHandler({
      onAdd: (node) => this.onNode(namespace, node),
      onUpdate: (_old, node) => this.onNode(namespace, node),
      onDelete: (node) => this.onNode(namespace, node),
    });
    watch.informer.start();
    this.options.log?.info({ namespace }, 'watching the Nodes of the shoot');
    return watch;
  }

  /** Stops the watch of the shoot of `namespace` (its last machine went, or the namespace did). */
  async stop(namespace: string): Promise<void> {
    const existing = this.watches.get(namespace);
    if (!existing) return;
    this.watches.delete(namespace);
    const watch = await existing.catch(() => undefined);
    if (watch) await this.close(namespace, watch, 'no machine left');
  }

  /** Stops every watch. */
  async stopAll(): Promise<void> {
    await Promise.all(this.namespaces.map((ns) => this.stop(ns)));
  }

  private async close(namespace: string, watch: ShootWatch, why: string): Promise<void> {
    await watch.informer.stop();
    watch.client.close();
    this.options.log?.info({ namespace, why }, 'stopped watching the Nodes of the shoot');
  }

  /** Waits for the first list of a watch, at most {@link NodeWatchSyncWaitMs}; false when it failed first. */
  private async waitForSync(watch: ShootWatch): Promise<boolean> {
    const stop = new AbortController();
    const tell = () => stop.abort();
    watch.failed.add(tell);
    try {
      return await watch.informer.waitForSync(AbortSignal.any([stop.signal, AbortSignal.timeout(NodeWatchSyncWaitMs)]));
    } finally {
      watch.failed.delete(tell);
    }
  }

  /**
   * The health of a machine's Node from the watch (see ./health.ts nodeHealthOf); Ready without a shoot. While the
   * watch has not synced or its requests fail, the Node is looked at live; that rejects when the shoot does not answer.
   */
  readonly readiness: ShootNodeReadiness = async (namespace, nodeName, failureConditions, options) => {
    const watch = await this.watchOf(namespace);
    if (!watch) return { state: 'Ready' };
    const synced = watch.informer.hasSynced || (!watch.failing && (await this.waitForSync(watch)));
    if (synced && !watch.failing) {
      const node = watch.informer.store.get(nodeName);
      return node
        ? nodeStateOf(node.status?.conditions, failureConditions, options?.conditions)
        : { state: 'NotFound' };
    }
    const live = await watch.client.get(Kinds.Node, { name: nodeName }).catch((err: unknown) => {
      if (isNotFound(err)) return undefined;
      throw new Error(`${watch.failing?.error ?? 'the Node watch has not synced'}; ${(err as Error).message}`, {
        cause: err,
      });
    });
    if (synced) watch.failing = undefined; // the shoot answers again; the watch resumed
    return live ? nodeStateOf(live.status?.conditions, failureConditions, options?.conditions) : { state: 'NotFound' };
  };
}
