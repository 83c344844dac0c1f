// A watch cache in front of the etcd store, as kube-apiserver's cacher: every object under `/registry/` is kept in
// memory (a MemoryStorage fed by one etcd watch from a full list), and gets, lists and watches are served from it.
//
// Reads stay consistent (kube's ConsistentListFromCache): before a get or list the cache asks etcd for its current
// revision (a count-only range, a linearizable read) and serves only once it has applied every event up to that
// revision. Concurrent reads share one such request: a read waits for the next request that starts after it arrived,
// so it never uses a revision read before it began. A read whose revision the cache does not reach within
// `catchUpMs` (a write outside `/registry/` moved etcd's revision, or the watch is stalled) is served by etcd itself.
// `get(key, { consistent: false })` and `list({ consistent: false })` (resourceVersion "0" in kube, "any" state) skip
// the revision check and never ask etcd while the cache is synced. `list({ minRevision })` (kube's
// resourceVersionMatch=NotOlderThan with an explicit resourceVersion) skips it too and waits, at most `blockMs` (3 s,
// as kube's cacher), for the cache to apply that revision; when it does not, the list comes back at the cache's older
// revision and the caller answers kube's 504 `Too large resource version`. A get with `minRevision` (kube's GET at
// resourceVersion N) waits the same way, then asks etcd. `list({ atRevision })` (resourceVersionMatch=Exact, and the
// pages after the first) is answered from the cache's event history while it reaches back to that revision, else by
// a range read at that revision in etcd.
//
// Watches from a revision the cache still holds in its event history are served from it; older ones (and any while
// the cache is re-syncing) go to an etcd watch of their own, which reports Gone for compacted revisions as before.
// When the cache's etcd watch fails, its watches end with that error (clients list and watch again, as with kube's
// cacher), reads go to etcd, and the cache lists and watches again after a second.
import type { EtcdStorage } from './etcd.js';
import { MemoryStorage } from './memory.js';
import { errorMessage, storageErrors } from './objects.js';
import {
  StorageError,
  type GetOptions,
  type KubeObject,
  type ListOptions,
  type ListResult,
  type Storage,
  type StorageEvent,
  type StoredObject,
  type Watch,
  type WatchOptions,
} from './types.js';

export interface WatchCacheOptions {
  /** Keys under this prefix are cached (default `/registry/`, where the API server keeps everything). */
  prefix?: string;
  /** How many events the cache keeps for watches from an older revision (default 10,000). */
  historySize?: number;
  /** How long a consistent read waits for the cache to reach etcd's revision before asking etcd (default 250 ms). */
  catchUpMs?: number;
  /** How long a list with `minRevision` waits for the cache to reach it (default 3,000 ms, as kube's cacher). */
  blockMs?: number;
  /** Called when the cache's etcd watch fails (before it re-syncs). */
  onResync?: (err: StorageError) => void;
}

/** The cached state at one sync: a MemoryStorage that only the cache's etcd watch writes to. */
class CacheState extends MemoryStorage {
  override readonly kind = 'etcd' as const;

  constructor(historySize: number | undefined, items: StoredObject[], revision: number) {
    super({ historySize });
    this.load(items, revision);
  }

  get appliedRevision(): number {
    return this.revision;
  }

  /** Applies one event of the etcd watch. */
  replay(event: StorageEvent): void {
    const sameRevision = event.revision === this.revision;
    this.replicate(event.key, event.revision, event.object, event.type === 'DELETED');
    // One etcd revision with several events (a multi-key txn) cannot be told apart in the history, which holds one
    // event per revision: forget it, so that watches from before it go to etcd.
    if (sameRevision) this.compact(event.revision + 1);
  }

  end(err: StorageError): void {
    this.failWatches(err);
    void this.close();
  }
}

export class WatchCachedStorage implements Storage {
  readonly kind = 'etcd' as const;
  private readonly prefix: string;
  private readonly catchUpMs: number;
  private readonly blockMs: number;
  private state: CacheState | undefined;
  private sourceWatch: Watch | undefined;
  private closed = false;
  /** The latest revision this store compacted etcd to: watches must start at it or later. */
  private compactedTo = 0;
  private resyncTimer: NodeJS.Timeout | undefined;
  /** Reads waiting for the cache to reach a revision. */
  private waiters = new Set<{ revision: number; done: (reached: boolean) => void }>();
  private readonly revisions: SharedRevisionRead;

