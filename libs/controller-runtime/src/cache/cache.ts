// The informer cache: one shared informer per kind (and selector/namespace/metadata-only variant), created on first
// use, and a Reader that answers get/list from memory.
import { parseFieldSelector } from '@gardener-ts/api';
import type { Logger } from '@gardener-ts/logging';
import { ApiError } from '../client/api-error.js';
import type { ApiClient, Reader } from '../client/client.js';
import { gvkString, type GroupVersionKind, type Kind } from '../client/gvk.js';
import { fieldSelectorString, selectorString, type ListOptions, type Selector } from '../client/options.js';
import type { KubernetesObject, ObjectKey, ObjectList } from '../client/types.js';
import { parseLabelSelector } from '../labels/selector.js';
import { SharedInformer, type InformerOptions } from './informer.js';
import { NAMESPACE_INDEX, type IndexFunc } from './store.js';

/** Which objects an informer holds: a namespace and selectors restrict it. */
export interface InformerScope {
  namespace?: string;
  /**
   * controller-runtime's `ByObject[kind].Namespaces`: this kind is cached only in these namespaces (one list/watch
   * each, merged), whatever `defaultNamespaces` says; reads elsewhere fail as with `defaultNamespaces`. Overrides
   * `namespace`. Empty (or containing '') means all namespaces.
   */
  namespaces?: string[];
  labelSelector?: Selector;
  fieldSelector?: Selector;
}

export interface CacheOptions {
  /** Periodic resync of every informer (0: never). */
  resyncPeriodMs?: number;
  /** Per-kind scopes, e.g. cache only the Secrets with a certain label. A kind with a scope ignores `defaultNamespaces`. */
  scopes?: { kind: GroupVersionKind; scope: InformerScope }[];
  /**
   * controller-runtime's `DefaultNamespaces`: every namespaced kind without its own scope is cached only in these
   * namespaces (one list/watch per namespace, merged into one informer); cluster-scoped kinds stay cluster-wide.
   * Whether a kind is namespaced comes from API discovery. Empty (or containing '') means all namespaces. Reads of
   * other namespaces fail with controller-runtime's `unable to get: <ns>/<name> because of unknown namespace for the
   * cache` (list: `unable to list: <ns> ...`).
   */
  defaultNamespaces?: string[];
  log?: Logger;
}

export class InformerCache implements Reader {
  private readonly informers = new Map<string, SharedInformer<any>>();
  /** Discovery's answer per kind: namespaced or not (failed lookups are forgotten, so CRDs added later are found). */
  private readonly namespacedKinds = new Map<string, Promise<boolean>>();
  private readonly defaultNamespaces?: string[];
  private signal?: AbortSignal;

  constructor(
    readonly client: ApiClient,
    private readonly options: CacheOptions = {},
  ) {
    this.defaultNamespaces = namespaceList(options.defaultNamespaces);
  }

  /** Whether the kind is namespaced, from API discovery (cached); throws a clear error for a kind discovery does not know. */
  isNamespaced(kind: GroupVersionKind): Promise<boolean> {
    const key = gvkString(kind);
    let known = this.namespacedKinds.get(key);
    if (!known) {
      known = this.client.mapping(kind).then(
        (m) => m.namespaced,
        (err: unknown) => {
          this.namespacedKinds.delete(key);
          throw new Error(
            `cannot tell whether ${key} is namespaced for the cache's default namespaces: ${(err as Error).message}`,
            { cause: err },
          );
        },
      );
      this.namespacedKinds.set(key, known);
    }
    return known;
  }

  /** The namespaces a kind is restricted to by `defaultNamespaces` (undefined: not restricted). */
  private async restrictedTo(kind: GroupVersionKind): Promise<string[] | undefined> {
    const own = this.ownScope(kind);
    if (own) return namespaceList(own.namespaces);
    if (!this.defaultNamespaces) return undefined;
    return (await this.isNamespaced(kind)) ? this.defaultNamespaces : undefined;
  }

  private ownScope(kind: GroupVersionKind): InformerScope | undefined {
    const key = informerKey(kind);
    return this.options.scopes?.find((s) => informerKey(s.kind) === key)?.scope;
  }

  /** The informer of a kind, created (and started, if the cache runs) on first use. */
  informerFor<T extends KubernetesObject>(kind: Kind<T>): SharedInformer<T> {
    const key = informerKey(kind);
    let informer = this.informers.get(key) as SharedInformer<T> | undefined;
    if (!informer) {
      const own = this.ownScope(kind);
      const { namespaces, ...scope } = own ?? {};
      const informerOptions: InformerOptions = {
        ...scope,
        resyncPeriodMs: this.options.resyncPeriodMs,
        log: this.options.log,
      };
      if (namespaceList(namespaces)) informerOptions.namespaces = namespaceList(namespaces);
      if (!own && this.defaultNamespaces) informerOptions.namespaces = () => this.restrictedTo(kind);
      informer = new SharedInformer<T>(this.client, kind, informerOptions);
      this.informers.set(key, informer);
      if (this.signal) informer.start(this.signal);
    }
    return informer;
  }

  /** Indexes cached objects of `kind` by `fn`; list with `fieldSelector: { [name]: value }` uses the index. */
  indexField<T extends KubernetesObject>(kind: Kind<T>, name: string, fn: IndexFunc<T>): void {
    this.informerFor(kind).addIndex(name, fn);
  }

