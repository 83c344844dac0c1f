// Usable seeds: not being deleted, visible for scheduling, not under an emergency stop of shoot reconciliations, and
// ready (a last operation, GardenletReady True, and BackupBucketsReady True when the seed has backups configured).
import { SeedConditionType, type Seed } from '@gardener-ts/api';
import { EMERGENCY_STOP_SHOOT_RECONCILIATIONS_ANNOTATION } from '../constants.js';

// Per seed object: cached seeds are immutable (an update brings a new object) and every decision asks about all.
const known = new WeakMap<Seed, string | undefined>();

/** Why the seed cannot take shoots at all, or undefined when it can. */
export function unusableReason(seed: Seed): string | undefined {
  if (known.has(seed)) return known.get(seed);
  const reason = check(seed);
  known.set(seed, reason);
  return reason;
}

function check(seed: Seed): string | undefined {
  if (seed.metadata?.deletionTimestamp) return 'seed is being deleted';
  // An absent setting means visible (Gardener defaults spec.settings.scheduling.visible to true).
  if (seed.spec.settings?.scheduling?.visible === false) return 'seed is not visible for scheduling';
  if (seed.metadata?.annotations?.[EMERGENCY_STOP_SHOOT_RECONCILIATIONS_ANNOTATION] === 'true') {
    return 'shoot reconciliations on the seed are stopped (emergency stop)';
  }
  if (!seed.status?.lastOperation) return 'seed has no last operation yet';
  const gardenletReady = conditionStatus(seed, SeedConditionType.GardenletReady);
  if (gardenletReady !== 'True')
    return `condition ${SeedConditionType.GardenletReady} is ${gardenletReady ?? 'missing'}`;
  if (seed.spec.backup) {
    const backupReady = conditionStatus(seed, SeedConditionType.BackupBucketsReady);
    if (backupReady !== 'True')
      return `condition ${SeedConditionType.BackupBucketsReady} is ${backupReady ?? 'missing'}`;
  }
  return undefined;
}

function conditionStatus(seed: Seed, type: string): string | undefined {
  return seed.status?.conditions?.find((c) => c.type === type)?.status;
}
