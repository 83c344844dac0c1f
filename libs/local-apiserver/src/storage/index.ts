// The storage backends of the local API server behind one contract (types.ts), and a factory to pick one.
import type { Logger } from '@gardener-ts/logging';
import { EtcdStorage, type EtcdTLSOptions } from './etcd.js';
import type { ValueTransformer } from './encryption.js';
import { FileStorage } from './file.js';
import { MemoryStorage } from './memory.js';
import { WatchCachedStorage } from './watch-cache.js';
import type { Storage } from './types.js';

export * from './types.js';
export { MemoryStorage, type MemoryStorageOptions } from './memory.js';
export { FileStorage, type FileStorageOptions } from './file.js';
export { EtcdStorage, type EtcdStorageOptions, type EtcdTLSOptions } from './etcd.js';
export { encryptionTransformer, type ValueTransformer } from './encryption.js';
export { WatchCachedStorage, type WatchCacheOptions } from './watch-cache.js';

export interface CreateStorageOptions {
  /** The directory of a file store (required for 'file'). */
  dir?: string;
  /** etcd client URLs (required for 'etcd'). */
  endpoints?: string[];
  /** etcd: TLS to https endpoints (CA, client certificate and key). */
  tls?: EtcdTLSOptions;
  /** etcd: encryption at rest (kube's --encryption-provider-config). */
  transformer?: ValueTransformer;
  /** How many events memory and file stores keep for watches (default 10,000). */
  historySize?: number;
  /** When a file store's log is compacted into a snapshot, in bytes (default 64 MiB). */
  compactBytes?: number;
  /** etcd: serve reads and watches from a watch cache (default true); false reads etcd on every get and list. */
  watchCache?: boolean;
  /** file: where a dropped torn log tail and background failures are reported (default: process warnings). */
  log?: Logger;
}

/** A store of the given kind, not yet opened. */
export function createStorage(kind: Storage['kind'], options: CreateStorageOptions = {}): Storage {
  switch (kind) {
    case 'memory':
      return new MemoryStorage({ historySize: options.historySize });
    case 'file':
      if (!options.dir) throw new Error('file storage needs a directory');
      return new FileStorage(options.dir, {
        historySize: options.historySize,
        compactBytes: options.compactBytes,
        log: options.log,
      });
    case 'etcd': {
      if (!options.endpoints?.length) throw new Error('etcd storage needs endpoints (e.g. --etcd-servers)');
      const etcd = new EtcdStorage({
        endpoints: options.endpoints,
        tls: options.tls,
        transformer: options.transformer,
      });
      if (options.watchCache === false) return etcd;
      return new WatchCachedStorage(etcd, { historySize: options.historySize });
    }
    default:
      throw new Error(`unknown storage kind ${JSON.stringify(kind)}: use memory, file or etcd`);
  }
}
