// Which operation an extension object asks for (Gardener's ComputeOperationType, IsMigrated, ShouldSkipOperation)
// and which objects a controller is responsible for (type and extension class): the pure decisions of the generic
// reconciler, tested without a cluster.
import {
  OPERATION_ANNOTATION,
  OPERATION_MIGRATE,
  OPERATION_RECONCILE,
  OPERATION_RESTORE,
} from '@gardener-ts/controller-runtime';

/** The lastOperation types of extension objects. */
export type OperationType = 'Create' | 'Reconcile' | 'Delete' | 'Migrate' | 'Restore';

/** What the decisions read of an extension object. */
export interface ExtensionObjectView {
  metadata?: { annotations?: Record<string, string>; deletionTimestamp?: string | null };
  spec?: { type?: string; class?: string };
  status?: { lastOperation?: { type?: string; state?: string } };
}

/**
 * The operation an object asks for, by Gardener's rules: the `migrate`/`restore` annotations first, then deletion,
 * then Create until a Create succeeded, a Migrate or Restore that has not succeeded yet continues, else Reconcile.
 */
export function computeOperationType(obj: ExtensionObjectView): OperationType {
  const annotation = obj.metadata?.annotations?.[OPERATION_ANNOTATION];
  const last = obj.status?.lastOperation;
  if (annotation === OPERATION_MIGRATE) return 'Migrate';
  if (annotation === OPERATION_RESTORE) return 'Restore';
  if (obj.metadata?.deletionTimestamp) return 'Delete';
  if (!last) return 'Create';
  if (last.type === 'Create' && last.state !== 'Succeeded') return 'Create';
  if (last.type === 'Migrate' && last.state !== 'Succeeded') return 'Migrate';
  if (last.type === 'Restore' && last.state !== 'Succeeded') return 'Restore';
  return 'Reconcile';
}

/** The object has been migrated away (its last operation is a succeeded Migrate). */
export function isMigrated(obj: ExtensionObjectView): boolean {
  const last = obj.status?.lastOperation;
  return last?.type === 'Migrate' && last.state === 'Succeeded';
}

/** A migrated object is left alone until it is migrated again or restored. */
export function shouldSkipOperation(operation: OperationType, obj: ExtensionObjectView): boolean {
  return operation !== 'Migrate' && operation !== 'Restore' && isMigrated(obj);
}

/** The extension classes: `shoot` (the default when `spec.class` is unset), `seed` and `garden`. */
export type ExtensionClass = 'shoot' | 'seed' | 'garden';

/**
 * Whether a controller serving `classes` is responsible for the object: its `spec.class`, or `shoot` when unset,
 * is one of them. No classes configured means `shoot` only (Gardener's `HasClass`).
 */
export function hasClass(obj: ExtensionObjectView, classes: readonly string[] = []): boolean {
  const wanted = classes.length === 0 ? ['shoot'] : classes;
  return wanted.includes(obj.spec?.class || 'shoot');
}

/** Whether the object's `spec.type` is one of `types`. */
export function hasType(obj: ExtensionObjectView, types: readonly string[]): boolean {
  return obj.spec?.type !== undefined && types.includes(obj.spec.type);
}

/** The operation annotation values the generic controllers react to (Gardener's `HasOperationAnnotation`). */
export function hasOperationAnnotation(obj: ExtensionObjectView): boolean {
  const value = obj.metadata?.annotations?.[OPERATION_ANNOTATION];
  return value === OPERATION_RECONCILE || value === OPERATION_MIGRATE || value === OPERATION_RESTORE;
}

/** The last operation has not succeeded (or there is none yet). */
export function lastOperationNotSuccessful(obj: ExtensionObjectView): boolean {
  return obj.status?.lastOperation?.state !== 'Succeeded';
}
