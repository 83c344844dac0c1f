// What Gardener's ShootState finalizer controller does with a ShootState, from its Shoot's last operation: the
// finalizer `core.gardener.cloud/shootstate` protects the state of a Shoot whose control plane is migrated (the
// state is all the destination seed has to restore from) and is released once the restore succeeded. Pure.
import type { Shoot } from '@gardener-ts/api';

/** The finalizer Gardener puts on a ShootState during a control plane migration. */
export const ShootStateFinalizer = 'core.gardener.cloud/shootstate';

/** What to do with the finalizer: add it, remove it, or nothing. */
export type FinalizerAction = 'add' | 'remove' | undefined;

/**
 * Gardener's rule: a Shoot whose last operation is `Migrate` (any state) gets the finalizer on its ShootState; a Shoot
 * whose `Restore` succeeded releases it. Every other case leaves the ShootState alone.
 */
export function finalizerAction(
  lastOperation: Pick<NonNullable<NonNullable<Shoot['status']>['lastOperation']>, 'type' | 'state'> | undefined,
  hasFinalizer: boolean,
): FinalizerAction {
  if (lastOperation?.type === 'Migrate' && !hasFinalizer) return 'add';
  if (lastOperation?.type === 'Restore' && lastOperation.state === 'Succeeded' && hasFinalizer) return 'remove';
  return undefined;
}
