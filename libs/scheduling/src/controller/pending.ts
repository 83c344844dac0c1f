// Which shoots this scheduler places: no spec.seedName yet, not being deleted, not self-hosted, and spec.schedulerName
// unset or "default-scheduler". Shoots naming another scheduler stay Pending until that scheduler binds them;
// self-hosted shoots host their own control plane and are never scheduled.
import type { Shoot } from '@gardener-ts/api';
import { DEFAULT_SCHEDULER_NAME } from '../constants.js';
import { isSelfHostedShoot } from '../filters/self-hosted.js';

/** Whether this scheduler should find a seed for the shoot. */
export function isPendingShoot(shoot: Shoot): boolean {
  return (
    !shoot.spec?.seedName &&
    !shoot.metadata?.deletionTimestamp &&
    (shoot.spec?.schedulerName ?? DEFAULT_SCHEDULER_NAME) === DEFAULT_SCHEDULER_NAME &&
    !isSelfHostedShoot(shoot)
  );
}
