// The ControllerInstallation "care" conditions (Gardener's controllerinstallation care reconciler): Installed, Healthy
// and Progressing of an installation follow ResourcesApplied, ResourcesHealthy and ResourcesProgressing of its
// ManagedResource in the seed's garden namespace. Pure.
import {
  getOrInitCondition,
  mergeConditions,
  updatedCondition,
  type Condition,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import type { ManagedResourceObject } from '../controllerinstallation/kinds.js';

/** The installation's conditions after looking at its ManagedResource (undefined: not there). */
export function careConditions(
  existing: readonly Condition[] | undefined,
  mr: ManagedResourceObject | undefined,
  clock: WallClock,
): Condition[] {
  const set = (type: string, status: 'True' | 'False' | 'Unknown', reason: string, message: string) =>
    updatedCondition(getOrInitCondition(existing, type, clock), status, reason, message, { clock });
  if (!mr) {
    const message = 'The ManagedResource of the installation does not exist (yet).';
    return mergeConditions(
      existing,
      set('Installed', 'False', 'InstallationPending', message),
      set('Healthy', 'Unknown', 'ManagedResourceNotFound', message),
      set('Progressing', 'Unknown', 'ManagedResourceNotFound', message),
    );
  }
  const cond = (type: string) => mr.status?.conditions?.find((c) => c.type === type);
  const outdated = mr.metadata?.generation !== undefined && mr.status?.observedGeneration !== mr.metadata.generation;
  const applied = cond('ResourcesApplied');
  const healthy = cond('ResourcesHealthy');
  const progressing = cond('ResourcesProgressing');
  return mergeConditions(
    existing,
    !outdated && applied?.status === 'True'
      ? set(
          'Installed',
          'True',
          'InstallationSuccessful',
          'The controller was successfully installed in the seed cluster.',
        )
      : set(
          'Installed',
          'False',
          outdated ? 'OutdatedStatus' : 'InstallationPending',
          applied?.message ?? 'The ManagedResource has not been applied yet.',
        ),
    healthy?.status === 'True'
      ? set('Healthy', 'True', 'ControllerHealthy', 'The controller running in the seed cluster is healthy.')
      : set(
          'Healthy',
          'False',
          'ControllerNotHealthy',
          healthy?.message ?? 'The controller running in the seed cluster is not healthy.',
        ),
    progressing?.status === 'False'
      ? set('Progressing', 'False', 'ControllerRolledOut', 'The controller has been rolled out successfully.')
      : set(
          'Progressing',
          'True',
          'ControllerNotRolledOut',
          progressing?.message ?? 'The controller is being rolled out.',
        ),
  );
}
