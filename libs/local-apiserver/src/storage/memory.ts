// The in-memory store: an ordered key index, one revision counter and a bounded event history for watches.
// FileStorage extends it with a write-ahead log: every write is prepared here (checked against the latest state,
// given the next revision), then committed (at once here, after the log record is durable there), then applied.
import {
  atRevision,
  decodeObject,
  encodeObject,
  prefixEnd,
  sealObject,
  storageErrors,
  storedObject,
} from './objects.js';
import { SortedKeys } from './sorted-keys.js';
import type {
  GetOptions,
  KubeObject,
  ListOptions,
  ListResult,
  Storage,
  StorageError,
  StorageEvent,
  StoredObject,
  Watch,
  WatchOptions,
} from './types.js';
import { WatchHandle } from './watchers.js';

export interface MemoryStorageOptions {
  /** How many of the latest events a watch may start from (default 10,000); older revisions get Gone. */
  historySize?: number;
}

/** One write, from the moment it has its revision until it is applied. */
export interface Change {
  key: string;
  revision: number;
  /** The new object (put) or the deleted one at the deletion revision (delete). */
  stored: StoredObject;
  previous?: StoredObject;
  deleted: boolean;
  /** The JSON to make durable for a put (see encodeObject). */
  json?: string;
  /** Settles when the change is applied or has failed (set by `write`, right after `prepare`). */
  done?: Promise<void>;
}

const DEFAULT_HISTORY = 10_000;

export class MemoryStorage implements Storage {
  readonly kind: Storage['kind'] = 'memory';
  /** A memory store is usable at once; a FileStorage only after open(). */
  protected phase: 'new' | 'open' | 'closed' = 'open';
  /** The revision of the last applied write: what readers see. */
  protected revision = 0;
  /** The revision of the last prepared write (ahead of `revision` while writes await their commit). */
  private assigned = 0;
  private readonly objects = new Map<string, StoredObject>();
  private readonly keys = new SortedKeys();
  /** The latest prepared, not yet applied, change of each key. */
  private readonly pending = new Map<string, Change>();
  private readonly history: EventHistory;
  private readonly watchers = new Set<WatchHandle>();

  constructor(options: MemoryStorageOptions = {}) {
    this.history = new EventHistory(Math.max(0, options.historySize ?? DEFAULT_HISTORY));
  }

  async open(): Promise<void> {
    if (this.phase === 'closed') throw storageErrors.closed(this.kind);
  }

  async close(): Promise<void> {
    this.phase = 'closed';
    for (const watcher of this.watchers) watcher.fail(storageErrors.closed(this.kind));
  }

  async get(key: string, options: GetOptions = {}): Promise<StoredObject | undefined> {
    this.assertOpen();
    // Every write a client has seen is applied here, so a revision this store has not reached was never handed out.
    if (options.minRevision !== undefined && options.minRevision > this.revision)
      throw storageErrors.tooLarge(options.minRevision, this.revision);
    return this.objects.get(key);
  }

  async list(options: ListOptions): Promise<ListResult> {
    this.assertOpen();
    if (options.atRevision !== undefined) return this.listAt(options, options.atRevision);
    return this.listLatest(options);
  }

  private listLatest(options: ListOptions): ListResult {
    const { prefix, after } = options;
    const endKey = prefixEnd(prefix);
    const start = after !== undefined && after >= prefix ? this.keys.position(after, true) : this.keys.position(prefix);
    const end = Math.max(start, endKey === undefined ? this.keys.size : this.keys.position(endKey));
    const limit = options.limit && options.limit > 0 ? options.limit : Infinity;
    const stop = Math.min(end, start + limit);
    const items = this.keys.slice(start, stop).map((key) => this.objects.get(key)!);
    return { items, revision: this.revision, more: stop < end, remaining: end - stop };
  }

