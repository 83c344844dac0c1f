// Adds the generic controller of an extension kind to a manager: the predicates Gardener's generic controllers use
// (type, class, operation annotation or unsuccessful last operation or deletion; generation changes when the
// annotation is ignored), the Cluster watch when the annotation is ignored, and the reconciler.
import {
  and,
  controllerFor,
  generationChanged,
  type Controller,
  type Manager,
  type ObjectEvent,
  type Predicate,
  type Request,
} from '@gardener-ts/controller-runtime';
import { ClusterKind, type ClusterObject } from '../../cluster/cluster.js';
import type { Actuator } from './actuator.js';
import {
  ExtensionKinds,
  extensionFinalizer,
  withFinalizer,
  type ExtensionKindName,
  type ExtensionKindSpec,
  type ExtensionObject,
} from './kinds.js';
import {
  hasClass,
  hasOperationAnnotation,
  hasType,
  lastOperationNotSuccessful,
  type ExtensionClass,
} from './operation.js';
import { GenericReconciler } from './reconciler.js';

/** How to add an extension controller. */
export interface ExtensionControllerOptions<T extends ExtensionObject = ExtensionObject> {
  /** The kind: a name of `ExtensionKinds` or a spec of one. */
  kind: ExtensionKindName | ExtensionKindSpec<T>;
  actuator: Actuator<T>;
  /** The `spec.type` values served, e.g. `['local']` for provider-local's Infrastructure. */
  types: readonly string[];
  /** The extension classes served: `shoot` (default), `seed`, `garden`. */
  classes?: readonly ExtensionClass[];
  /** Controller name for logs and metrics; `<kind>-controller` by default. */
  name?: string;
  /** Extension kind only: the finalizer is `extensions.gardener.cloud/<suffix>`; the first type by default. */
  finalizerSuffix?: string;
  /** ControlPlane only: serve this `spec.purpose` (`normal`, the default when unset, or `exposure`). */
  purpose?: 'normal' | 'exposure';
  /**
   * Reconcile on every spec change (and Cluster change) instead of only when gardenlet asks with the operation
   * annotation (Gardener's `IgnoreOperationAnnotation`).
   */
  ignoreOperationAnnotation?: boolean;
  /** Reconcile succeeded objects again after this many milliseconds (an Extension controller's resync). */
  resyncMs?: number;
  maxConcurrentReconciles?: number;
  /** The manager's cluster to run in (its default cluster otherwise). */
  cluster?: string;
}

/** The ControlPlane purpose filter: an unset `spec.purpose` is `normal`. */
export function hasPurpose(obj: ExtensionObject, purpose: 'normal' | 'exposure'): boolean {
  return ((obj.spec.purpose as string | undefined) ?? 'normal') === purpose;
}

const judge =
  (test: (obj: ExtensionObject) => boolean): Predicate<ExtensionObject> =>
  (event: ObjectEvent<ExtensionObject>) =>
    test(event.object);

/**
 * The event predicates of a generic controller: responsible objects (type, class, purpose) and then, unless the
 * annotation is ignored, Gardener's "asked for work": a new object whose last operation has not succeeded, an object
 * carrying an operation annotation, or one whose deletion just started. Status writes of an unsuccessful operation do
 * not pass (retries come from the rate-limited requeue, not from the controller's own writes). With the annotation
 * ignored, spec changes.
 */
export function extensionPredicates(
  options: Pick<ExtensionControllerOptions, 'types' | 'classes' | 'purpose' | 'ignoreOperationAnnotation'>,
): Predicate<ExtensionObject>[] {
  const responsible = judge(
    (obj) =>
      hasType(obj, options.types) &&
      hasClass(obj, options.classes) &&
      (options.purpose === undefined || hasPurpose(obj, options.purpose)),
  );
  if (options.ignoreOperationAnnotation) return [responsible, generationChanged];
  const asked: Predicate<ExtensionObject> = (event) => {
    const obj = event.object;
    switch (event.type) {
      case 'update':
        return (
          hasOperationAnnotation(obj) ||
          (Boolean(obj.metadata?.deletionTimestamp) && !event.oldObject.metadata?.deletionTimestamp)
        );
      case 'delete':
        return false;
      default:
        return (
          hasOperationAnnotation(obj) || lastOperationNotSuccessful(obj) || Boolean(obj.metadata?.deletionTimestamp)
        );
    }
  };
  return [and(responsible, asked)];
}

/** The kind spec a controller runs with (an Extension's finalizer named after its suffix or first type). */
export function kindSpecFor<T extends ExtensionObject>(
  options: Pick<ExtensionControllerOptions<T>, 'kind' | 'types' | 'finalizerSuffix'>,
): ExtensionKindSpec<T> {
  const spec = (typeof options.kind === 'string' ? ExtensionKinds[options.kind] : options.kind) as ExtensionKindSpec<T>;
  if (spec.name !== 'Extension') return spec;
  const suffix = options.finalizerSuffix ?? options.types[0];
  if (!suffix) throw new Error('an Extension controller needs a type or a finalizerSuffix to name its finalizer');
  return withFinalizer(spec, extensionFinalizer(suffix));
}

/** Adds the generic controller for one extension kind to `mgr` and returns it. */
export function addExtensionController<T extends ExtensionObject>(
  mgr: Manager,
  options: ExtensionControllerOptions<T>,
): Controller {
  if (options.types.length === 0) throw new Error('an extension controller needs at least one type');
  const kind = kindSpecFor(options);
  const cluster = mgr.cluster(options.cluster);
  const reconciler = new GenericReconciler<T>({
    kind,
    actuator: options.actuator,
    client: cluster.client,
    types: options.types,
    ...(options.classes ? { classes: options.classes } : {}),
    ...(options.purpose ? { accepts: (obj: T) => hasPurpose(obj, options.purpose!) } : {}),
    ...(options.resyncMs ? { resyncMs: options.resyncMs } : {}),
    ...(options.ignoreOperationAnnotation ? { ignoreOperationAnnotation: true } : {}),
  });
  const builder = controllerFor(mgr, options.name ?? `${kind.name.toLowerCase()}-controller`)
    .for(kind.kind, { predicates: extensionPredicates(options) as Predicate<T>[] })
    .withOptions({ maxConcurrentReconciles: options.maxConcurrentReconciles ?? 1 });
  if (options.cluster) builder.inCluster(options.cluster);
  if (options.ignoreOperationAnnotation && kind.namespaced) {
    // Shoot changes (hibernation, versions, ...) reach the objects of the shoot's namespace.
    const informer = cluster.cache.informerFor(kind.kind);
    builder.watches(ClusterKind, (c: ClusterObject): Request[] =>
      informer.store
        .list()
        .filter((obj) => obj.metadata?.namespace === c.metadata?.name && reconciler.responsibleFor(obj))
        .map((obj) => ({ namespace: obj.metadata?.namespace ?? '', name: obj.metadata?.name ?? '' })),
    );
  }
  return builder.complete(reconciler);
}
