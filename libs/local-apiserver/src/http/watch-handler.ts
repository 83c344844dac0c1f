// Streams watch events as newline-delimited JSON, with per-client buffering, timeouts and Table output.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResourceDefinition } from '../registry/types.js';
import type { Storage } from '../storage/types.js';
import type { ListFilter } from '../server/filters.js';
import { startWatch, type WatchEvent } from '../server/watch.js';
import { partialMetadata, requestedView, toTable } from './table.js';
import { jsonOf } from './io.js';
import { includeObject } from './resource-handler.js';

/** A client that falls this many events behind is disconnected; it re-watches from its last resourceVersion. */
const MAX_QUEUED_EVENTS = 10_000;

export interface WatchArgs {
  storage: Storage;
  definition: ResourceDefinition;
  namespace: string;
  req: IncomingMessage;
  res: ServerResponse;
  query: URLSearchParams;
  filter: ListFilter;
}

export async function serveWatch(args: WatchArgs): Promise<void> {
  const { req, res, query, definition } = args;
  const view = requestedView(req.headers.accept);
  const include = includeObject(query);
  const encode = (event: WatchEvent): string => {
    let object = event.object;
    if (event.type !== 'ERROR' && event.type !== 'BOOKMARK') {
      if (view === 'Table')
        object = toTable(definition, [object], { resourceVersion: object.metadata?.resourceVersion }, include);
      else if (view === 'PartialObjectMetadata') object = partialMetadata(object);
    }
    // The object's JSON is shared by every watcher of a frozen stored object (and by GETs of it).
    if (object !== null && typeof object === 'object')
      return `{"type":${JSON.stringify(event.type)},"object":${jsonOf(object)}}\n`;
    return JSON.stringify({ type: event.type, object }) + '\n';
  };

  const queue: string[] = [];
  let writing = false;
  let closed = false;
  const flush = () => {
    if (writing || closed) return;
    while (queue.length > 0) {
      const ok = res.write(queue.shift());
      if (!ok) {
        writing = true;
        res.once('drain', () => {
          writing = false;
          flush();
        });
        return;
      }
    }
  };

  const timeoutSeconds = Number(query.get('timeoutSeconds') ?? 0);
  const sendInitial = query.get('sendInitialEvents');
  res.writeHead(200, {
    'content-type': 'application/json',
    'transfer-encoding': 'chunked',
    'cache-control': 'no-cache, private',
  });
  // Clients (client-node's Watch) wait for the response headers before they consider the watch started.
  res.flushHeaders();
  const finish = () => {
    if (closed) return;
    closed = true;
    if (timer) clearTimeout(timer);
    watch?.stop();
    res.end();
  };
  let timer: NodeJS.Timeout | undefined;
  // eslint-disable-next-line prefer-const -- assigned below, after the close handlers that stop it exist
  let watch: { stop(): void } | undefined;
  req.on('close', finish);
  res.on('error', finish);

  watch = await startWatch(
    args.storage,
    {
      definition,
      namespace: args.namespace,
      filter: args.filter,
      resourceVersion: query.get('resourceVersion') ?? undefined,
      sendInitialEvents: sendInitial === null ? undefined : sendInitial === 'true',
      allowBookmarks: query.get('allowWatchBookmarks') === 'true',
    },
    (event) => {
      if (closed) return;
      if (queue.length >= MAX_QUEUED_EVENTS) return finish();
      queue.push(encode(event));
      flush();
    },
    () => {
      // Let queued events go out before the stream ends.
      if (queue.length === 0) return finish();
      const check = setInterval(() => {
        if (queue.length === 0 || closed) {
          clearInterval(check);
          finish();
        }
      }, 10);
    },
  );
  if (closed) watch.stop();
  if (timeoutSeconds > 0) timer = setTimeout(finish, timeoutSeconds * 1000);
}
