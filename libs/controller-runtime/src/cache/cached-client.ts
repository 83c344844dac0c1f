// The client controllers use: reads from the informer cache, writes to the API server (controller-runtime's
// delegating client). Reads of kinds listed as uncached, and reads through `api`, go to the server.
import type { ApiClient, Client, PatchOptions } from '../client/client.js';
import { gvkString, type GroupVersionKind, type Kind } from '../client/gvk.js';
import type { DeleteOptions, ListOptions, Patch, WriteOptions } from '../client/options.js';
import type { KubernetesObject, ObjectKey, ObjectList } from '../client/types.js';
import type { InformerCache } from './cache.js';

export class CachedClient implements Client {
  private readonly uncached: Set<string>;

  constructor(
    private readonly cache: InformerCache,
    /** The live API client: reads from here are never stale. */
    readonly api: ApiClient,
    uncachedKinds: GroupVersionKind[] = [],
  ) {
    this.uncached = new Set(uncachedKinds.map(gvkString));
  }

  /** From the cache (a frozen, shared object) unless the kind is uncached. */
  get<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey): Promise<T> {
    return this.readerFor(kind).get(kind, key);
  }

  list<T extends KubernetesObject>(kind: Kind<T>, opts?: ListOptions): Promise<ObjectList<T>> {
    return this.readerFor(kind).list(kind, opts);
  }

  create<T extends KubernetesObject>(obj: T, opts?: WriteOptions): Promise<T> {
    return this.api.create(obj, opts);
  }

  update<T extends KubernetesObject>(obj: T, opts?: WriteOptions): Promise<T> {
    return this.api.update(obj, opts);
  }

  updateStatus<T extends KubernetesObject>(obj: T, opts?: WriteOptions): Promise<T> {
    return this.api.updateStatus(obj, opts);
  }

  patch<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey, patch: Patch, opts?: PatchOptions): Promise<T> {
    return this.api.patch(kind, key, patch, opts);
  }

  apply<T extends KubernetesObject>(
    obj: T,
    opts: { fieldManager: string; force?: boolean; dryRun?: boolean },
  ): Promise<T> {
    return this.api.apply(obj, opts);
  }

  delete(kind: Kind, key: ObjectKey, opts?: DeleteOptions): Promise<void> {
    return this.api.delete(kind, key, opts);
  }

  deleteAllOf(kind: Kind, opts?: ListOptions & DeleteOptions): Promise<void> {
    return this.api.deleteAllOf(kind, opts);
  }

  private readerFor(kind: GroupVersionKind): Pick<Client, 'get' | 'list'> {
    return this.uncached.has(gvkString(kind)) ? this.api : this.cache;
  }
}
