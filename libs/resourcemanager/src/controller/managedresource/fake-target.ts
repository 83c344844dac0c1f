// A fake target cluster for the unit tests of the apply and delete steps and the reconcilers: objects in a map, a
// table of served kinds, the writes recorded in order. Not exported from the package.
import {
  applyMergePatch,
  ApiError,
  apiVersionOf,
  kind as kindOf,
  NoKindMatchError,
  type Client,
  type Kind,
  type KubernetesObject,
  type ObjectKey,
  type ObjectList,
  type Patch,
  type WriteOptions,
} from '@gardener-ts/controller-runtime';
import type { KindInfo } from '../../target.js';
import type { TargetAccess } from './target-access.js';

type Obj = Record<string, any>;

/** Kinds the fake serves: `apiVersion/Kind` → namespaced. */
export const DEFAULT_KINDS: Record<string, boolean> = {
  'v1/ConfigMap': true,
  'v1/Secret': true,
  'v1/Service': true,
  'v1/Namespace': false,
  'v1/PersistentVolumeClaim': true,
  'apps/v1/Deployment': true,
  'apps/v1/StatefulSet': true,
  'rbac.authorization.k8s.io/v1/ClusterRole': false,
  'apiextensions.k8s.io/v1/CustomResourceDefinition': false,
  'autoscaling/v2/HorizontalPodAutoscaler': true,
  'resources.gardener.cloud/v1alpha1/ManagedResource': true,
};

/** A recorded write. */
export interface Write {
  verb: 'create' | 'update' | 'dry-run' | 'patch' | 'delete' | 'deleteAllOf';
  key: string;
  body?: unknown;
  opts?: unknown;
}

const keyOf = (
  apiVersion: string | undefined,
  kind: string | undefined,
  namespace: string | undefined,
  name: string | undefined,
) => `${(apiVersion ?? '').includes('/') ? apiVersion!.split('/')[0] : ''}/${kind}/${namespace ?? ''}/${name ?? ''}`;

/** The fake: a `TargetAccess` whose `cluster.api` is an in-memory `Client`. */
export class FakeTarget implements TargetAccess {
  readonly objects = new Map<string, Obj>();
  readonly writes: Write[] = [];
  /** Make a write fail: return the error to throw. */
  failWrite?: (verb: Write['verb'], obj: Obj) => Error | undefined;
  private revision = 100;
  readonly cluster: { api: Client; cache: { list: Client['list'] } };

  constructor(
    objects: Obj[] = [],
    private readonly kinds: Record<string, boolean> = DEFAULT_KINDS,
  ) {
    for (const o of objects) this.store(o);
    const api: Client = {
      get: (k, key) => this.apiGet(k, key),
      list: (k, opts) => this.apiList(k, opts?.namespace, opts?.labelSelector as Record<string, string> | undefined),
      create: (obj, opts) => this.create(obj, opts),
      update: (obj, opts) => this.update(obj, opts),
      updateStatus: (obj) => this.update(obj),
      patch: (k, key, patch) => this.patch(k, key, patch),
      delete: (k, key, opts) => this.delete(k, key, opts),
      deleteAllOf: (k, opts) =>
        this.deleteAllOf(k, opts?.namespace, opts?.labelSelector as Record<string, string> | undefined),
    };
    this.cluster = { api, cache: { list: api.list } };
  }

  /** Puts an object as it would be after a write by someone else. */
  store(o: Obj): Obj {
    const copy: Obj = structuredClone(o);
    copy.metadata = {
      ...copy.metadata,
      resourceVersion: String(++this.revision),
      uid: copy.metadata?.uid ?? `uid-${this.revision}`,
    };
    this.objects.set(keyOf(copy.apiVersion, copy.kind, copy.metadata.namespace, copy.metadata.name), copy);
    return structuredClone(copy);
  }

  /** The stored object, or undefined. */
  find(apiVersion: string, kind: string, namespace: string | undefined, name: string): Obj | undefined {
    const o = this.objects.get(keyOf(apiVersion, kind, namespace, name));
    return o ? structuredClone(o) : undefined;
  }

  kindInfo(apiVersion: string, kind: string): Promise<KindInfo> {
    const namespaced = this.kinds[`${apiVersion}/${kind}`];
    if (namespaced === undefined) return Promise.reject(new NoKindMatchError({ ...kindOf(apiVersion, kind) }));
    return Promise.resolve({ kind: kindOf(apiVersion, kind), namespaced });
  }

  watch(): Promise<void> {
    return Promise.resolve();
  }

  get(k: Kind<KubernetesObject>, namespace: string | undefined, name: string): Promise<Obj | undefined> {
    return Promise.resolve(this.find(apiVersionOf(k), k.kind, namespace, name));
  }