  /** Starts every informer, now and as they are created, until the signal aborts. */
  start(signal: AbortSignal): void {
    this.signal = signal;
    for (const informer of this.informers.values()) informer.start(signal);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }

  /** Resolves true once every informer has synced; false if the signal aborts first. */
  async waitForSync(signal?: AbortSignal): Promise<boolean> {
    const results = await Promise.all([...this.informers.values()].map((i) => i.waitForSync(signal)));
    return results.every(Boolean);
  }

  get hasSynced(): boolean {
    return [...this.informers.values()].every((i) => i.hasSynced);
  }

  /**
   * Reads one object from the cache; waits for the kind's informer to sync first. The object is shared and
   * frozen: copy it (`structuredClone`) before changing it.
   */
  async get<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey): Promise<T> {
    const restricted = await this.restrictedTo(kind);
    if (restricted && !restricted.includes(key.namespace ?? '')) {
      throw new Error(`unable to get: ${key.namespace ?? ''}/${key.name} because of unknown namespace for the cache`);
    }
    const informer = await this.synced(kind);
    const obj = informer.store.get(key.namespace ? `${key.namespace}/${key.name}` : key.name);
    if (!obj) {
      throw new ApiError(404, 'NotFound', `${kind.kind.toLowerCase()} ${JSON.stringify(key.name)} not found in cache`, {
        kind: kind.kind,
        name: key.name,
      });
    }
    return obj;
  }

  /** Lists from the cache (frozen objects). `limit`/`continue` are not supported: the cache answers in one page. */
  async list<T extends KubernetesObject>(kind: Kind<T>, opts: ListOptions = {}): Promise<ObjectList<T>> {
    if (opts.limit || opts.continue)
      throw new Error('the cache lists everything at once; use the API client for paging');
    const restricted = await this.restrictedTo(kind);
    if (restricted && opts.namespace && !restricted.includes(opts.namespace)) {
      throw new Error(`unable to list: ${opts.namespace} because of unknown namespace for the cache`);
    }
    const informer = await this.synced(kind);
    const fields = fieldTerms(opts.fieldSelector);
    let items: T[];
    const indexed = Object.keys(fields).find((f) => informer.store.hasIndex(f));
    if (opts.namespace !== undefined && opts.namespace !== '')
      items = informer.store.byIndex(NAMESPACE_INDEX, opts.namespace);
    else if (indexed) items = informer.store.byIndex(indexed, fields[indexed]);
    else items = informer.store.list();

    const labels =
      opts.labelSelector === undefined ? undefined : parseLabelSelector(selectorString(opts.labelSelector)!);
    const fieldFilters = Object.entries(fields).map(([field, value]) => fieldFilter(informer, field, value));
    items = items.filter((o) => (!labels || labels(o.metadata?.labels)) && fieldFilters.every((f) => f(o)));
    return {
      apiVersion: kind.group ? `${kind.group}/${kind.version}` : kind.version,
      kind: `${kind.kind}List`,
      metadata: { resourceVersion: informer.lastSyncResourceVersion },
      items,
    };
  }

  private async synced<T extends KubernetesObject>(kind: Kind<T>): Promise<SharedInformer<T>> {
    const informer = this.informerFor(kind);
    if (!this.signal) throw new Error(`cache not started: cannot read ${gvkString(kind)}`);
    if (!(await informer.waitForSync(this.signal))) throw new Error(`cache stopped before ${gvkString(kind)} synced`);
    return informer;
  }
}

/** A namespace restriction, deduplicated; undefined when it means all namespaces (none given, or ''). */
function namespaceList(namespaces: string[] | undefined): string[] | undefined {
  return !namespaces?.length || namespaces.includes('') ? undefined : [...new Set(namespaces)];
}

function informerKey(kind: GroupVersionKind & { metadataOnly?: boolean }): string {
  return `${gvkString(kind)}${kind.metadataOnly ? ' (metadata)' : ''}`;
}

function fieldTerms(selector: Selector | undefined): Record<string, string> {
  const s = fieldSelectorString(selector);
  if (!s) return {};
  const terms: Record<string, string> = {};
  for (const requirement of parseFieldSelector(s)) {
    if (requirement.operator !== '=')
      throw new Error(
        `the cache supports only field equality (field=value), got ${JSON.stringify(`${requirement.field}!=${requirement.value}`)}`,
      );
    terms[requirement.field] = requirement.value;
  }
  return terms;
}

function fieldFilter<T extends KubernetesObject>(
  informer: SharedInformer<T>,
  field: string,
  value: string,
): (obj: T) => boolean {
  if (field === 'metadata.name') return (obj) => obj.metadata?.name === value;
  if (field === 'metadata.namespace') return (obj) => (obj.metadata?.namespace ?? '') === value;
  if (!informer.store.hasIndex(field)) {
    throw new Error(
      `no index for field ${JSON.stringify(field)} on ${gvkString(informer.kind)}: add one with cache.indexField(kind, ${JSON.stringify(field)}, fn)`,
    );
  }
  const matching = new Set(informer.store.byIndex(field, value));
  return (obj) => matching.has(obj);
}
