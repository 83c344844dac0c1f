// Event wiring shared by the controllers that own pods (ReplicaSet, StatefulSet, DaemonSet, Job): a pod event
// enqueues its controller owner, and an orphan pod enqueues every owner whose selector it matches (to be adopted).
import {
  type ControllerBuilder,
  type InformerCache,
  type Kind,
  type KubernetesObject,
  type Request,
} from '@gardener-ts/controller-runtime';
import { type LabelSelector, type Pod, PodKind } from './kinds.js';
import { controllerOf } from './owner.js';
import { selectorMatcher } from './selectors.js';

export function ownsPods<T extends KubernetesObject>(
  builder: ControllerBuilder,
  cache: InformerCache,
  ownerKind: Kind<T>,
  selectorOf: (owner: T) => LabelSelector | undefined,
): ControllerBuilder {
  return builder
    .owns(PodKind)
    .watches(PodKind, (pod: Pod) => (controllerOf(pod) ? [] : ownersSelecting(cache, ownerKind, selectorOf, pod)));
}

/** Requests for the owners in the object's namespace whose selector matches its labels. */
export function ownersSelecting<T extends KubernetesObject>(
  cache: InformerCache,
  ownerKind: Kind<T>,
  selectorOf: (owner: T) => LabelSelector | undefined,
  obj: KubernetesObject,
): Request[] {
  const namespace = obj.metadata?.namespace ?? '';
  return cache
    .informerFor(ownerKind)
    .store.byIndex('namespace', namespace)
    .filter((owner) => selectorMatcher(selectorOf(owner))(obj.metadata?.labels))
    .map((owner) => ({ namespace, name: owner.metadata!.name! }));
}
