// A seed in memory for the unit tests of the Worker's migrate and restore: get, list (namespace, label selector),
// create (AlreadyExists, uid, creationTimestamp), merge/apply patches (resourceVersion precondition, `null` removes),
// delete (a finalizer keeps the object with a deletionTimestamp). Every call is recorded. Test support only.
import { ApiError, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';

type Obj = KubernetesObject & Record<string, any>;

function merge(target: unknown, patch: unknown): unknown {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const result: Record<string, unknown> =
    target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as object) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = merge(result[key], value);
  }
  return result;
}

/** The seed in memory. */
export class MemoryClient implements Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'> {
  readonly objects = new Map<string, Obj>();
  readonly calls: { verb: string; kind: string; name: string; body?: unknown }[] = [];
  private version = 1;

  constructor(objects: Obj[] = []) {
    for (const obj of objects) this.put(structuredClone(obj));
  }

  private static key(kind: string, namespace: string | undefined, name: string): string {
    return `${kind}/${namespace ?? ''}/${name}`;
  }

  private put(obj: Obj): Obj {
    obj.metadata = {
      uid: `uid-${obj.metadata?.name}-${this.version}`,
      creationTimestamp: '2026-11-29T10:00:00Z',
      ...obj.metadata,
      resourceVersion: String(this.version++),
    };
    this.objects.set(MemoryClient.key(obj.kind!, obj.metadata.namespace, obj.metadata.name!), obj);
    return obj;
  }

  /** The stored object of a kind and name (a copy), if there is one. */
  find(kind: string, namespace: string, name: string): Obj | undefined {
    const obj = this.objects.get(MemoryClient.key(kind, namespace, name));
    return obj ? structuredClone(obj) : undefined;
  }

  /** The stored objects of a kind. */
  all(kind: string): Obj[] {
    return [...this.objects.values()].filter((o) => o.kind === kind).map((o) => structuredClone(o));
  }

  get = (async (kind: { kind: string }, key: { namespace?: string; name: string }) => {
    const obj = this.find(kind.kind, key.namespace ?? '', key.name);
    if (!obj) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
    return obj;
  }) as unknown as Client['get'];

  list = (async (
    kind: { kind: string },
    opts: { namespace?: string; labelSelector?: Record<string, string> } = {},
  ) => ({
    items: this.all(kind.kind).filter(
      (o) =>
        (opts.namespace === undefined || o.metadata?.namespace === opts.namespace) &&
        Object.entries(opts.labelSelector ?? {}).every(([k, v]) => o.metadata?.labels?.[k] === v),
    ),
  })) as unknown as Client['list'];

  create = (async (obj: Obj) => {
    this.calls.push({ verb: 'create', kind: obj.kind!, name: obj.metadata!.name!, body: obj });
    if (this.find(obj.kind!, obj.metadata!.namespace ?? '', obj.metadata!.name!)) {
      throw new ApiError(409, 'AlreadyExists', `${obj.kind} ${obj.metadata!.name} already exists`);
    }
    return structuredClone(this.put(structuredClone(obj)));
  }) as unknown as Client['create'];

  patch = (async (
    kind: { kind: string; group?: string; version?: string },
    key: { namespace?: string; name: string },
    body: { type: string; patch: any },
  ) => {
    this.calls.push({ verb: `patch:${body.type}`, kind: kind.kind, name: key.name, body: body.patch });
    const existing = this.find(kind.kind, key.namespace ?? '', key.name);
    if (!existing) {
      if (body.type !== 'apply') throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
      return structuredClone(this.put({ ...structuredClone(body.patch), kind: kind.kind }));
    }
    const precondition = body.patch?.metadata?.resourceVersion;
    if (precondition !== undefined && precondition !== existing.metadata?.resourceVersion) {
      throw new ApiError(409, 'Conflict', 'the object has been modified');
    }
    const patched = merge(existing, body.patch) as Obj;
    if (patched.metadata?.deletionTimestamp && (patched.metadata.finalizers ?? []).length === 0) {
      this.objects.delete(MemoryClient.key(kind.kind, key.namespace, key.name));
      return patched;
    }
    return structuredClone(this.put(patched));
  }) as unknown as Client['patch'];

  delete = (async (kind: { kind: string }, key: { namespace?: string; name: string }) => {
    this.calls.push({ verb: 'delete', kind: kind.kind, name: key.name });
    const existing = this.find(kind.kind, key.namespace ?? '', key.name);
    if (!existing) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
    if ((existing.metadata?.finalizers ?? []).length > 0) {
      this.put({ ...existing, metadata: { ...existing.metadata, deletionTimestamp: '2026-11-29T11:00:00Z' } });
    } else {
      this.objects.delete(MemoryClient.key(kind.kind, key.namespace, key.name));
    }
  }) as unknown as Client['delete'];
}
