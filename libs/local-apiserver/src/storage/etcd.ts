// Storage in a real etcd v3, as kube-apiserver keeps it: the revision is etcd's (an object's resourceVersion is its
// key's mod revision, a list's revision the response header's), creates are a txn on `create_revision == 0`,
// updates and deletes with an expected revision a txn on `mod_revision == expected`, and a watch is an etcd watch
// from `afterRevision + 1` with previous values (a compacted start revision becomes Gone). Values are the objects'
// JSON without resourceVersion.
//
// Client: the `etcd3` package (gRPC over HTTP/2 through @grpc/grpc-js) rather than etcd's JSON gateway over fetch.
// One HTTP/2 connection multiplexes every call and every watch, so concurrent writes are not capped by a pool of
// HTTP/1.1 sockets; its watch manager resubscribes after a lost connection from the last revision seen, and maps
// server-side cancellation to an 'error' event. The gateway would need its own chunked-JSON stream parsing,
// reconnects and base64 keys, and its paths differ between etcd 3.3 (/v3beta) and 3.4+ (/v3).
// Caveat: etcd3 retries calls that failed with a transient error (at most three times), so a create whose reply was
// lost on a dying connection can come back as AlreadyExists; kube-apiserver's client behaves alike.
// etcd3 bug worked around here: when etcd cancels a watch (its start revision is compacted), the client drops the
// watcher and emits 'error'; a later `watcher.cancel()` on it still sends a cancel request, and etcd's reply for an
// id the client no longer knows makes its stream handler throw "Failed to find watcher for IWatchResponse" (an
// unhandled rejection) and leaves the stream's other watchers and new ones stuck. So a watcher etcd has cancelled is
// never cancelled again; and for the race where we cancel a watch just as etcd cancels it (our request crosses its
// reply), the client's stream handler is patched to drop a cancellation reply for a watcher it no longer knows.
import type {
  Etcd3,
  ICompare,
  IEvent,
  IKeyValue,
  IRequestOp,
  IResponseHeader,
  ITxnResponse,
  IWatchResponse,
  KVClient,
  Watcher,
} from 'etcd3';
import { atRevision, decodeObject, encodeObject, errorMessage, storageErrors, storedObject } from './objects.js';
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
import { WatchHandle } from './watchers.js';
import type { ValueTransformer } from './encryption.js';

/** The JSON of a stored value (decrypted when a transformer is configured). */
type ValueReader = (key: string, value: Buffer) => string;

/** TLS to etcd (PEM texts), kube-apiserver's --etcd-cafile, --etcd-certfile and --etcd-keyfile. */
export interface EtcdTLSOptions {
  /** The CAs etcd's serving certificate is verified against (default: the system's roots). */
  caPem?: string;
  /** The client certificate and its key (both or neither). */
  certPem?: string;
  keyPem?: string;
}

export interface EtcdStorageOptions {
  /** Client URLs, e.g. http://127.0.0.1:2379 or https://etcd-main-client:2379 (TLS: see `tls`). */
  endpoints: string[];
  /** TLS settings for https endpoints; without them an https endpoint is verified against the system's roots. */
  tls?: EtcdTLSOptions;
  /** Encryption at rest (kube's --encryption-provider-config): how values are written to etcd and read back. */
  transformer?: ValueTransformer;
  /** How long to wait for a connection, in milliseconds (default 5,000). */
  dialTimeoutMs?: number;
}

export class EtcdStorage implements Storage {
  readonly kind = 'etcd' as const;
  private client: Etcd3 | undefined;
  private closed = false;
  /** The highest revision any reply has shown: this client's "now", where a watch without afterRevision starts. */
  private seen = 0;
  private readonly streams = new Set<WatchStream>();
  /** The etcd watch that new watches of a prefix join when they can, so that 100 watchers cost one etcd watch. */
  private readonly shared = new Map<string, WatchStream>();
  private readonly read: ValueReader;
  private readonly write: (key: string, json: string) => Buffer;

  constructor(private readonly options: EtcdStorageOptions) {
    const transformer = options.transformer;
    this.read = transformer ? (key, value) => transformer.fromStorage(key, value) : (_key, value) => value.toString();
    this.write = transformer ? (key, json) => transformer.toStorage(key, json) : (_key, json) => Buffer.from(json);
    if (options.endpoints.length === 0) throw new Error('etcd storage needs at least one endpoint');
    const tls = options.tls;
    if (tls && !tls.certPem !== !tls.keyPem) throw new Error('etcd TLS needs both a client certificate and its key');
    if (tls && options.endpoints.some((e) => !e.startsWith('https://')))
      throw new Error(`etcd TLS is configured, so every endpoint must be https://: ${options.endpoints.join(', ')}`);
  }

