// Watches: initial events, resume from a resourceVersion, selector transitions, bookmarks, 410 for old versions.
// Each watcher queues its own events, so a slow client never holds up the store or the other watchers.
import { errors } from '../api/errors.js';
import type { ResourceDefinition } from '../registry/types.js';
import { StorageError, type KubeObject, type Storage, type StorageEvent } from '../storage/types.js';
import type { ListFilter } from './filters.js';
import { collectionPrefix, apiVersionOf } from './keys.js';
import { hasWebhookConversion, toRequestedVersion, toRequestedVersionSync } from './conversion/converter.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject;
}

export interface WatchRequest {
  definition: ResourceDefinition;
  namespace: string;
  filter: ListFilter;
  resourceVersion?: string;
  sendInitialEvents?: boolean;
  allowBookmarks?: boolean;
  /** Only one object (a `metadata.name` field selector on a single-object watch). */
  bookmarkIntervalMs?: number;
}

/** Called for each event; returns false when the consumer cannot take more right now. */
export type EventSink = (event: WatchEvent) => void;

export interface ActiveWatch {
  stop(): void;
}

const DEFAULT_BOOKMARK_INTERVAL_MS = 30_000;

export async function startWatch(
  storage: Storage,
  request: WatchRequest,
  sink: EventSink,
  onEnd: () => void,
): Promise<ActiveWatch> {
  const { definition: def, filter } = request;
  const prefix = collectionPrefix(def, request.namespace || undefined);
  const rv = request.resourceVersion;
  let lastRevision = 0;
  let stopped = false;
  let storageWatch: { stop(): void } | undefined;
  let bookmarkTimer: NodeJS.Timeout | undefined;

  const stop = () => {
    if (stopped) return;
    stopped = true;
    storageWatch?.stop();
    if (bookmarkTimer) clearInterval(bookmarkTimer);
    onEnd();
  };

  // Objects convert to the requested version per event. With a conversion webhook that is asynchronous, so events
  // queue behind each other to keep their order; an event that cannot be converted ends the watch (kube's watch
  // server stops when it cannot encode an event).
  const webhook = hasWebhookConversion(def);
  let queue: Promise<void> = Promise.resolve();
  const emit = (type: WatchEvent['type'], object: KubeObject, convert = true, then?: () => void) => {
    if (!webhook) {
      sink({ type, object: convert ? toRequestedVersionSync(def, object) : object });
      then?.();
      return;
    }
    queue = queue
      .then(async () => {
        if (stopped) return;
        const converted = convert ? await toRequestedVersion(def, object) : object;
        if (stopped) return;
        sink({ type, object: converted });
        then?.();
      })
      .catch(() => stop());
  };

  let after: number | undefined;
  const initial = request.sendInitialEvents ?? (rv === undefined || rv === '' || rv === '0');
  if (rv !== undefined && rv !== '' && rv !== '0' && !/^\d+$/.test(rv)) {
    throw errors.badRequest(`invalid resource version: ${JSON.stringify(rv)}`);
  }
  if (initial) {
    const list = await storage.list({ prefix });
    for (const item of list.items) {
      if (filter(item.object)) emit('ADDED', item.object);
    }
    after = list.revision;
    lastRevision = list.revision;
    if (request.sendInitialEvents && request.allowBookmarks) {
      emit('BOOKMARK', bookmark(def, lastRevision, true), false);
    }
  } else {
    after = Number(rv);
    lastRevision = after;
  }

  const deliver = (event: StorageEvent) => {
    if (stopped) return;
    lastRevision = event.revision;
    const now = event.type === 'DELETED' ? false : filter(event.object);
    const before = event.previous ? filter(event.previous) : false;
    if (event.type === 'ADDED') {
      if (now) emit('ADDED', event.object);
    } else if (event.type === 'MODIFIED') {
      if (now && before) emit('MODIFIED', event.object);
      else if (now) emit('ADDED', event.object);
      else if (before) emit('DELETED', event.object);
    } else if (filter(event.object)) {
      emit('DELETED', event.object);
    }
  };

  const fail = (err: StorageError) => {
    if (stopped) return;
    emit('ERROR', goneStatus(err, after ?? 0), false, stop);
  };

  try {
    storageWatch = storage.watch({ prefix, afterRevision: after }, deliver, fail);
  } catch (err) {
    if (err instanceof StorageError && err.code === 'Gone') {
      fail(err);
      return { stop };
    }
    throw err;
  }

  if (request.allowBookmarks) {
    bookmarkTimer = setInterval(() => {
      if (!stopped && lastRevision > 0) emit('BOOKMARK', bookmark(def, lastRevision, false), false);
    }, request.bookmarkIntervalMs ?? DEFAULT_BOOKMARK_INTERVAL_MS);
    bookmarkTimer.unref();
  }
  return { stop };
}

function bookmark(def: ResourceDefinition, revision: number, initialEventsEnd: boolean): KubeObject {
  return {
    kind: def.kind,
    apiVersion: apiVersionOf(def),
    metadata: {
      resourceVersion: String(revision),
      ...(initialEventsEnd ? { annotations: { 'k8s.io/initial-events-end': 'true' } } : {}),
    },
  };
}

function goneStatus(err: StorageError, requested: number): KubeObject {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: err.code === 'Gone' ? `too old resource version: ${requested} (${err.message})` : err.message,
    reason: err.code === 'Gone' ? 'Expired' : 'InternalError',
    code: err.code === 'Gone' ? 410 : 500,
  };
}
