// Test support for the controller-manager's reconcilers: an in-memory garden with the client calls they make (get,
// list by namespace and label selector, create (generateName honoured), update and merge patch with the API server's
// resourceVersion precondition, the status subresource, delete). Only tests import it; integration tests use the real
// local API server.
import {
  applyMergePatch,
  ApiError,
  parseLabelSelector,
  type Client,
  type KubernetesObject,
  type ObjectKey,
} from '@gardener-ts/controller-runtime';

const keyOf = (kind: string, key: { namespace?: string; name?: string }) =>
  `${kind}/${key.namespace ?? ''}/${key.name ?? ''}`;

/** Objects by kind/namespace/name; every write is recorded as `<verb> <Kind> <namespace>/<name>`. */
export class FakeGarden implements Pick<Client, 'get' | 'list' | 'create' | 'update' | 'patch' | 'delete'> {
  readonly objects = new Map<string, KubernetesObject>();
  readonly writes: string[] = [];
  private revision = 1;
  private generated = 0;

  constructor(...objects: KubernetesObject[]) {
    for (const o of objects) this.put(o);
  }

  /** Stores `obj` as a new revision (a write by someone else). */
  put<T extends KubernetesObject>(obj: T): T {
    const stored = structuredClone(obj);
    stored.metadata = { ...stored.metadata, resourceVersion: String(++this.revision) };
    this.objects.set(keyOf(stored.kind ?? '', stored.metadata), stored);
    return structuredClone(stored);
  }

  find<T extends KubernetesObject>(kind: string, namespace: string, name: string): T | undefined {
    const o = this.objects.get(keyOf(kind, { namespace, name }));
    return o && (structuredClone(o) as T);
  }

  get = (async (kind: { kind: string }, key: ObjectKey) => {
    const o = this.objects.get(keyOf(kind.kind, key));
    if (!o) throw new ApiError(404, 'NotFound', `${kind.kind} "${key.name}" not found`);
    return structuredClone(o);
  }) as Client['get'];

  list = (async (kind: { kind: string }, opts: { namespace?: string; labelSelector?: string } = {}) => {
    const matches = parseLabelSelector(opts.labelSelector ?? '');
    return {
      items: [...this.objects.values()]
        .filter((o) => o.kind === kind.kind && (!opts.namespace || o.metadata?.namespace === opts.namespace))
        .filter((o) => matches(o.metadata?.labels))
        .map((o) => structuredClone(o)),
    };
  }) as unknown as Client['list'];

  create = (async (obj: KubernetesObject) => {
    const name = obj.metadata?.name ?? `${obj.metadata?.generateName ?? ''}${++this.generated}`;
    const named = { ...obj, metadata: { ...obj.metadata, name } };
    this.writes.push(`create ${obj.kind} ${obj.metadata?.namespace ?? ''}/${name}`);
    if (this.objects.has(keyOf(obj.kind ?? '', named.metadata))) throw new ApiError(409, 'AlreadyExists', 'exists');
    return this.put(named);
  }) as Client['create'];

  /** Replaces the object; a resourceVersion in `obj` must be the stored one. */
  update = (async (obj: KubernetesObject) => {
    this.writes.push(`update ${obj.kind} ${obj.metadata?.namespace ?? ''}/${obj.metadata?.name}`);
    const current = this.objects.get(keyOf(obj.kind ?? '', obj.metadata ?? {}));
    if (!current) throw new ApiError(404, 'NotFound', `${obj.kind} "${obj.metadata?.name}" not found`);
    const precondition = obj.metadata?.resourceVersion;
    if (precondition && precondition !== current.metadata?.resourceVersion)
      throw new ApiError(409, 'Conflict', `the object has been modified`);
    return this.put(obj);
  }) as Client['update'];

  patch = (async (
    kind: { kind: string },
    key: ObjectKey,
    p: { type: string; patch: unknown },
    opts?: { subresource?: string },
  ) => {
    this.writes.push(
      `patch${opts?.subresource ? `/${opts.subresource}` : ''} ${kind.kind} ${key.namespace ?? ''}/${key.name}`,
    );
    const current = this.objects.get(keyOf(kind.kind, key));
    if (!current) throw new ApiError(404, 'NotFound', `${kind.kind} "${key.name}" not found`);
    if (p.type !== 'merge') throw new Error(`fake garden: ${p.type} patches are not supported`);
    const body = structuredClone(p.patch) as { metadata?: { resourceVersion?: string }; status?: unknown };
    const precondition = body.metadata?.resourceVersion;
    if (precondition && precondition !== current.metadata?.resourceVersion)
      throw new ApiError(409, 'Conflict', `the object has been modified`);
    if (body.metadata) delete body.metadata.resourceVersion;
    const status = (current as { status?: unknown }).status;
    const applied = (
      opts?.subresource === 'status'
        ? applyMergePatch(current, { status: body.status })
        : {
            ...(applyMergePatch(current, { ...body, status: undefined }) as object),
            ...(status === undefined ? {} : { status }),
          }
    ) as KubernetesObject;
    return this.put(applied);
  }) as unknown as Client['patch'];

  /** Deletes the object, or marks it deleted while it has finalizers (as the API server does). */
  delete = (async (kind: { kind: string }, key: ObjectKey) => {
    this.writes.push(`delete ${kind.kind} ${key.namespace ?? ''}/${key.name}`);
    const k = keyOf(kind.kind, key);
    const current = this.objects.get(k);
    if (!current) throw new ApiError(404, 'NotFound', `${kind.kind} "${key.name}" not found`);
    if (current.metadata?.finalizers?.length) {
      this.put({ ...current, metadata: { ...current.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } });
    } else this.objects.delete(k);
  }) as Client['delete'];
}
