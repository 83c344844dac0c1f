// Status writes from a possibly stale cache: a Conflict means the object changed meanwhile, and the event of that
// change reconciles it again, so the write is simply dropped. A gone object needs no status.
import { isConflict, isNotFound, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';

export async function writeStatus<T extends KubernetesObject & { status?: unknown }>(
  client: Client,
  obj: T,
  status: T['status'],
): Promise<void> {
  try {
    await client.updateStatus({ ...structuredClone(obj), status });
  } catch (err) {
    if (!isConflict(err) && !isNotFound(err)) throw err;
  }
}
