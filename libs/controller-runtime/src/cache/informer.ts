// A shared informer: lists a kind, then watches it, keeping a store current and telling handlers what changed.
//
// The watch continues from the last resourceVersion seen (bookmarks included) whenever a connection drops. When the
// server no longer has that version (410 Gone), the informer lists again and reconciles its store with the new
// list, so handlers still see every add, update and delete that happened in between.
import type { Logger } from '@gardener-ts/logging';
import { isGone, ApiError } from '../client/api-error.js';
import type { ApiClient, WatchEvent } from '../client/client.js';
import { gvkString, type Kind } from '../client/gvk.js';
import type { Selector } from '../client/options.js';
import type { KubernetesObject } from '../client/types.js';
import { deepFreeze } from './freeze.js';
import { NAMESPACE_INDEX, Store, objectKey, type IndexFunc } from './store.js';

export interface InformerEventHandler<T extends KubernetesObject = KubernetesObject> {
  /** `initialList` is true for objects of the first list. */
  onAdd?(obj: T, initialList: boolean): void;
  /** Also called on every periodic resync, with the same object twice. */
  onUpdate?(oldObj: T, newObj: T): void;
  /** Gets the last state the informer saw. */
  onDelete?(obj: T): void;
}

export interface InformerOptions {
  namespace?: string;
  /**
   * Several namespaces, one list/watch each, merged into one store (controller-runtime's multi-namespace informer).
   * A function is asked once when the informer starts (retried with back-off while it fails); it returns the
   * namespaces, or undefined for all namespaces (e.g. for a cluster-scoped kind). Overrides `namespace`.
   */
  namespaces?: string[] | (() => Promise<string[] | undefined>);
  labelSelector?: Selector;
  fieldSelector?: Selector;
  /** Every so often, handlers get an update for every cached object (0: never). */
  resyncPeriodMs?: number;
  /** Objects per list request. */
  pageSize?: number;
  log?: Logger;
}

const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 30_000;

/** One list/watch of the informer: the whole scope, or one of its namespaces. */
interface Stream {
  namespace?: string;
  resourceVersion: string;
  synced: boolean;
}

export class SharedInformer<T extends KubernetesObject = KubernetesObject> {
  readonly store = new Store<T>();
  private readonly handlers = new Set<InformerEventHandler<T>>();
  private streams: Stream[] = [];
  private synced = false;
  private readonly syncWaiters: (() => void)[] = [];
  private running?: Promise<void>;
  private abort?: AbortController;
  private resyncTimer?: NodeJS.Timeout;
  private relistCount = 0;

  constructor(
    private readonly client: ApiClient,
    readonly kind: Kind<T>,
    private readonly options: InformerOptions = {},
  ) {}

  get hasSynced(): boolean {
    return this.synced;
  }

  /** Lists after the first one (after 410 Gone); for diagnostics and tests. */
  get relists(): number {
    return this.relistCount;
  }

  /** The resourceVersion the next watch starts from. */
  get lastSyncResourceVersion(): string {
    return this.streams.at(-1)?.resourceVersion ?? '';
  }

  /** The namespaces watched once started (undefined: all namespaces, or not resolved yet). */
  get watchedNamespaces(): string[] | undefined {
    const ns = this.streams.map((s) => s.namespace).filter((n): n is string => n !== undefined);
    return ns.length ? ns : undefined;
  }

  /** Registers handlers; after the first sync, `onAdd` is replayed for every cached object. Returns an unregister function. */
  addEventHandler(handler: InformerEventHandler<T>): () => void {
    this.handlers.add(handler);
    if (this.synced) for (const obj of this.store.list()) this.call(() => handler.onAdd?.(obj, true));
    return () => this.handlers.delete(handler);
  }

  addIndex(name: string, fn: IndexFunc<T>): void {
    this.store.addIndex(name, fn);
  }

  /** Starts listing and watching until `stop` (or the signal) ends it. Idempotent. */
  start(signal?: AbortSignal): void {
    if (this.running) return;
    this.abort = new AbortController();
    signal?.addEventListener('abort', () => this.abort?.abort(), { once: true });
    this.running = this.run(this.abort.signal);
    if (this.options.resyncPeriodMs) {
      this.resyncTimer = setInterval(() => this.resync(), this.options.resyncPeriodMs);
      this.resyncTimer.unref();
    }
  }

  async stop(): Promise<void> {
    this.abort?.abort();
    if (this.resyncTimer) clearInterval(this.resyncTimer);
    await this.running;
    for (const waiter of this.syncWaiters.splice(0)) waiter();
  }

