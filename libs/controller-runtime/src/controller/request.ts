// What a reconciler is asked to reconcile: the namespace and name of one object, never the object itself.
import type { KubernetesObject } from '../client/types.js';

export interface Request {
  /** Empty for cluster-scoped objects. */
  namespace: string;
  name: string;
}

export function requestFor(obj: KubernetesObject): Request {
  return { namespace: obj.metadata?.namespace ?? '', name: obj.metadata?.name ?? '' };
}

export function requestKey(req: Request): string {
  return req.namespace ? `${req.namespace}/${req.name}` : req.name;
}

export function parseRequestKey(key: string): Request {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
