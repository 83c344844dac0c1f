// The informer's object store: objects by `namespace/name`, plus indexes (namespace built in, custom by function).
import type { KubernetesObject } from '../client/types.js';

/** Index values of an object; an object can be listed under several values or none. */
export type IndexFunc<T extends KubernetesObject = KubernetesObject> = (obj: T) => string[];

export const NAMESPACE_INDEX = 'namespace';

export function objectKey(obj: KubernetesObject): string {
  const m = obj.metadata ?? {};
  return m.namespace ? `${m.namespace}/${m.name}` : (m.name ?? '');
}

export class Store<T extends KubernetesObject = KubernetesObject> {
  private readonly items = new Map<string, T>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  /** index name → index value → object keys */
  private readonly indices = new Map<string, Map<string, Set<string>>>();

  constructor() {
    this.addIndex(NAMESPACE_INDEX, (obj) => [obj.metadata?.namespace ?? '']);
  }

  get size(): number {
    return this.items.size;
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  list(): T[] {
    return [...this.items.values()];
  }

  keys(): IterableIterator<string> {
    return this.items.keys();
  }

  hasIndex(name: string): boolean {
    return this.indexers.has(name);
  }

  /** Adds an index; objects already stored are indexed at once. */
  addIndex(name: string, fn: IndexFunc<T>): void {
    if (this.indexers.has(name)) throw new Error(`index ${JSON.stringify(name)} already exists`);
    this.indexers.set(name, fn);
    this.indices.set(name, new Map());
    for (const [key, obj] of this.items) this.indexOne(name, fn, key, obj);
  }

  byIndex(name: string, value: string): T[] {
    const index = this.indices.get(name);
    if (!index) throw new Error(`no index named ${JSON.stringify(name)}`);
    return [...(index.get(value) ?? [])].map((key) => this.items.get(key)!);
  }

  /** Stores `obj`, returning what it replaced. */
  upsert(obj: T): T | undefined {
    const key = objectKey(obj);
    const old = this.items.get(key);
    if (old) this.unindex(key, old);
    this.items.set(key, obj);
    for (const [name, fn] of this.indexers) this.indexOne(name, fn, key, obj);
    return old;
  }

  remove(key: string): T | undefined {
    const old = this.items.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.items.delete(key);
    return old;
  }

  private indexOne(name: string, fn: IndexFunc<T>, key: string, obj: T): void {
    const index = this.indices.get(name)!;
    for (const value of fn(obj)) {
      let keys = index.get(value);
      if (!keys) index.set(value, (keys = new Set()));
      keys.add(key);
    }
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indices.get(name)!;
      for (const value of fn(obj)) {
        const keys = index.get(value);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(value);
      }
    }
  }
}
