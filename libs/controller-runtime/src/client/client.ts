// The typed client: reads and writes any kind, built-in or CRD, straight against the API server.
import { KubeConfig } from '@kubernetes/client-node';
import { ApiError } from './api-error.js';
import { loadKubeConfig } from './kubeconfig.js';
import { apiVersionOf, describe, gvkOf, metadataOnly, type GroupVersionKind, type Kind } from './gvk.js';
import {
  PATCH_CONTENT_TYPES,
  deleteBody,
  listQuery,
  writeQuery,
  type DeleteOptions,
  type ListOptions,
  type Patch,
  type WriteOptions,
} from './options.js';
import { RESTMapper, type RESTMapping } from './rest-mapper.js';
import { Transport, type TransportOptions } from './transport.js';
import type { KubernetesObject, ObjectKey, ObjectList } from './types.js';

/** Reads objects; implemented by the API client and by the informer cache. */
export interface Reader {
  get<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey): Promise<T>;
  list<T extends KubernetesObject>(kind: Kind<T>, opts?: ListOptions): Promise<ObjectList<T>>;
}

/** Writes objects. Objects name their kind in `apiVersion` and `kind`. */
export interface Writer {
  create<T extends KubernetesObject>(obj: T, opts?: WriteOptions): Promise<T>;
  /** Replaces the object; its `metadata.resourceVersion` makes the write fail with Conflict if it changed meanwhile. */
  update<T extends KubernetesObject>(obj: T, opts?: WriteOptions): Promise<T>;
  /** Replaces the `status` subresource. */
  updateStatus<T extends KubernetesObject>(obj: T, opts?: WriteOptions): Promise<T>;
  patch<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey, patch: Patch, opts?: PatchOptions): Promise<T>;
  delete(kind: Kind, key: ObjectKey, opts?: DeleteOptions): Promise<void>;
  /** Deletes every object matching the selectors in one collection request. */
  deleteAllOf(kind: Kind, opts?: ListOptions & DeleteOptions): Promise<void>;
}

export interface PatchOptions extends WriteOptions {
  /** Patch a subresource, e.g. `status`. */
  subresource?: string;
}

export type Client = Reader & Writer;

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent<T extends KubernetesObject = KubernetesObject> {
  type: WatchEventType;
  object: T;
}

export interface WatchOptions extends Omit<ListOptions, 'limit' | 'continue'> {
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number;
  signal?: AbortSignal;
}

const PARTIAL_OBJECT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const PARTIAL_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

export class ApiClient implements Client {
  constructor(
    readonly transport: Transport,
    readonly mapper: RESTMapper,
  ) {}

  /**
   * A client for the current context of a kubeconfig (a `KubeConfig` or the path of a kubeconfig file).
   * `rateLimit` throttles its requests on the client side (a component configuration's `clientConnection.qps`/`burst`).
   */
  static async create(kubeConfig: KubeConfig | string, options: TransportOptions = {}): Promise<ApiClient> {
    const kc = typeof kubeConfig === 'string' ? loadKubeConfig(kubeConfig) : kubeConfig;
    const transport = await Transport.fromKubeConfig(kc, options);
    return new ApiClient(transport, new RESTMapper(transport));
  }

  mapping(kind: GroupVersionKind): Promise<RESTMapping> {
    return this.mapper.mapping(kind);
  }

