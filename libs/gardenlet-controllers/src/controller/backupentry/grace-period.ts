// When a deleted BackupEntry's backups go (Gardener's `computeGracePeriod` and the deletion schedule of
// pkg/gardenlet/controller/backupentry/reconciler.go): `controllers.backupEntry.deletionGracePeriodHours` after the core
// entry's deletionTimestamp, for the shoot purposes `deletionGracePeriodShootPurposes` names (all when it names none),
// at once with `backupentry.core.gardener.cloud/force-deletion=true`. The purpose is the entry's
// `shoot.gardener.cloud/purpose` annotation, which the shoot flow writes.
import { Labels } from '@gardener-ts/api';

/** The annotation that deletes a BackupEntry at once, whatever the grace period. */
export const ForceDeletionAnnotation = 'backupentry.core.gardener.cloud/force-deletion';
/** The annotation carrying the purpose of the entry's Shoot (Gardener's `v1beta1constants.ShootPurpose`). */
export const ShootPurposeAnnotation = Labels.ShootPurpose;

/** The grace period configuration of the BackupEntry controller. */
export interface GracePeriodConfig {
  readonly deletionGracePeriodHours: number;
  readonly deletionGracePeriodShootPurposes?: readonly string[];
}

/**
 * The grace period of an entry whose shoot had `purpose`, in milliseconds: the configured hours when no purposes are
 * configured, when the purpose is unknown (no annotation: an old entry, or its Shoot is gone) or when it is one of
 * the configured purposes; otherwise none.
 */
export function gracePeriodMs(config: GracePeriodConfig, purpose: string | undefined): number {
  const hours = config.deletionGracePeriodHours * 3_600_000;
  const purposes = config.deletionGracePeriodShootPurposes ?? [];
  if (purposes.length === 0 || !purpose) return hours;
  return purposes.includes(purpose) ? hours : 0;
}

/** Whether the deletion of an entry is due now, or when it is. */
export type DeletionSchedule =
  { readonly due: true } | { readonly due: false; readonly at: Date; readonly requeueAfterMs: number };

/**
 * The deletion schedule of a deleted entry at `now` (pure): due when forced or once the grace period since its
 * deletionTimestamp has passed; otherwise the time it is due and how long until then.
 */
export function deletionSchedule(
  entry: { metadata?: { deletionTimestamp?: string | null; annotations?: Record<string, string> } },
  config: GracePeriodConfig,
  now: Date,
): DeletionSchedule {
  const annotations = entry.metadata?.annotations ?? {};
  if (/^(1|t|true)$/i.test(annotations[ForceDeletionAnnotation] ?? '')) return { due: true };
  const deletedAt = Date.parse(entry.metadata?.deletionTimestamp ?? '');
  if (Number.isNaN(deletedAt)) return { due: true };
  const at = deletedAt + gracePeriodMs(config, annotations[ShootPurposeAnnotation]);
  const requeueAfterMs = at - now.getTime();
  return requeueAfterMs <= 0 ? { due: true } : { due: false, at: new Date(at), requeueAfterMs };
}
