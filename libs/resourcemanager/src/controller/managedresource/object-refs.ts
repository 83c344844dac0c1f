// References to the objects of a ManagedResource (`status.resources`): how they are named in messages, sorted and
// compared, plus the bounded-parallel map the apply and delete steps share.
import type { ManagedResource } from '../../status.js';

/** One entry of a ManagedResource's `status.resources`. */
export type ObjectReference = NonNullable<NonNullable<ManagedResource['status']>['resources']>[number];

/** `<apiVersion>/<Kind>/<namespace>/<name>`, how objects are named in messages. */
export function describeObject(o: { apiVersion?: string; kind?: string; namespace?: string; name?: string }): string {
  return `${o.apiVersion}/${o.kind}/${o.namespace ?? ''}/${o.name ?? ''}`.replace(/\/\//g, '/');
}

/** Sorts in place by apiVersion, kind, namespace and name, and returns the array. */
export function sortReferences(refs: ObjectReference[]): ObjectReference[] {
  const key = (r: ObjectReference) => `${r.apiVersion}\u0000${r.kind}\u0000${r.namespace ?? ''}\u0000${r.name}`;
  return refs.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Whether two sorted lists name the same objects with the same labels and annotations (empty maps = none). */
export function sameReferences(a: readonly ObjectReference[] | undefined, b: readonly ObjectReference[]): boolean {
  const norm = (r: ObjectReference) =>
    JSON.stringify({
      apiVersion: r.apiVersion,
      kind: r.kind,
      namespace: r.namespace || undefined,
      name: r.name,
      labels: sortedMap(r.labels),
      annotations: sortedMap(r.annotations),
    });
  return (a ?? []).length === b.length && (a ?? []).every((r, i) => norm(r) === norm(b[i]));
}

function sortedMap(m: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!m || Object.keys(m).length === 0) return undefined;
  return Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** `fn` over `items` with at most `limit` calls in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
