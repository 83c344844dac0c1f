// The storage contract every backend (memory, file, etcd) implements, and the conformance suite checks.
// Resource versions are one monotonic revision counter per store, as in etcd: every write gets the next one.

/** A stored Kubernetes object as plain JSON. */
export type KubeObject = Record<string, any>;

/**
 * Objects a store hands out (from get, list, create, update, delete and watch events) are deep-frozen and may be
 * shared between callers: copy (structuredClone) before changing one. Objects passed in are never kept by
 * reference: the store copies them.
 */
export interface StoredObject {
  key: string;
  /** The object with `metadata.resourceVersion` set to the revision of its last write. */
  object: KubeObject;
  /** The revision of the last write to this key. */
  revision: number;
}

export type StorageEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StorageEvent {
  type: StorageEventType;
  key: string;
  /** The new object; for DELETED, the object as it was, with `metadata.resourceVersion` = the deletion revision. */
  object: KubeObject;
  /** The previous object for MODIFIED and DELETED (lets watchers filter on selectors of the old state). */
  previous?: KubeObject;
  revision: number;
}

export interface GetOptions {
  /**
   * false: the object may come from a cache not proven up to date (kube's resourceVersion "0"). Default true: the
   * read reflects every write that finished before it started.
   */
  consistent?: boolean;
  /**
   * kube's GET with resourceVersion N: the object as the store holds it at a revision of at least N. A cache waits a
   * bounded time to reach N; a store that does not get there fails with TooLarge (carrying its revision).
   */
  minRevision?: number;
}

export interface ListOptions {
  /** Keys starting with this prefix, in key order. */
  prefix: string;
  /** At most this many items; 0 or undefined means all. */
  limit?: number;
  /** Only keys strictly greater than this (the continuation point of a previous page). */
  after?: string;
  /**
   * false: the list may come from a cache not proven up to date (kube's resourceVersion "0"), without asking the
   * backend. Default true: the list reflects every write that finished before it started.
   */
  consistent?: boolean;
  /**
   * kube's resourceVersionMatch=NotOlderThan: a cache serves the list once it has seen this revision, waiting a
   * bounded time for it. The result's revision may still be lower (the cache never got there): the caller checks it.
   */
  minRevision?: number;
  /**
   * kube's resourceVersionMatch=Exact (and the pages after the first): the keys as they were right after the write
   * at this revision; the result's revision is this one. Fails with Gone when the store no longer keeps that revision
   * (etcd compacted it, or it is older than a memory store's event history), with TooLarge when the store has not
   * got there (a cache waits a bounded time first).
   */
  atRevision?: number;
}

export interface ListResult {
  items: StoredObject[];
  /** The store's revision when the list was read. */
  revision: number;
  /** Set when more items exist after the last returned one. */
  more: boolean;
  /** How many keys remain after this page (when known). */
  remaining?: number;
}

export interface WatchOptions {
  prefix: string;
  /** Deliver events with a revision strictly greater than this; undefined = from now on. */
  afterRevision?: number;
}

export interface Watch {
  stop(): void;
}

export type StorageErrorCode = 'NotFound' | 'AlreadyExists' | 'Conflict' | 'Gone' | 'Unavailable' | 'TooLarge';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    message: string,
    /** For TooLarge: the store's revision when it gave up. */
    readonly currentRevision?: number,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

export interface Storage {
  readonly kind: 'memory' | 'file' | 'etcd';
  /** Opens the store (replays the file, connects to etcd). */
  open(): Promise<void>;
  /** Flushes and closes; pending watches end. */
  close(): Promise<void>;
  get(key: string, options?: GetOptions): Promise<StoredObject | undefined>;
  list(options: ListOptions): Promise<ListResult>;
  /** Fails with AlreadyExists when the key exists. Resolves only once the write is durable. */
  create(key: string, object: KubeObject): Promise<StoredObject>;
  /** Fails with NotFound, or Conflict when `expectedRevision` is given and differs from the key's revision. */
  update(key: string, object: KubeObject, expectedRevision?: number): Promise<StoredObject>;
  /** Fails like update; resolves with the deleted object at its deletion revision. */
  delete(key: string, expectedRevision?: number): Promise<StoredObject>;
  /**
   * Calls `onEvent` for each change under the prefix, in revision order. Fails with Gone (synchronously, or via
   * `onError` later) when `afterRevision` is older than the history the store keeps.
   */
  watch(options: WatchOptions, onEvent: (event: StorageEvent) => void, onError: (err: StorageError) => void): Watch;
  /** The revision of the latest write. */
  currentRevision(): Promise<number>;
  /**
   * Resolves once the write to `key` that is being made durable now (if any) has finished or failed. A store whose
   * conditional writes compare against writes not yet visible to reads (the file store's group commit) has it, so a
   * retry after a Conflict reads the write it lost to instead of the state before it.
   */
  settled?(key: string): Promise<void>;
}
