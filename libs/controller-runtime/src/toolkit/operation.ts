// The `gardener.cloud/operation` annotation: read what a user or gardenlet asked for, act, then remove the annotation
// without losing a newer request (Gardener's v1beta1constants GardenerOperation* values).
import { Annotations, Operations } from '@gardener-ts/api';
import { isConflict, isNotFound } from '../client/api-error.js';
import type { Client } from '../client/client.js';
import { gvkOf, type Kind } from '../client/gvk.js';
import type { KubernetesObject } from '../client/types.js';

/** The annotation key: `gardener.cloud/operation`. */
export const OPERATION_ANNOTATION = Annotations.GardenerOperation;
/** Reconcile now (removed by the controller when it starts). */
export const OPERATION_RECONCILE = Operations.OperationReconcile;
/** Retry a failed operation (Shoots). */
export const OPERATION_RETRY = Operations.OperationRetry;
/** Migrate the object away from its seed (control plane migration). */
export const OPERATION_MIGRATE = Operations.OperationMigrate;
/** Restore the object from its saved state on the new seed. */
export const OPERATION_RESTORE = Operations.OperationRestore;
/** Wait until the state of a migrated object has been copied (`wait-for-state`). */
export const OPERATION_WAIT_FOR_STATE = Operations.OperationWaitForState;

/** The value of the object's `gardener.cloud/operation` annotation, if any. */
export function operationOf(obj: KubernetesObject): string | undefined {
  return obj.metadata?.annotations?.[OPERATION_ANNOTATION];
}

/**
 * Removes the `gardener.cloud/operation` annotation, but only while it still has the value read in `obj`: the patch
 * carries `obj`'s resourceVersion; on a conflict the object is read again and the removal is retried only if the value
 * and the generation are unchanged (a newer request — another value, or a new spec written with it — stays). Returns the object as written (or as read again); a missing
 * annotation or a gone object is a no-op that returns `obj`.
 */
export async function removeOperationAnnotation<T extends KubernetesObject>(
  client: Pick<Client, 'get' | 'patch'>,
  obj: T,
): Promise<T> {
  const wanted = operationOf(obj);
  if (wanted === undefined) return obj;
  const kind = gvkOf(obj) as Kind<T>;
  const key = { namespace: obj.metadata?.namespace, name: obj.metadata?.name ?? '' };
  let current: T = obj;
  for (let attempt = 0; ; attempt++) {
    if (operationOf(current) !== wanted) return current;
    try {
      return await client.patch(kind, key, {
        type: 'merge',
        patch: {
          metadata: {
            resourceVersion: current.metadata?.resourceVersion,
            annotations: { [OPERATION_ANNOTATION]: null },
          },
        },
      });
    } catch (err) {
      if (isNotFound(err)) return current;
      if (!isConflict(err) || attempt >= MAX_CONFLICT_RETRIES) throw err;
      const fresh = await liveReader(client)
        .get(kind, key)
        .catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
      if (!fresh) return current;
      // A new spec came meanwhile (its own request, maybe the same value): what this reconcile acted on is outdated,
      // so the annotation stays for the reconcile of the new generation.
      if (fresh.metadata?.generation !== obj.metadata?.generation) return withKind(fresh, obj);
      current = withKind(fresh, obj);
    }
  }
}

/**
 * Where a retry after a 409 reads the object again: the API server when `client` reads from an informer cache (a
 * `CachedClient` has `api`). The cache may still hold the version that conflicted — under load for longer than all
 * retries take — and a retry from it only conflicts again.
 */
export function liveReader(client: Pick<Client, 'get'> & { api?: Pick<Client, 'get'> }): Pick<Client, 'get'> {
  return client.api ?? client;
}

/** How often a race-free write re-reads and retries after a 409 before giving up. */
export const MAX_CONFLICT_RETRIES = 10;

/** `fresh` with `apiVersion`/`kind` taken from `like` when the server or a cache left them out. */
export function withKind<T extends KubernetesObject>(fresh: T, like: KubernetesObject): T {
  return fresh.apiVersion && fresh.kind ? fresh : { ...fresh, apiVersion: like.apiVersion, kind: like.kind };
}
