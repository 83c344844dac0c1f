// Finalizers without races: add and remove with optimistic concurrency (the patch carries the resourceVersion read; on
// 409 the object is read again and the change re-applied), and `finalize()` — kube-rs's `finalizer()` — which adds
// the finalizer before the apply branch and runs the cleanup branch, then removes the finalizer, once deletion started.
import { isConflict, isNotFound } from '../client/api-error.js';
import type { Client } from '../client/client.js';
import { gvkOf, type Kind } from '../client/gvk.js';
import type { KubernetesObject } from '../client/types.js';
import type { ReconcileResult } from '../controller/reconciler.js';
import { MAX_CONFLICT_RETRIES, liveReader, withKind } from './operation.js';

/** The client calls the finalizer helpers need. */
export type FinalizerClient = Pick<Client, 'get' | 'patch'>;

/** Whether `obj` lists the finalizer `name`. */
export function hasFinalizer(obj: KubernetesObject, name: string): boolean {
  return obj.metadata?.finalizers?.includes(name) ?? false;
}

/** Whether deletion of `obj` has started (`metadata.deletionTimestamp` is set). */
export function isBeingDeleted(obj: KubernetesObject): boolean {
  return Boolean(obj.metadata?.deletionTimestamp);
}

/**
 * Adds the finalizer `name` to `obj` (a no-op returning `obj` when it is there). The merge patch carries `obj`'s
 * resourceVersion, so a concurrent writer's finalizer is never overwritten: on 409 the object is read again and the
 * finalizer added to what is there now. Returns the object as written. Throws NotFound when the object is gone.
 */
export function addFinalizer<T extends KubernetesObject>(client: FinalizerClient, obj: T, name: string): Promise<T> {
  return patchFinalizers(
    client,
    obj,
    (finalizers) => (finalizers.includes(name) ? undefined : [...finalizers, name]),
    false,
  );
}

/**
 * Removes the finalizer `name` from `obj` (a no-op returning `obj` when it is not there), race-free like
 * `addFinalizer`. A gone object is not an error: `obj` is returned.
 */
export function removeFinalizer<T extends KubernetesObject>(client: FinalizerClient, obj: T, name: string): Promise<T> {
  return patchFinalizers(
    client,
    obj,
    (finalizers) => (finalizers.includes(name) ? finalizers.filter((f) => f !== name) : undefined),
    true,
  );
}

async function patchFinalizers<T extends KubernetesObject>(
  client: FinalizerClient,
  obj: T,
  change: (finalizers: string[]) => string[] | undefined,
  goneIsDone: boolean,
): Promise<T> {
  const kind = gvkOf(obj) as Kind<T>;
  const key = { namespace: obj.metadata?.namespace, name: obj.metadata?.name ?? '' };
  let current: T = obj;
  if (!current.metadata?.resourceVersion) {
    // Without a resourceVersion the patch would have no precondition: read the object to get one.
    try {
      current = withKind(await liveReader(client).get(kind, key), obj);
    } catch (err) {
      if (goneIsDone && isNotFound(err)) return obj;
      throw err;
    }
  }
  for (let attempt = 0; ; attempt++) {
    const next = change(current.metadata?.finalizers ?? []);
    if (!next) return current;
    try {
      const patched = await client.patch(kind, key, {
        type: 'merge',
        patch: { metadata: { resourceVersion: current.metadata?.resourceVersion, finalizers: next } },
      });
      return withKind(patched, obj);
    } catch (err) {
      if (goneIsDone && isNotFound(err)) return current;
      if (!isConflict(err) || attempt >= MAX_CONFLICT_RETRIES) throw err;
      try {
        current = withKind(await liveReader(client).get(kind, key), obj);
      } catch (readErr) {
        if (goneIsDone && isNotFound(readErr)) return current;
        throw readErr;
      }
    }
  }
}

/** The two branches of `finalize`. */
export interface FinalizeBranches<T extends KubernetesObject> {
  /** The object exists and is not being deleted; it carries the finalizer when this runs. */
  apply: (obj: T) => Promise<ReconcileResult | void>;
  /**
   * Deletion started and the finalizer is still there. Return nothing when cleanup is complete (the finalizer is then
   * removed); return `{ requeue }`/`{ requeueAfter }` when it is still in progress (the finalizer stays). Throw to
   * retry with back-off.
   */
  cleanup: (obj: T) => Promise<ReconcileResult | void>;
}

/**
 * kube-rs's `finalizer()` for a reconciler: when `obj` is not being deleted, adds the finalizer `name` (if missing) and
 * runs `apply` with the updated object; when it is being deleted and still has the finalizer, runs `cleanup` and removes
 * the finalizer once cleanup reports completion; when it is being deleted without the finalizer, does nothing.
 * Returns the branch's result.
 */
export async function finalize<T extends KubernetesObject>(
  client: FinalizerClient,
  obj: T,
  name: string,
  branches: FinalizeBranches<T>,
): Promise<ReconcileResult | void> {
  if (isBeingDeleted(obj)) {
    if (!hasFinalizer(obj, name)) return;
    const result = await branches.cleanup(obj);
    if (result && (result.requeue || (result.requeueAfter ?? 0) > 0)) return result;
    await removeFinalizer(client, obj, name);
    return;
  }
  const withFinalizer = await addFinalizer(client, obj, name);
  return branches.apply(withFinalizer);
}
