// Predicates decide which events reach a controller's queue. Those about changes (GenerationChanged, ...) judge
// updates only and let creates, deletes and generic events through, as in controller-runtime.
import type { KubernetesObject } from '../client/types.js';
import { labelSelectorMatcher, parseLabelSelector, type LabelSelector } from '../labels/selector.js';
import type { ObjectEvent } from './event.js';

export type Predicate<T extends KubernetesObject = KubernetesObject> = (event: ObjectEvent<T>) => boolean;

/** A predicate that only judges updates. */
function onUpdate(changed: (oldObject: KubernetesObject, object: KubernetesObject) => boolean): Predicate<any> {
  return (event) => event.type !== 'update' || changed(event.oldObject, event.object);
}

/** Updates that changed `metadata.generation`: spec changes, not status or metadata ones. */
export const generationChanged: Predicate<any> = onUpdate((a, b) => a.metadata?.generation !== b.metadata?.generation);

/** Updates that changed anything at all; filters out the identical updates of periodic resyncs. */
export const resourceVersionChanged: Predicate<any> = onUpdate(
  (a, b) => a.metadata?.resourceVersion !== b.metadata?.resourceVersion,
);

export const labelChanged: Predicate<any> = onUpdate((a, b) => !sameMap(a.metadata?.labels, b.metadata?.labels));

export const annotationChanged: Predicate<any> = onUpdate(
  (a, b) => !sameMap(a.metadata?.annotations, b.metadata?.annotations),
);

/** Events of objects whose labels match; an update passes if the new object matches. */
export function labelSelectorPredicate(selector: LabelSelector | string): Predicate<any> {
  const matches = typeof selector === 'string' ? parseLabelSelector(selector) : labelSelectorMatcher(selector);
  return (event) => matches(event.object.metadata?.labels);
}

export function and<T extends KubernetesObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return (event) => predicates.every((p) => p(event));
}

export function or<T extends KubernetesObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return (event) => predicates.some((p) => p(event));
}

export function not<T extends KubernetesObject>(predicate: Predicate<T>): Predicate<T> {
  return (event) => !predicate(event);
}

function sameMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ak = Object.keys(a ?? {});
  if (ak.length !== Object.keys(b ?? {}).length) return false;
  return ak.every((k) => b?.[k] === a?.[k]);
}
