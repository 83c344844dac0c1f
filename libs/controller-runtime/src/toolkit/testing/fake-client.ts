// An in-memory fake of the client calls the toolkit uses (get, patch with merge patches), with the API server's
// optimistic concurrency: a merge patch carrying `metadata.resourceVersion` fails with 409 when the object moved on.
// For the toolkit's unit tests; integration tests use the real local API server.
import { ApiError } from '../../client/api-error.js';
import type { Client, PatchOptions } from '../../client/client.js';
import type { Kind } from '../../client/gvk.js';
import type { Patch } from '../../client/options.js';
import type { KubernetesObject, ObjectKey, ObjectMeta } from '../../client/types.js';
import { applyMergePatch } from '../../client/merge-patch.js';

/** A fake client over a map of objects keyed `Kind/namespace/name`. */
export class FakeClient implements Pick<Client, 'get' | 'patch'> {
  readonly objects = new Map<string, KubernetesObject>();
  /** Every patch received, in order. */
  readonly patches: { kind: string; key: ObjectKey; patch: Patch; opts?: PatchOptions }[] = [];
  /** Called before each patch is applied: lets a test simulate a concurrent writer. */
  beforePatch?: (key: string) => void;
  private revision = 1;

  constructor(...objects: KubernetesObject[]) {
    for (const o of objects) this.put(o);
  }

  /** Stores `obj` as a new revision (a write by "someone else"). */
  put<T extends KubernetesObject>(obj: T): T & { metadata: ObjectMeta } {
    const stored = structuredClone(obj);
    stored.metadata = { ...stored.metadata, resourceVersion: String(++this.revision) };
    this.objects.set(keyOf(stored.kind ?? '', stored.metadata), stored);
    return structuredClone(stored) as T & { metadata: ObjectMeta };
  }

  /** Removes the object (as if deleted). */
  remove(obj: KubernetesObject): void {
    this.objects.delete(keyOf(obj.kind ?? '', obj.metadata ?? {}));
  }

  stored<T extends KubernetesObject>(obj: KubernetesObject): T | undefined {
    const o = this.objects.get(keyOf(obj.kind ?? '', obj.metadata ?? {}));
    return o ? (structuredClone(o) as T) : undefined;
  }

  get<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey): Promise<T> {
    const o = this.objects.get(keyOf(kind.kind, key));
    if (!o) return Promise.reject(new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`));
    return Promise.resolve(structuredClone(o) as T);
  }

  patch<T extends KubernetesObject>(kind: Kind<T>, key: ObjectKey, patch: Patch, opts?: PatchOptions): Promise<T> {
    this.patches.push({ kind: kind.kind, key, patch: structuredClone(patch), opts });
    const k = keyOf(kind.kind, key);
    this.beforePatch?.(k);
    const current = this.objects.get(k);
    if (!current) return Promise.reject(new ApiError(404, 'NotFound', `${kind.kind} ${key.name} not found`));
    if (patch.type !== 'merge')
      return Promise.reject(new Error(`fake client: ${patch.type} patches are not supported`));
    const body = structuredClone(patch.patch) as { metadata?: { resourceVersion?: string }; status?: unknown };
    const precondition = body.metadata?.resourceVersion;
    if (precondition && precondition !== current.metadata?.resourceVersion) {
      return Promise.reject(
        new ApiError(
          409,
          'Conflict',
          `Operation cannot be fulfilled on ${kind.kind} "${key.name}": the object has been modified`,
        ),
      );
    }
    if (body.metadata) delete body.metadata.resourceVersion;
    const applied = (
      opts?.subresource === 'status'
        ? applyMergePatch(current, { status: body.status })
        : applyMergePatch(current, { ...body, status: undefined })
    ) as KubernetesObject;
    if (opts?.subresource !== 'status')
      (applied as { status?: unknown }).status = (current as { status?: unknown }).status;
    if (applied.metadata?.deletionTimestamp && !applied.metadata.finalizers?.length) {
      // The API server deletes an object being deleted once its last finalizer is gone.
      this.objects.delete(k);
      return Promise.resolve(structuredClone(applied) as T);
    }
    return Promise.resolve(this.put(applied) as T);
  }
}

function keyOf(kind: string, key: { namespace?: string; name?: string }): string {
  return `${kind}/${key.namespace ?? ''}/${key.name ?? ''}`;
}