  constructor(
    readonly source: EtcdStorage,
    private readonly options: WatchCacheOptions = {},
  ) {
    this.prefix = options.prefix ?? '/registry/';
    this.catchUpMs = options.catchUpMs ?? 250;
    this.blockMs = options.blockMs ?? 3_000;
    this.revisions = new SharedRevisionRead(() => this.source.currentRevision());
  }

  /** Whether reads are served from memory now (false while the cache lists or re-syncs). */
  get synced(): boolean {
    return this.state !== undefined;
  }

  async open(): Promise<void> {
    if (this.closed) throw storageErrors.closed(this.kind);
    await this.source.open();
    if (!this.state) await this.sync();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.resyncTimer);
    this.sourceWatch?.stop();
    this.state?.end(storageErrors.closed(this.kind));
    this.state = undefined;
    this.wake();
    await this.source.close();
  }

  async get(key: string, options: GetOptions = {}): Promise<StoredObject | undefined> {
    this.assertOpen();
    if (!key.startsWith(this.prefix)) return this.source.get(key, options);
    if (options.minRevision !== undefined && options.minRevision > 0) {
      // kube's GET at resourceVersion N: the cache once it has N (waiting like a NotOlderThan list), else etcd, which
      // answers TooLarge itself when it is not there either.
      const reached = await this.reach(options.minRevision, this.blockMs);
      return reached ? reached.get(key) : this.source.get(key, options);
    }
    const state = options.consistent === false ? this.state : await this.current();
    return state ? state.get(key) : this.source.get(key);
  }

  async list(options: ListOptions): Promise<ListResult> {
    this.assertOpen();
    if (!options.prefix.startsWith(this.prefix)) return this.source.list(options);
    if (options.atRevision !== undefined) return this.listAt(options, options.atRevision);
    let state: CacheState | undefined;
    if (options.minRevision !== undefined && options.minRevision > 0) {
      // NotOlderThan: the cache once it has the revision, or as it is after blockMs (the caller sees it is too old).
      state = (await this.reach(options.minRevision, this.blockMs)) ?? this.state;
    } else if (options.consistent === false) {
      state = this.state;
    } else {
      state = await this.current();
    }
    const { prefix, limit, after } = options;
    return state ? state.list({ prefix, limit, after }) : this.source.list({ prefix, limit, after });
  }

  /**
   * Exact: from the cache's history when it reaches back to `revision` (waiting up to blockMs for a revision it has
   * not applied yet), else a range read at that revision in etcd (Gone when compacted, TooLarge when in the future).
   */
  private async listAt(options: ListOptions, revision: number): Promise<ListResult> {
    const { prefix, limit, after } = options;
    const state = await this.reach(revision, this.blockMs);
    if (state) {
      try {
        return await state.list({ prefix, limit, after, atRevision: revision });
      } catch (err) {
        if (!(err instanceof StorageError && err.code === 'Gone')) throw err;
      }
    }
    return this.source.list({ prefix, limit, after, atRevision: revision });
  }

  create(key: string, object: KubeObject): Promise<StoredObject> {
    return this.source.create(key, object);
  }

  update(key: string, object: KubeObject, expectedRevision?: number): Promise<StoredObject> {
    return this.source.update(key, object, expectedRevision);
  }

  delete(key: string, expectedRevision?: number): Promise<StoredObject> {
    return this.source.delete(key, expectedRevision);
  }

  watch(options: WatchOptions, onEvent: (event: StorageEvent) => void, onError: (err: StorageError) => void): Watch {
    this.assertOpen();
    const state = this.state;
    if (!state || !options.prefix.startsWith(this.prefix)) return this.source.watch(options, onEvent, onError);
    // "From now" is etcd's now as this client last saw it (after its own writes), not the cache's, which may lag.
    const afterRevision = options.afterRevision ?? Math.max(this.source.seenRevision, state.appliedRevision);
    try {
      return state.watch({ prefix: options.prefix, afterRevision }, onEvent, onError);
    } catch (err) {
      // Older than the cache's history: etcd may still have it (or says Gone itself, also after its own
      // auto-compaction), unless we compacted it, which we know without asking.
      if (err instanceof StorageError && err.code === 'Gone' && afterRevision + 1 >= this.compactedTo) {
        return this.source.watch({ prefix: options.prefix, afterRevision }, onEvent, onError);
      }
      throw err;
    }
  }

  currentRevision(): Promise<number> {
    this.assertOpen();
    return this.revisions.next();
  }

  /** Compacts etcd's history and the cache's alike. */
  async compact(revision: number): Promise<void> {
    await this.source.compact(revision);
    this.compactedTo = Math.max(this.compactedTo, revision);
    this.state?.compact(revision);
  }

  /** The cache once it has applied etcd's current revision; undefined when etcd must answer instead. */
  private async current(): Promise<CacheState | undefined> {
    return this.reach(await this.revisions.next(), this.catchUpMs);
  }

  /** The cache once it has applied `target`, waiting at most `ms`; undefined when it has not (or is re-syncing). */
  private async reach(target: number, ms: number): Promise<CacheState | undefined> {
    if (this.state && this.state.appliedRevision >= target) return this.state;
    if (!this.state) return undefined;
    const reached = await new Promise<boolean>((resolve) => {
      const waiter = {
        revision: target,
        done: (ok: boolean) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(ok);
        },
      };
      const timer = setTimeout(() => waiter.done(false), ms);
      this.waiters.add(waiter);
    });
    return reached && this.state && this.state.appliedRevision >= target ? this.state : undefined;
  }

  /** Settles the waiting reads the cache has caught up with (all of them once it is gone). */
  private wake(): void {
    if (this.waiters.size === 0) return;
    const applied = this.state?.appliedRevision;
    for (const waiter of this.waiters) {
      if (applied === undefined) waiter.done(false);
      else if (applied >= waiter.revision) waiter.done(true);
    }
  }

  /** Lists everything under the prefix and watches etcd from that list's revision. */
  private async sync(): Promise<void> {
    const { items, revision } = await this.source.list({ prefix: this.prefix });
    if (this.closed) return;
    const state = new CacheState(this.options.historySize, items, revision);
    this.sourceWatch = this.source.watch(
      { prefix: this.prefix, afterRevision: revision },
      (event) => {
        if (this.state !== state) return;
        state.replay(event);
        this.wake();
      },
      (err) => this.lost(state, err),
    );
    this.state = state;
    this.wake();
  }

  /** The cache's etcd watch failed: end the cache's watches, read from etcd, and sync again in a second. */
  private lost(state: CacheState, err: StorageError): void {
    if (this.state !== state || this.closed) return;
    this.state = undefined;
    this.sourceWatch = undefined;
    this.options.onResync?.(err);
    state.end(err);
    this.wake();
    const retry = () => {
      this.resyncTimer = undefined;
      if (this.closed) return;
      this.sync().catch((syncErr: unknown) => {
        this.options.onResync?.(
          new StorageError('Unavailable', `re-syncing the watch cache: ${errorMessage(syncErr)}`),
        );
        this.resyncTimer = setTimeout(retry, 1_000);
      });
    };
    this.resyncTimer = setTimeout(retry, 1_000);
  }

  private assertOpen(): void {
    if (this.closed) throw storageErrors.closed(this.kind);
  }
}

/**
 * etcd's current revision for many concurrent readers with few requests: a caller gets the answer of a request that
 * started after it called (never one already in flight, which might predate a write the caller has seen finish).
 */
class SharedRevisionRead {
  private inFlight: Promise<number> | undefined;
  private queued: Promise<number> | undefined;

  constructor(private readonly read: () => Promise<number>) {}

  next(): Promise<number> {
    if (!this.inFlight) return this.start();
    this.queued ??= this.inFlight
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    return this.queued;
  }

  private start(): Promise<number> {
    const request: Promise<number> = this.read().finally(() => {
      if (this.inFlight === request) this.inFlight = undefined;
    });
    this.inFlight = request;
    return request;
  }
}
