// The informer cache: one shared informer per kind (and selector/namespace/metadata-only variant), created on first
// use, and a Reader that answers get/list from memory.
import type { Logger } from '@gardener-ts/logging';
import { ApiError } from '../client/api-error.js';
import type { ApiClient, Reader } from '../client/client.js';
import { gvkString, type GroupVersionKind, type Kind } from '../client/gvk.js';
import { selectorString, type ListOptions, type Selector } from '../client/options.js';
import type { KubernetesObject, ObjectKey, ObjectList } from '../client/types.js';
import { parseLabelSelector } from '../labels/selector.js';
import { SharedInformer, type InformerOptions } from './informer.js';
import { NAMESPACE_INDEX, type IndexFunc } from './store.js';

/** Which objects an informer holds: a namespace and selectors restrict it. */
export interface InformerScope {
  namespace?: string;
  labelSelector?: Selector;
  fieldSelector?: Selector;
}

export interface CacheOptions {
  /** Periodic resync of every informer (0: never). */
  resyncPeriodMs?: number;
  /** Per-kind scopes, e.g. cache only the Secrets with a certain label. */
  scopes?: { kind: GroupVersionKind; scope: InformerScope }[];
  log?: Logger;
}

export class InformerCache implements Reader {
  private readonly informers = new Map<string, SharedInformer<any>>();
  private signal?: AbortSignal;

  constructor(
    readonly client: ApiClient,
    private readonly options: CacheOptions = {},
  ) {}

  /** The informer of a kind, created (and started, if the cache runs) on first use. */
  informerFor<T extends KubernetesObject>(kind: Kind<T>): SharedInformer<T> {
    const key = informerKey(kind);
    let informer = this.informers.get(key) as SharedInformer<T> | undefined;
    if (!informer) {
      const scope = this.options.scopes?.find((s) => informerKey(s.kind) === key)?.scope ?? {};
      const informerOptions: InformerOptions = { ...scope, resyncPeriodMs: this.options.resyncPeriodMs, log: this.options.log };
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
    const informer = await this.synced(kind);
    const obj = informer.store.get(key.namespace ? `${key.namespace}/${key.name}` : key.name);
    if (!obj) {
      throw new ApiError(404, 'NotFound', `${kind.kind.toLowerCase()} ${JSON.stringify(key.name)} not found in cache`, { kind: kind.kind, name: key.name });
    }
    return obj;
  }

  /** Lists from the cache (frozen objects). `limit`/`continue` are not supported: the cache answers in one page. */
  async list<T extends KubernetesObject>(kind: Kind<T>, opts: ListOptions = {}): Promise<ObjectList<T>> {
    if (opts.limit || opts.continue) throw new Error('the cache lists everything at once; use the API client for paging');
    const informer = await this.synced(kind);
    const fields = fieldTerms(opts.fieldSelector);
    let items: T[];
    const indexed = Object.keys(fields).find((f) => informer.store.hasIndex(f));
    if (opts.namespace !== undefined && opts.namespace !== '') items = informer.store.byIndex(NAMESPACE_INDEX, opts.namespace);
    else if (indexed) items = informer.store.byIndex(indexed, fields[indexed]);
    else items = informer.store.list();

    const labels = opts.labelSelector === undefined ? undefined : parseLabelSelector(selectorString(opts.labelSelector)!);
    const fieldFilters = Object.entries(fields).map(([field, value]) => fieldFilter(informer, field, value));
    items = items.filter((o) => (!labels || labels(o.metadata?.labels)) && fieldFilters.every((f) => f(o)));
    return { apiVersion: kind.group ? `${kind.group}/${kind.version}` : kind.version, kind: `${kind.kind}List`, metadata: { resourceVersion: informer.lastSyncResourceVersion }, items };
  }

  private async synced<T extends KubernetesObject>(kind: Kind<T>): Promise<SharedInformer<T>> {
    const informer = this.informerFor(kind);
    if (!this.signal) throw new Error(`cache not started: cannot read ${gvkString(kind)}`);
    if (!(await informer.waitForSync(this.signal))) throw new Error(`cache stopped before ${gvkString(kind)} synced`);
    return informer;
  }
}

function informerKey(kind: GroupVersionKind & { metadataOnly?: boolean }): string {
  return `${gvkString(kind)}${kind.metadataOnly ? ' (metadata)' : ''}`;
}

function fieldTerms(selector: Selector | undefined): Record<string, string> {
  const s = selectorString(selector);
  if (!s) return {};
  const terms: Record<string, string> = {};
  for (const term of s.split(',')) {
    const m = /^\s*([^=!\s]+)\s*==?\s*(.*?)\s*$/.exec(term);
    if (!m) throw new Error(`the cache supports only field equality (field=value), got ${JSON.stringify(term)}`);
    terms[m[1]] = m[2];
  }
  return terms;
}

function fieldFilter<T extends KubernetesObject>(informer: SharedInformer<T>, field: string, value: string): (obj: T) => boolean {
  if (field === 'metadata.name') return (obj) => obj.metadata?.name === value;
  if (field === 'metadata.namespace') return (obj) => (obj.metadata?.namespace ?? '') === value;
  if (!informer.store.hasIndex(field)) {
    throw new Error(`no index for field ${JSON.stringify(field)} on ${gvkString(informer.kind)}: add one with cache.indexField(kind, ${JSON.stringify(field)}, fn)`);
  }
  const matching = new Set(informer.store.byIndex(field, value));
  return (obj) => matching.has(obj);
}