  /** Resolves once the first list is in the store; false if the signal aborted first (or the informer stopped). */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    return new Promise((resolve) => {
      const onAbort = () => resolve(false);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.syncWaiters.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.synced);
      });
    });
  }

  private async run(signal: AbortSignal): Promise<void> {
    const namespaces = await this.resolveNamespaces(signal);
    if (namespaces === null) return;
    this.streams = namespaces.map((namespace) => ({ namespace, resourceVersion: '', synced: false }));
    await Promise.all(this.streams.map((stream) => this.runStream(stream, signal)));
  }

  /** One entry per list/watch (undefined: all namespaces); null if stopped first. Empty lists mean all namespaces. */
  private async resolveNamespaces(signal: AbortSignal): Promise<(string | undefined)[] | null> {
    const option = this.options.namespaces;
    const distinct = (ns: string[] | undefined) =>
      ns === undefined || ns.length === 0 || ns.includes('') ? [undefined] : [...new Set(ns)];
    if (option === undefined) return [this.options.namespace];
    if (Array.isArray(option)) return distinct(option);
    let backoff = MIN_BACKOFF_MS;
    while (!signal.aborted) {
      try {
        return distinct(await option());
      } catch (err) {
        if (signal.aborted) break;
        this.options.log?.error(
          { kind: gvkString(this.kind), err: String(err), retryInMs: backoff },
          'Cannot determine the namespaces to watch, retrying',
        );
        await sleep(backoff, signal);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
    return null;
  }

  private async runStream(stream: Stream, signal: AbortSignal): Promise<void> {
    let backoff = MIN_BACKOFF_MS;
    while (!signal.aborted) {
      const started = Date.now();
      let events = 0;
      try {
        if (!stream.resourceVersion) await this.list(stream);
        // Spread watch restarts over time, as client-go does (5-10 minutes). The server ends the watch then; if
        // it does not (a connection that died without a FIN), our own deadline a minute later ends it.
        const timeoutSeconds = 300 + Math.floor(Math.random() * 300);
        await this.client.watch(
          this.kind,
          {
            namespace: stream.namespace,
            labelSelector: this.options.labelSelector,
            fieldSelector: this.options.fieldSelector,
            resourceVersion: stream.resourceVersion,
            allowWatchBookmarks: true,
            timeoutSeconds,
            signal: AbortSignal.any([signal, AbortSignal.timeout((timeoutSeconds + 60) * 1000)]),
          },
          (event) => {
            events++;
            this.onWatchEvent(stream, event);
          },
        );
        backoff = MIN_BACKOFF_MS;
      } catch (err) {
        if (signal.aborted) break;
        if (isGone(err)) {
          // Our resourceVersion is older than the server's history: list again and diff.
          this.options.log?.debug(
            { kind: gvkString(this.kind), namespace: stream.namespace, resourceVersion: stream.resourceVersion },
            'Watch expired, relisting',
          );
          stream.resourceVersion = '';
          continue;
        }
        if (events > 0 || Date.now() - started > 10_000) backoff = MIN_BACKOFF_MS;
        this.options.log?.info(
          { kind: gvkString(this.kind), namespace: stream.namespace, err: String(err), retryInMs: backoff },
          'Watch failed, resuming',
        );
        await sleep(backoff + Math.random() * backoff * 0.2, signal);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  /** Lists everything and brings the store in line with the list, telling handlers what changed. */
  private async list(stream: Stream): Promise<void> {
    const { items, resourceVersion } = await this.client.listPages(this.kind, {
      namespace: stream.namespace,
      labelSelector: this.options.labelSelector,
      fieldSelector: this.options.fieldSelector,
      pageSize: this.options.pageSize,
    });
    const initial = !stream.synced;
    if (!initial) this.relistCount++;
    const seen = new Set<string>();
    for (const item of items) {
      const obj = deepFreeze(item);
      const key = objectKey(obj);
      seen.add(key);
      const old = this.store.get(key);
      if (old && old.metadata?.resourceVersion === obj.metadata?.resourceVersion) continue;
      this.store.upsert(obj);
      this.notify(old, obj, initial);
    }
    // Only this stream's part of the store: other namespaces belong to their own list/watch.
    const ours =
      this.streams.length > 1 && stream.namespace !== undefined
        ? this.store.byIndex(NAMESPACE_INDEX, stream.namespace).map(objectKey)
        : [...this.store.keys()];
    for (const key of ours) {
      if (seen.has(key)) continue;
      const old = this.store.remove(key)!;
      for (const h of this.handlers) this.call(() => h.onDelete?.(old));
    }
    stream.resourceVersion = resourceVersion;
    stream.synced = true;
    if (!this.synced && this.streams.every((s) => s.synced)) {
      this.synced = true;
      for (const waiter of this.syncWaiters.splice(0)) waiter();
    }
  }

  private onWatchEvent(stream: Stream, event: WatchEvent<T>): void {
    if (event.type === 'ERROR') {
      const status = event.object as unknown as { code?: number; reason?: string; message?: string };
      throw new ApiError(status.code ?? 500, status.reason ?? 'InternalError', status.message ?? 'watch error');
    }
    const rv = event.object.metadata?.resourceVersion;
    if (event.type === 'BOOKMARK') {
      if (rv) stream.resourceVersion = rv;
      return;
    }
    const obj = deepFreeze(event.object);
    if (event.type === 'DELETED') {
      this.store.remove(objectKey(obj));
      for (const h of this.handlers) this.call(() => h.onDelete?.(obj));
    } else {
      const old = this.store.upsert(obj);
      this.notify(old, obj, false);
    }
    if (rv) stream.resourceVersion = rv;
  }

  private notify(old: T | undefined, obj: T, initial: boolean): void {
    for (const h of this.handlers) this.call(() => (old ? h.onUpdate?.(old, obj) : h.onAdd?.(obj, initial)));
  }

  private resync(): void {
    if (!this.synced) return;
    for (const obj of this.store.list()) for (const h of this.handlers) this.call(() => h.onUpdate?.(obj, obj));
  }

  /** A failing handler must not break the informer or the other handlers. */
  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.options.log?.error({ err, kind: gvkString(this.kind) }, 'Informer event handler failed');
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
