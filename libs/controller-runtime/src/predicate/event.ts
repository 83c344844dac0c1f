// What an informer saw happen to an object, as handlers and predicates get it.
import type { KubernetesObject } from '../client/types.js';

export type ObjectEvent<T extends KubernetesObject = KubernetesObject> =
  | { type: 'create'; object: T }
  | { type: 'update'; oldObject: T; object: T }
  | { type: 'delete'; object: T }
  /** Raised by something other than the informer (e.g. a periodic trigger). */
  | { type: 'generic'; object: T };