  /**
   * The range as it was at `revision`: today's keys with the writes after `revision` undone from the event history
   * (the same window a watch may resume from). Gone when the history no longer reaches back that far.
   */
  private listAt(options: ListOptions, revision: number): ListResult {
    if (revision > this.revision) throw storageErrors.tooLarge(revision, this.revision);
    const events = this.history.after(revision, this.revision);
    if (events === undefined) throw storageErrors.gone(revision, this.history.oldest);
    const { prefix } = options;
    const lower = options.after !== undefined && options.after >= prefix ? options.after : undefined;
    // Each key a later write touched, as it was at `revision` (undefined: it did not exist). The oldest later event
    // of a key decides, so walk from the newest back and let older ones overwrite.
    const then = new Map<string, StoredObject | undefined>();
    for (let i = events.length - 1; i >= 0; i--) {
      const { key, type, previous } = events[i];
      if (!key.startsWith(prefix) || (lower !== undefined && key <= lower)) continue;
      then.set(
        key,
        type === 'ADDED' || !previous
          ? undefined
          : storedObject(key, previous, Number(previous.metadata.resourceVersion)),
      );
    }
    if (then.size === 0) return { ...this.listLatest(options), revision };
    const endKey = prefixEnd(prefix);
    const start = lower !== undefined ? this.keys.position(lower, true) : this.keys.position(prefix);
    const end = Math.max(start, endKey === undefined ? this.keys.size : this.keys.position(endKey));
    let total = end - start;
    for (const [key, value] of then) total += (value ? 1 : 0) - (this.objects.has(key) ? 1 : 0);
    // Merge today's keys (read in chunks) with the touched ones, both in key order.
    const changed = [...then.keys()].sort();
    let next = start;
    let chunk: string[] = [];
    let c = 0;
    const peek = (): string | undefined => {
      if (c >= chunk.length && next < end) {
        chunk = this.keys.slice(next, Math.min(end, next + 256));
        next += chunk.length;
        c = 0;
      }
      return c < chunk.length ? chunk[c] : undefined;
    };
    const limit = options.limit && options.limit > 0 ? options.limit : Infinity;
    const items: StoredObject[] = [];
    for (let j = 0; items.length < limit;) {
      const today = peek();
      const touched = j < changed.length ? changed[j] : undefined;
      if (today === undefined && touched === undefined) break;
      if (touched === undefined || (today !== undefined && today < touched)) {
        items.push(this.objects.get(today!)!);
        c++;
        continue;
      }
      if (today === touched) c++;
      j++;
      const old = then.get(touched);
      if (old) items.push(old);
    }
    const remaining = total - items.length;
    return { items, revision, more: remaining > 0, remaining };
  }

  async create(key: string, object: KubeObject): Promise<StoredObject> {
    return this.write(this.prepare(key, { json: encodeObject(object), mustExist: false }));
  }

  async update(key: string, object: KubeObject, expectedRevision?: number): Promise<StoredObject> {
    return this.write(this.prepare(key, { json: encodeObject(object), mustExist: true, expectedRevision }));
  }

  async delete(key: string, expectedRevision?: number): Promise<StoredObject> {
    return this.write(this.prepare(key, { mustExist: true, expectedRevision }));
  }

  watch(options: WatchOptions, onEvent: (event: StorageEvent) => void, onError: (err: StorageError) => void): Watch {
    this.assertOpen();
    // A revision in the future is accepted: its watch delivers nothing until the store gets past it.
    const after = Math.max(0, options.afterRevision ?? this.revision);
    const replay = this.history.after(after, this.revision);
    if (replay === undefined) throw storageErrors.gone(after, this.history.oldest);
    const watcher = new WatchHandle(options.prefix, after, onEvent, onError, (w) => this.watchers.delete(w));
    this.watchers.add(watcher);
    watcher.replay(replay.filter((event) => event.key.startsWith(options.prefix)));
    return watcher;
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return this.revision;
  }

  /** Forgets the events before `revision`, as etcd's compaction does: a watch may then start at `revision - 1`. */
  compact(revision: number): void {
    this.history.forget(revision);
  }

  /** Makes a prepared change durable; `apply` must follow for every change, in revision order. */
  protected commit(change: Change): Promise<void> | void {
    this.apply(change);
  }

  /** Makes a change visible to readers and watchers. */
  protected apply(change: Change): void {
    const { key, stored, previous, revision, deleted } = change;
    if (deleted) {
      this.objects.delete(key);
      this.keys.delete(key);
    } else {
      if (!this.objects.has(key)) this.keys.insert(key);
      this.objects.set(key, stored);
    }
    this.revision = revision;
    this.assigned = Math.max(this.assigned, revision);
    if (this.pending.get(key) === change) this.pending.delete(key);
    const event: StorageEvent = Object.freeze({
      type: deleted ? 'DELETED' : previous ? 'MODIFIED' : 'ADDED',
      key,
      object: stored.object,
      ...(previous ? { previous: previous.object } : {}),
      revision,
    });
    this.history.add(event);
    for (const watcher of this.watchers) watcher.deliver(event);
  }

