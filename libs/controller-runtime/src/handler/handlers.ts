// Event handlers turn an event about one object into the requests to reconcile: the object itself, its controller
// owner, or whatever a mapping function says.
import { sameGroupKind, parseApiVersion, type GroupVersionKind } from '../client/gvk.js';
import type { KubernetesObject } from '../client/types.js';
import { requestFor, type Request } from '../controller/request.js';
import type { ObjectEvent } from '../predicate/event.js';

export type EventHandler<T extends KubernetesObject = KubernetesObject> = (event: ObjectEvent<T>) => Request[];

/** The object of the event. */
export function enqueueForObject<T extends KubernetesObject>(): EventHandler<T> {
  return (event) => [requestFor(event.object)];
}

/**
 * The owners of kind `owner` named in the object's ownerReferences: only its controller (the reference with
 * `controller: true`) unless `onlyController` is false. On updates, old and new owners both get a request.
 */
export function enqueueForOwner<T extends KubernetesObject>(
  owner: GroupVersionKind,
  { onlyController = true, ownerNamespaced = true }: { onlyController?: boolean; ownerNamespaced?: boolean } = {},
): EventHandler<T> {
  const ownersOf = (obj: KubernetesObject): Request[] =>
    (obj.metadata?.ownerReferences ?? [])
      .filter(
        (ref) =>
          (!onlyController || ref.controller === true) &&
          sameGroupKind({ group: parseApiVersion(ref.apiVersion).group, kind: ref.kind }, owner),
      )
      // A namespaced owner lives in its dependent's namespace (the API allows no other).
      .map((ref) => ({ namespace: ownerNamespaced ? (obj.metadata?.namespace ?? '') : '', name: ref.name }));
  return (event) =>
    event.type === 'update'
      ? dedupe([...ownersOf(event.oldObject), ...ownersOf(event.object)])
      : ownersOf(event.object);
}

/** Whatever `map` returns for the object (old and new on updates). */
export function enqueueMapped<T extends KubernetesObject>(map: (obj: T) => Request[]): EventHandler<T> {
  return (event) =>
    event.type === 'update' ? dedupe([...map(event.oldObject), ...map(event.object)]) : map(event.object);
}

function dedupe(requests: Request[]): Request[] {
  const seen = new Map<string, Request>();
  for (const r of requests) seen.set(`${r.namespace}/${r.name}`, r);
  return [...seen.values()];
}
