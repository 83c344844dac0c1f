// A cluster in memory for the reconciler and step unit tests (the garden or a seed): objects by
// `kind/namespace/name`, with what the API server does on get, create, patch (merge, apply and the status
// subresource; resourceVersion preconditions; a spec change raises the generation) and delete (finalizers keep the
// object with a deletionTimestamp until they are removed).
import { applyMergePatch, ApiError, type Patch } from '@gardener-ts/controller-runtime';

/** An object of the fake cluster: a kind and any fields, read without casts in the tests. */
export type FakeObject = { kind: string } & Record<string, any>;

type Kind = { kind: string };
type Key = { namespace?: string | undefined; name: string };

const objectKey = (kind: string, name: string | undefined, namespace: string | undefined) =>
  `${kind}/${namespace ?? ''}/${name}`;

/** The garden or a seed in memory; `calls` records every write as `<patch type>[/status] <Kind> <name>`. */
export class FakeCluster {
  readonly objects = new Map<string, FakeObject>();
  readonly calls: string[] = [];
  /** Runs before a patch is applied: a concurrent writer. */
  beforePatch?: (body: FakeObject) => void;
  /** Makes every write fail (an API server refusing). */
  failWrites?: Error;
  private rv = 1;

  /** Stores `o` as it is (a test's setup or another controller's write) with a new resourceVersion. */
  put(o: FakeObject): void {
    this.objects.set(objectKey(o.kind, o.metadata?.name, o.metadata?.namespace), {
      ...structuredClone(o),
      metadata: { ...o.metadata, resourceVersion: String(++this.rv) },
    });
  }

  /** The stored object itself (not a copy), or undefined. */
  find(kind: string, name: string, namespace = ''): FakeObject | undefined {
    return this.objects.get(objectKey(kind, name, namespace));
  }

  async get(kind: Kind, key: Key): Promise<FakeObject> {
    const o = this.find(kind.kind, key.name, key.namespace);
    if (!o) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
    return structuredClone(o);
  }

  async create(obj: FakeObject): Promise<FakeObject> {
    this.calls.push(`create ${obj.kind} ${obj.metadata?.name}`);
    if (this.failWrites) throw this.failWrites;
    const key = { name: obj.metadata?.name ?? '', namespace: obj.metadata?.namespace };
    if (this.find(obj.kind, key.name, key.namespace))
      throw new ApiError(409, 'AlreadyExists', `${obj.kind} ${key.name} already exists`);
    this.put({ ...obj, metadata: { ...obj.metadata, generation: 1 } });
    return this.get(obj, key);
  }

  async patch(kind: Kind, key: Key, patch: Patch, opts?: { subresource?: string }): Promise<FakeObject> {
    this.calls.push(`${patch.type}${opts?.subresource ? `/${opts.subresource}` : ''} ${kind.kind} ${key.name}`);
    if (this.failWrites) throw this.failWrites;
    const body = structuredClone(patch.patch) as FakeObject;
    this.beforePatch?.(body);
    const current = this.find(kind.kind, key.name, key.namespace);
    const precondition = body.metadata?.resourceVersion;
    if (precondition && precondition !== current?.metadata?.resourceVersion)
      throw new ApiError(409, 'Conflict', `${kind.kind} ${key.name} has been modified`);
    let next: FakeObject;
    if (patch.type === 'apply') {
      next = { ...current, ...body, metadata: { ...current?.metadata, ...body.metadata }, status: current?.status };
    } else {
      if (!current) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
      delete body.metadata?.resourceVersion;
      next = applyMergePatch(
        current,
        opts?.subresource === 'status' ? { status: body.status } : { ...body, status: undefined },
      ) as FakeObject;
      if (opts?.subresource !== 'status') next.status = current.status;
      if (next.metadata?.deletionTimestamp && !next.metadata.finalizers?.length) {
        this.objects.delete(objectKey(kind.kind, key.name, key.namespace));
        return next;
      }
    }
    const generation = current?.metadata?.generation;
    if (generation !== undefined && JSON.stringify(next.spec) !== JSON.stringify(current?.spec))
      next.metadata = { ...next.metadata, generation: generation + 1 };
    this.put(next);
    return this.get(kind, key);
  }

  async delete(kind: Kind, key: Key): Promise<void> {
    this.calls.push(`delete ${kind.kind} ${key.name}`);
    if (this.failWrites) throw this.failWrites;
    const current = this.find(kind.kind, key.name, key.namespace);
    if (!current) throw new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`);
    if (current.metadata?.finalizers?.length) {
      this.put({ ...current, metadata: { ...current.metadata, deletionTimestamp: '2026-11-29T12:00:00Z' } });
    } else this.objects.delete(objectKey(kind.kind, key.name, key.namespace));
  }
}