  async open(): Promise<void> {
    if (this.closed) throw storageErrors.closed(this.kind);
    if (this.client) return;
    const { Etcd3 } = await import('etcd3');
    await dropStaleCancellations();
    const tls = this.options.tls;
    this.client = new Etcd3({
      hosts: this.options.endpoints,
      // The etcd3 client takes https:// endpoints as TLS with the system's roots unless given credentials.
      ...(tls?.caPem || tls?.certPem
        ? {
            credentials: {
              // gRPC's createSsl takes null for the system's roots.
              rootCertificate: (tls.caPem ? Buffer.from(tls.caPem) : null) as Buffer,
              ...(tls.certPem ? { certChain: Buffer.from(tls.certPem), privateKey: Buffer.from(tls.keyPem!) } : {}),
            },
          }
        : {}),
      dialTimeout: this.options.dialTimeoutMs ?? 5_000,
      // A list is one range reply; gRPC's default 4 MiB limit would fail lists of a few thousand objects.
      grpcOptions: { 'grpc.max_receive_message_length': -1 },
    });
    try {
      await this.currentRevision();
    } catch (err) {
      this.client.close();
      this.client = undefined;
      throw err;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const stream of this.streams) stream.fail(storageErrors.closed(this.kind));
    this.client?.close();
  }

  async get(key: string, options: GetOptions = {}): Promise<StoredObject | undefined> {
    const res = await this.call((kv) => kv.range({ key: Buffer.from(key) }));
    // A linearizable read: etcd's revision now is the newest there is.
    const revision = Number(res.header.revision);
    if (options.minRevision !== undefined && options.minRevision > revision)
      throw storageErrors.tooLarge(options.minRevision, revision);
    return res.kvs.length > 0 ? stored(res.kvs[0], this.read) : undefined;
  }

  async list(options: ListOptions): Promise<ListResult> {
    const { prefix, after, atRevision } = options;
    const start = after !== undefined && after >= prefix ? `${after}\0` : prefix;
    const limit = options.limit && options.limit > 0 ? options.limit : 0;
    const range = {
      key: Buffer.from(start),
      range_end: rangeEnd(prefix),
      limit,
      ...(atRevision !== undefined ? { revision: atRevision } : {}),
    };
    let res;
    try {
      res = await this.call((kv) => kv.range(range));
    } catch (err) {
      if (err instanceof StorageError && err.code === 'TooLarge')
        throw storageErrors.tooLarge(atRevision!, await this.currentRevision());
      throw err;
    }
    const items = res.kvs.map((kv) => stored(kv, this.read));
    const revision = atRevision ?? Number(res.header.revision);
    return { items, revision, more: res.more, remaining: Number(res.count) - items.length };
  }

  async create(key: string, object: KubeObject): Promise<StoredObject> {
    const json = encodeObject(object);
    const res = await this.txn([{ key: Buffer.from(key), target: 'Create', result: 'Equal', create_revision: 0 }], {
      request_put: { key: Buffer.from(key), value: this.write(key, json) },
    });
    if (!res.succeeded) throw storageErrors.alreadyExists(key);
    const revision = Number(res.header.revision);
    return storedObject(key, decodeObject(json, revision), revision);
  }

  async update(key: string, object: KubeObject, expectedRevision?: number): Promise<StoredObject> {
    const json = encodeObject(object);
    const res = await this.conditional(key, expectedRevision, {
      request_put: { key: Buffer.from(key), value: this.write(key, json) },
    });
    const revision = Number(res.header.revision);
    return storedObject(key, decodeObject(json, revision), revision);
  }

  async delete(key: string, expectedRevision?: number): Promise<StoredObject> {
    const res = await this.conditional(key, expectedRevision, {
      request_delete_range: { key: Buffer.from(key), prev_kv: true },
    });
    const revision = Number(res.header.revision);
    const previous = res.responses[0].response_delete_range.prev_kvs[0];
    return storedObject(key, decodeObject(this.read(key, previous.value), revision), revision);
  }

