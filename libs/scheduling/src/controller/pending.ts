// Which shoots this scheduler places: no spec.seedName yet, not being deleted, and spec.schedulerName unset or
// "default-scheduler". Shoots naming another scheduler stay Pending until that scheduler binds them.
import type { Shoot } from '@gardener-ts/api';
import { DEFAULT_SCHEDULER_NAME } from '../constants.js';

export function isPendingShoot(shoot: Shoot): boolean {
  return !shoot.spec?.seedName && !shoot.metadata?.deletionTimestamp && (shoot.spec?.schedulerName ?? DEFAULT_SCHEDULER_NAME) === DEFAULT_SCHEDULER_NAME;
}
