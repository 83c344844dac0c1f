// Status writes of objects several gardenlet controllers write at once (the Seed: lease, seed and care reconcilers;
// ControllerInstallations: main and care). Conditions are a list a merge patch replaces as a whole, so every write
// reads the object, computes its change on what it read and patches with that resourceVersion (optimistic locking,
// as Gardener's patches with an optimistic lock); on a conflict it reads again and recomputes.
import {
  isConflict,
  liveReader,
  type Client,
  type Condition,
  type Kind,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';

/** How often a conflicting status write is recomputed before the error is returned. */
export const STATUS_CONFLICT_RETRIES = 5;

/**
 * Reads the object (live), lets `change` compute the status fields to write from it (undefined: nothing to write) and
 * merge-patches them with the resourceVersion read; retried on conflict. Returns the written object, or undefined.
 */
export async function patchStatusOptimistically<T extends KubernetesObject & { status?: { conditions?: unknown[] } }>(
  client: Pick<Client, 'get' | 'patch'>,
  kind: Kind<T>,
  key: { namespace?: string; name: string },
  change: (current: T, conditions: Condition[] | undefined) => Record<string, unknown> | undefined,
): Promise<T | undefined> {
  for (let attempt = 0; ; attempt++) {
    const current = await liveReader(client).get(kind, key);
    const status = change(current, current.status?.conditions as Condition[] | undefined);
    if (!status) return undefined;
    try {
      return await client.patch(
        kind,
        key,
        { type: 'merge', patch: { metadata: { resourceVersion: current.metadata?.resourceVersion }, status } },
        { subresource: 'status' },
      );
    } catch (err) {
      if (!isConflict(err) || attempt >= STATUS_CONFLICT_RETRIES) throw err;
    }
  }
}