  watch(options: WatchOptions, onEvent: (event: StorageEvent) => void, onError: (err: StorageError) => void): Watch {
    const { prefix } = options;
    const after = Math.max(0, options.afterRevision ?? this.seen);
    const stream = this.streamFor(prefix, after);
    const handle = new WatchHandle(prefix, after, onEvent, onError, (h) => stream.remove(h));
    stream.add(handle);
    return handle;
  }

  /** The highest revision any reply has shown so far, without asking etcd (where a watch from now starts). */
  get seenRevision(): number {
    return this.seen;
  }

  async currentRevision(): Promise<number> {
    const res = await this.call((kv) => kv.range({ key: Buffer.from([0]), count_only: true }));
    return Number(res.header.revision);
  }

  /** Compacts etcd's history before `revision`: a watch may then start at `revision - 1` at the earliest. */
  async compact(revision: number): Promise<void> {
    await this.call((kv) => kv.compact({ revision, physical: true }));
  }

  /** The shared stream of the prefix when a watch after `after` can join it, else a new one. */
  private streamFor(prefix: string, after: number): WatchStream {
    const client = this.connected();
    const shared = this.shared.get(prefix);
    if (shared?.canJoin(after)) return shared;
    const stream = new WatchStream(
      client,
      prefix,
      after,
      this.read,
      (header) => this.see(header),
      (ended) => {
        this.streams.delete(ended);
        if (this.shared.get(prefix) === ended) this.shared.delete(prefix);
      },
    );
    this.streams.add(stream);
    if (!shared) this.shared.set(prefix, stream);
    return stream;
  }

  /** A txn on `compare`; when it fails, NotFound or Conflict from the key's current state. */
  private async conditional(key: string, expectedRevision: number | undefined, op: IRequestOp): Promise<ITxnResponse> {
    const compare: ICompare =
      expectedRevision === undefined
        ? { key: Buffer.from(key), target: 'Create', result: 'Greater', create_revision: 0 }
        : { key: Buffer.from(key), target: 'Mod', result: 'Equal', mod_revision: expectedRevision };
    const res = await this.txn([compare], op, { request_range: { key: Buffer.from(key) } });
    if (res.succeeded) return res;
    const current = res.responses[0]?.response_range?.kvs[0];
    if (!current) throw storageErrors.notFound(key);
    throw storageErrors.conflict(key, expectedRevision!, Number(current.mod_revision));
  }

  private txn(compare: ICompare[], success: IRequestOp, failure?: IRequestOp): Promise<ITxnResponse> {
    return this.call((kv) => kv.txn({ compare, success: [success], failure: failure ? [failure] : [] }));
  }

  private async call<T extends { header: IResponseHeader }>(request: (kv: KVClient) => Promise<T>): Promise<T> {
    const client = this.connected();
    let res: T;
    try {
      res = await request(client.kv);
    } catch (err) {
      const message = `etcd at ${this.options.endpoints.join(',')}: ${errorMessage(err)}`;
      // A range at a revision etcd no longer keeps, or not yet has (etcd's ErrCompacted and ErrFutureRev).
      if (/required revision has been compacted/.test(message)) throw new StorageError('Gone', message);
      if (/required revision is a future revision/.test(message)) throw new StorageError('TooLarge', message);
      throw new StorageError('Unavailable', message);
    }
    this.see(res.header);
    return res;
  }

  private see(header: IResponseHeader | undefined): void {
    if (header) this.seen = Math.max(this.seen, Number(header.revision));
  }

  private connected(): Etcd3 {
    if (this.closed || !this.client) throw storageErrors.closed(this.kind);
    return this.client;
  }
}

/** One etcd watch of a prefix, delivering each event, decoded once, to every storage watch that shares it. */
class WatchStream {
  private readonly handles = new Set<WatchHandle>();
  /** The revision of the last event delivered. */
  private delivered: number;
  private readonly watcher: Watcher;
  /** etcd cancelled the watch itself: the client has forgotten it, and it must not be cancelled again. */
  private cancelledByEtcd = false;