  /**
   * Applies a write made elsewhere and already sealed (a watch cache's source): `object` at `revision`, for a delete
   * the deleted object at the deletion revision. Calls must come in revision order.
   */
  protected replicate(key: string, revision: number, object: KubeObject, deleted: boolean): void {
    const previous = this.objects.get(key);
    if (deleted && previous === undefined) {
      this.revision = this.assigned = Math.max(this.revision, revision);
      return;
    }
    this.apply({ key, revision, stored: storedObject(key, object, revision), previous, deleted });
  }

  /** Ends every watch with `err` (the store stays open). */
  protected failWatches(err: StorageError): void {
    for (const watcher of this.watchers) watcher.fail(err);
  }

  /** Applies a write read back from durable storage (a put when `object` is given, else a delete). */
  protected restore(key: string, revision: number, object: KubeObject | undefined): void {
    const previous = this.objects.get(key);
    if (object === undefined && previous === undefined) {
      this.revision = this.assigned = revision;
      return;
    }
    const stored = object
      ? storedObject(key, sealObject(object, revision), revision)
      : storedObject(key, atRevision(previous!.object, revision), revision);
    this.apply({ key, revision, stored, previous, deleted: object === undefined });
  }

  /** Replaces the whole state with a snapshot's (items in key order); the history starts after `revision`. */
  protected load(items: StoredObject[], revision: number): void {
    this.objects.clear();
    for (const item of items) {
      this.keys.insert(item.key);
      this.objects.set(item.key, item);
    }
    this.revision = this.assigned = revision;
    this.history.reset(revision);
  }

  /** All objects in key order. */
  protected snapshot(): StoredObject[] {
    return this.keys.slice(0, this.keys.size).map((key) => this.objects.get(key)!);
  }

  protected assertOpen(): void {
    if (this.phase !== 'open') throw storageErrors.closed(this.kind);
  }

  private prepare(key: string, write: { json?: string; mustExist: boolean; expectedRevision?: number }): Change {
    this.assertOpen();
    const pending = this.pending.get(key);
    const current = pending ? (pending.deleted ? undefined : pending.stored) : this.objects.get(key);
    if (!write.mustExist && current) throw storageErrors.alreadyExists(key);
    if (write.mustExist && !current) throw storageErrors.notFound(key);
    const expected = write.expectedRevision;
    if (current && expected !== undefined && expected !== current.revision)
      throw storageErrors.conflict(key, expected, current.revision);
    const revision = ++this.assigned;
    const object =
      write.json === undefined ? atRevision(current!.object, revision) : decodeObject(write.json, revision);
    const stored = storedObject(key, object, revision);
    const change: Change = {
      key,
      revision,
      stored,
      previous: current,
      deleted: write.json === undefined,
      json: write.json,
    };
    this.pending.set(key, change);
    return change;
  }

  async settled(key: string): Promise<void> {
    await this.pending.get(key)?.done?.catch(() => undefined);
  }

  private async write(change: Change): Promise<StoredObject> {
    const committed = this.commit(change);
    if (committed) change.done = committed;
    await committed;
    return change.stored;
  }
}

/** The latest events, one per revision and without gaps, in a ring indexed by revision. */
class EventHistory {
  private readonly ring: StorageEvent[];
  /** The oldest kept revision; the history is empty while first > last. */
  private first = 1;
  private last = 0;

  constructor(private readonly capacity: number) {
    this.ring = new Array<StorageEvent>(capacity);
  }

  get oldest(): number {
    return this.first;
  }

  add(event: StorageEvent): void {
    if (event.revision !== this.last + 1) this.first = event.revision;
    this.last = event.revision;
    if (this.capacity === 0) this.first = this.last + 1;
    else this.ring[event.revision % this.capacity] = event;
    if (this.last - this.first >= this.capacity) this.first = this.last - this.capacity + 1;
  }

  /** Keeps nothing older than `revision`. */
  forget(revision: number): void {
    this.first = Math.max(this.first, Math.min(revision, this.last + 1));
  }

  /** Starts empty, the next event being `revision + 1`. */
  reset(revision: number): void {
    this.first = revision + 1;
    this.last = revision;
  }

  /** The events after `revision` up to `current`; undefined when some are no longer kept. */
  after(revision: number, current: number): StorageEvent[] | undefined {
    if (revision >= current) return [];
    if (revision + 1 < this.first || this.last < current) return undefined;
    const events: StorageEvent[] = [];
    for (let r = revision + 1; r <= current; r++) events.push(this.ring[r % this.capacity]);
    return events;
  }
}