  async get<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey): Promise<T> {
    const path = await this.objectPath(kind, key.namespace, key.name);
    return this.transport.request<T>({ method: 'GET', path, accept: kind.metadataOnly ? PARTIAL_OBJECT : undefined });
  }

  async list<T extends KubernetesObject>(kind: Kind<T>, opts: ListOptions = {}): Promise<ObjectList<T>> {
    const path = await this.collectionPath(kind, opts.namespace);
    const list = await this.transport.request<ObjectList<T>>({
      method: 'GET',
      path,
      query: listQuery(opts),
      accept: kind.metadataOnly ? PARTIAL_LIST : undefined,
    });
    // Lists carry apiVersion/kind once; items get them back so each object names its own kind.
    for (const item of list.items ?? []) {
      item.apiVersion ??= apiVersionOf(kind);
      item.kind ??= kind.kind;
    }
    list.items ??= [];
    list.metadata ??= {};
    return list;
  }

  async create<T extends KubernetesObject>(obj: T, opts?: WriteOptions): Promise<T> {
    const kind = gvkOf(obj);
    if ((await this.mapper.mapping(kind)).namespaced && !obj.metadata?.namespace) {
      throw new Error(`${kind.kind} ${describe(obj)} is namespaced: set metadata.namespace`);
    }
    const path = await this.collectionPath(kind, obj.metadata?.namespace);
    return this.transport.request<T>({ method: 'POST', path, body: obj, query: writeQuery(opts) });
  }

  async update<T extends KubernetesObject>(obj: T, opts?: WriteOptions): Promise<T> {
    const path = await this.objectPath(gvkOf(obj), obj.metadata?.namespace, nameForWrite(obj));
    return this.transport.request<T>({ method: 'PUT', path, body: obj, query: writeQuery(opts) });
  }

  async updateStatus<T extends KubernetesObject>(obj: T, opts?: WriteOptions): Promise<T> {
    const path = await this.objectPath(gvkOf(obj), obj.metadata?.namespace, nameForWrite(obj), 'status');
    return this.transport.request<T>({ method: 'PUT', path, body: obj, query: writeQuery(opts) });
  }

  async patch<T extends KubernetesObject>(
    kind: Kind<T>,
    key: ObjectKey,
    patch: Patch,
    opts: PatchOptions = {},
  ): Promise<T> {
    const path = await this.objectPath(kind, key.namespace, key.name, opts.subresource);
    const query = writeQuery(patch.type === 'apply' ? { ...opts, fieldManager: patch.fieldManager } : opts);
    if (patch.type === 'apply') {
      if (!patch.fieldManager) throw new Error('server-side apply needs a fieldManager');
      if (patch.force) query.set('force', 'true');
    }
    return this.transport.request<T>({
      method: 'PATCH',
      path,
      body: patch.patch,
      contentType: PATCH_CONTENT_TYPES[patch.type],
      query,
    });
  }

  /** Server-side apply of a whole (partial) object: `apiVersion`, `kind`, `metadata.name` and the fields this manager owns. */
  apply<T extends KubernetesObject>(
    obj: T,
    opts: { fieldManager: string; force?: boolean; dryRun?: boolean },
  ): Promise<T> {
    const kind = gvkOf(obj) as Kind<T>;
    const key = { namespace: obj.metadata?.namespace, name: nameForWrite(obj) };
    return this.patch(
      kind,
      key,
      { type: 'apply', patch: obj as Record<string, unknown>, fieldManager: opts.fieldManager, force: opts.force },
      { dryRun: opts.dryRun },
    );
  }

  async delete(kind: Kind, key: ObjectKey, opts?: DeleteOptions): Promise<void> {
    const path = await this.objectPath(kind, key.namespace, key.name);
    await this.transport.request({ method: 'DELETE', path, body: deleteBody(opts) });
  }

  async deleteAllOf(kind: Kind, opts: ListOptions & DeleteOptions = {}): Promise<void> {
    const mapping = await this.mapper.mapping(kind);
    if (mapping.namespaced && !opts.namespace) {
      // The API has no cross-namespace collection delete; one request per namespace that has matching objects.
      const namespaces = new Set(
        (
          await this.listAll(metadataOnly(kind), {
            labelSelector: opts.labelSelector,
            fieldSelector: opts.fieldSelector,
          })
        ).map((o) => o.metadata?.namespace ?? ''),
      );
      await Promise.all([...namespaces].map((namespace) => this.deleteAllOf(kind, { ...opts, namespace })));
      return;
    }
    const path = await this.collectionPath(kind, opts.namespace);
    await this.transport.request({ method: 'DELETE', path, query: listQuery(opts), body: deleteBody(opts) });
  }

  /** Lists every page (`pageSize` objects per request). */
  async listAll<T extends KubernetesObject>(
    kind: Kind<T>,
    opts: Omit<ListOptions, 'limit' | 'continue'> & { pageSize?: number } = {},
  ): Promise<T[]> {
    return (await this.listPages(kind, opts)).items;
  }

  /** Like listAll, also returning the resourceVersion of the list (where a watch continues from). */
  async listPages<T extends KubernetesObject>(
    kind: Kind<T>,
    opts: Omit<ListOptions, 'limit' | 'continue'> & { pageSize?: number } = {},
  ): Promise<{ items: T[]; resourceVersion: string }> {
    const items: T[] = [];
    let cont: string | undefined;
    let resourceVersion = '';
    do {
      const page = await this.list(kind, {
        ...opts,
        limit: opts.pageSize ?? 500,
        continue: cont,
        resourceVersion: cont ? undefined : opts.resourceVersion,
      });
      items.push(...page.items);
      resourceVersion = page.metadata.resourceVersion ?? resourceVersion;
      cont = page.metadata.continue || undefined;
    } while (cont);
    return { items, resourceVersion };
  }

  /** Watches a kind; `onEvent` gets each event. Resolves when the server closes the watch, rejects when it breaks. */
  async watch<T extends KubernetesObject>(
    kind: Kind<T>,
    opts: WatchOptions,
    onEvent: (event: WatchEvent<T>) => void,
  ): Promise<void> {
    const path = await this.collectionPath(kind, opts.namespace);
    const query = listQuery(opts);
    query.set('watch', 'true');
    if (opts.allowWatchBookmarks) query.set('allowWatchBookmarks', 'true');
    if (opts.timeoutSeconds) query.set('timeoutSeconds', String(opts.timeoutSeconds));
    await this.transport.stream(
      { method: 'GET', path, query, accept: kind.metadataOnly ? PARTIAL_OBJECT : undefined, signal: opts.signal },
      (item) => onEvent(item as WatchEvent<T>),
    );
  }

  close(): void {
    this.transport.close();
  }

  private async collectionPath(kind: GroupVersionKind, namespace: string | undefined): Promise<string> {
    const m = await this.mapper.mapping(kind);
    if (!m.namespaced && namespace)
      throw new Error(`${kind.kind} is cluster-scoped; do not pass namespace ${JSON.stringify(namespace)}`);
    const root = kind.group ? `/apis/${kind.group}/${kind.version}` : `/api/${kind.version}`;
    return m.namespaced && namespace
      ? `${root}/namespaces/${encodeURIComponent(namespace)}/${m.resource}`
      : `${root}/${m.resource}`;
  }

  private async objectPath(
    kind: GroupVersionKind,
    namespace: string | undefined,
    name: string,
    subresource?: string,
  ): Promise<string> {
    if (!name) throw new Error(`${kind.kind}: a name is required`);
    const m = await this.mapper.mapping(kind);
    if (m.namespaced && !namespace)
      throw new Error(`${kind.kind} ${JSON.stringify(name)} is namespaced: a namespace is required`);
    const collection = await this.collectionPath(kind, namespace);
    return `${collection}/${encodeURIComponent(name)}${subresource ? `/${subresource}` : ''}`;
  }
}

function nameForWrite(obj: KubernetesObject): string {
  const name = obj.metadata?.name;
  if (!name) throw new ApiError(0, 'BadRequest', `object ${describe(obj)} of kind ${obj.kind} has no metadata.name`);
  return name;
}