  constructor(
    client: Etcd3,
    prefix: string,
    /** The stream delivers every event after this revision. */
    private readonly after: number,
    read: ValueReader,
    see: (header: IResponseHeader) => void,
    private readonly onEnd: (stream: WatchStream) => void,
  ) {
    this.delivered = after;
    this.watcher = client
      .watch()
      .prefix(prefix)
      .startRevision(String(after + 1))
      .withPreviousKV()
      .watcher();
    this.watcher.on('data', (res) => {
      see(res.header);
      for (const raw of res.events) {
        const event = toEvent(raw, read);
        if (!event)
          return this.fail(new StorageError('Gone', `the previous value of ${raw.kv.key.toString()} is compacted`));
        this.delivered = event.revision;
        for (const handle of this.handles) handle.deliver(event);
      }
    });
    this.watcher.on('error', (err: Error) => {
      // etcd3 emits 'error' on a watcher only for a cancellation by etcd, after dropping the watcher.
      this.cancelledByEtcd = true;
      // etcd cancels a watch without a reason only when its start revision is compacted.
      const compacted = /^Watcher canceled:\s*$/.test(err.message);
      this.fail(
        compacted
          ? new StorageError('Gone', `revision ${after + 1} is compacted in etcd; list again`)
          : new StorageError('Unavailable', `etcd watch failed: ${err.message}`),
      );
    });
  }

  /** A watch after `revision` may join when this stream has delivered nothing later and started no later. */
  canJoin(revision: number): boolean {
    return this.handles.size > 0 && this.after <= revision && this.delivered <= revision;
  }

  add(handle: WatchHandle): void {
    this.handles.add(handle);
  }

  remove(handle: WatchHandle): void {
    this.handles.delete(handle);
    if (this.handles.size === 0) this.end();
  }

  fail(err: StorageError): void {
    for (const handle of this.handles) handle.fail(err);
  }

  private end(): void {
    this.onEnd(this);
    this.watcher.removeAllListeners();
    this.watcher.on('error', () => {});
    if (!this.cancelledByEtcd) this.watcher.cancel().catch(() => {});
  }
}

let staleCancellationsDropped: Promise<void> | undefined;

/**
 * Patches etcd3's WatchManager (once per process) to ignore a cancellation reply for a watch id it has already
 * forgotten, instead of throwing "Failed to find watcher for IWatchResponse" from its stream handler. Other
 * replies for unknown ids still throw as before. A no-op when a later etcd3 no longer has the method.
 */
export function dropStaleCancellations(): Promise<void> {
  staleCancellationsDropped ??= import('etcd3/lib/watch.js').then(({ WatchManager }) => {
    type Manager = { watchers: Watcher[]; handleResponse?: (res: IWatchResponse) => void };
    const proto = WatchManager.prototype as unknown as Manager;
    const original = proto.handleResponse;
    if (typeof original !== 'function') return;
    proto.handleResponse = function (this: Manager, res: IWatchResponse) {
      if (res.canceled && !this.watchers.some((w) => w.id === res.watch_id)) return;
      original.call(this, res);
    };
  });
  return staleCancellationsDropped;
}

function stored(kv: IKeyValue, read: ValueReader): StoredObject {
  const revision = Number(kv.mod_revision);
  const key = kv.key.toString();
  return storedObject(key, decodeObject(read(key, kv.value), revision), revision);
}

/** A storage event from an etcd one; undefined when the previous value a delete needs is no longer there. */
function toEvent(raw: IEvent, read: ValueReader): StorageEvent | undefined {
  const key = raw.kv.key.toString();
  const revision = Number(raw.kv.mod_revision);
  const previous = raw.prev_kv
    ? decodeObject(read(key, raw.prev_kv.value), Number(raw.prev_kv.mod_revision))
    : undefined;
  if (String(raw.type).toUpperCase() === 'DELETE') {
    if (!previous) return undefined;
    return Object.freeze({ type: 'DELETED', key, object: atRevision(previous, revision), previous, revision });
  }
  const object = decodeObject(read(key, raw.kv.value), revision);
  const type = raw.kv.create_revision === raw.kv.mod_revision ? 'ADDED' : 'MODIFIED';
  return Object.freeze({ type, key, object, ...(previous ? { previous } : {}), revision });
}

/** The etcd range end of all keys starting with `prefix`: the prefix with its last byte below 0xff incremented. */
function rangeEnd(prefix: string): Buffer {
  const bytes = Buffer.from(prefix);
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i] < 0xff) {
      const end = Buffer.from(bytes.subarray(0, i + 1));
      end[i]++;
      return end;
    }
  }
  return Buffer.from([0]); // every key from the start key on
}
