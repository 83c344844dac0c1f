// List-then-watch a storage prefix for the server's own controllers, re-listing when the watch breaks.
import type { Logger } from '@gardener-ts/logging';
import type { Storage, StorageEvent, Watch } from '../storage/types.js';

export async function watchPrefix(
  storage: Storage,
  prefix: string,
  onEvent: (event: StorageEvent) => void,
  log: Logger,
): Promise<Watch> {
  let current: Watch | undefined;
  let stopped = false;
  const begin = async () => {
    const list = await storage.list({ prefix });
    for (const item of list.items) {
      onEvent({ type: 'ADDED', key: item.key, object: item.object, revision: item.revision });
    }
    if (stopped) return;
    current = storage.watch({ prefix, afterRevision: list.revision }, onEvent, (err) => {
      if (stopped) return;
      log.info({ prefix, reason: err.message }, 'Internal watch ended, re-listing');
      setTimeout(() => void begin().catch((e) => log.error({ err: e }, 'Re-list failed')), 100).unref();
    });
  };
  await begin();
  return {
    stop() {
      stopped = true;
      current?.stop();
    },
  };
}