  getLive(k: Kind<KubernetesObject>, namespace: string | undefined, name: string): Promise<Obj | undefined> {
    return this.get(k, namespace, name);
  }

  private apiGet<T extends KubernetesObject>(k: Kind<T>, key: ObjectKey): Promise<T> {
    const o = this.find(apiVersionOf(k), k.kind, key.namespace, key.name);
    return o
      ? Promise.resolve(o as T)
      : Promise.reject(new ApiError(404, 'NotFound', `${k.kind} "${key.name}" not found`));
  }

  private apiList<T extends KubernetesObject>(
    k: Kind<T>,
    namespace?: string,
    labels?: Record<string, string>,
  ): Promise<ObjectList<T>> {
    const items = [...this.objects.values()]
      .filter(
        (o) =>
          o.kind === k.kind && apiVersionOf(k) === o.apiVersion && (!namespace || o.metadata?.namespace === namespace),
      )
      .filter((o) => Object.entries(labels ?? {}).every(([l, v]) => o.metadata?.labels?.[l] === v))
      .map((o) => structuredClone(o) as T);
    return Promise.resolve({ metadata: {}, items });
  }

  private fail(verb: Write['verb'], obj: Obj): void {
    const err = this.failWrite?.(verb, obj);
    if (err) throw err;
  }

  private async create<T extends KubernetesObject>(obj: T, opts?: WriteOptions): Promise<T> {
    const o = obj as Obj;
    const key = keyOf(o.apiVersion, o.kind, o.metadata?.namespace, o.metadata?.name);
    this.writes.push({ verb: 'create', key, body: structuredClone(obj), opts });
    this.fail('create', o);
    if (this.objects.has(key))
      throw new ApiError(409, 'AlreadyExists', `${o.kind} "${o.metadata?.name}" already exists`);
    return Promise.resolve(this.store(o) as T);
  }

  private async update<T extends KubernetesObject>(obj: T, opts?: WriteOptions): Promise<T> {
    const o = obj as Obj;
    const key = keyOf(o.apiVersion, o.kind, o.metadata?.namespace, o.metadata?.name);
    this.writes.push({ verb: opts?.dryRun ? 'dry-run' : 'update', key, body: structuredClone(obj), opts });
    this.fail(opts?.dryRun ? 'dry-run' : 'update', o);
    const current = this.objects.get(key);
    if (!current) throw new ApiError(404, 'NotFound', `${o.kind} "${o.metadata?.name}" not found`);
    if (o.metadata?.resourceVersion && o.metadata.resourceVersion !== current.metadata?.resourceVersion) {
      throw new ApiError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${o.kind} "${o.metadata?.name}": the object has been modified`,
      );
    }
    if (opts?.dryRun)
      return Promise.resolve({
        ...structuredClone(o),
        metadata: { ...o.metadata, resourceVersion: current.metadata.resourceVersion },
      } as T);
    return Promise.resolve(this.store({ ...o, metadata: { ...o.metadata, uid: current.metadata.uid } }) as T);
  }

  private async patch<T extends KubernetesObject>(k: Kind<T>, key: ObjectKey, patch: Patch): Promise<T> {
    const k2 = keyOf(apiVersionOf(k), k.kind, key.namespace, key.name);
    this.writes.push({ verb: 'patch', key: k2, body: structuredClone(patch) });
    const current = this.objects.get(k2);
    if (!current) throw new ApiError(404, 'NotFound', `${k.kind} "${key.name}" not found`);
    if (patch.type !== 'merge') throw new Error(`fake target: ${patch.type} patches are not supported`);
    this.fail('patch', current);
    return Promise.resolve(this.store(applyMergePatch(current, patch.patch) as Obj) as T);
  }

  private async delete(k: Kind, key: ObjectKey, opts?: unknown): Promise<void> {
    const k2 = keyOf(apiVersionOf(k), k.kind, key.namespace, key.name);
    this.writes.push({ verb: 'delete', key: k2, opts });
    const current = this.objects.get(k2);
    if (!current) throw new ApiError(404, 'NotFound', `${k.kind} "${key.name}" not found`);
    this.fail('delete', current);
    if (current.metadata?.finalizers?.length) {
      this.store({ ...current, metadata: { ...current.metadata, deletionTimestamp: '2026-11-25T00:00:00Z' } });
    } else {
      this.objects.delete(k2);
    }
    return Promise.resolve();
  }

  private async deleteAllOf(k: Kind, namespace?: string, labels?: Record<string, string>): Promise<void> {
    this.writes.push({ verb: 'deleteAllOf', key: `${k.kind}/${namespace ?? ''}`, opts: labels });
    for (const o of (await this.apiList(k, namespace, labels)).items as Obj[]) {
      this.objects.delete(keyOf(o.apiVersion, o.kind, o.metadata?.namespace, o.metadata?.name));
    }
  }
}
