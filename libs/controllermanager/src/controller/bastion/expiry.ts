// When a Bastion goes (Gardener's bastion reconciler in the controller-manager): its Shoot is gone or being deleted,
// the Shoot moved to another seed, its heartbeat expired (`status.expirationTimestamp`), or it reached `maxLifetime`
// since creation. Otherwise it is checked again at the earlier of its expiration and its end of life. Pure.
import type { Bastion, Shoot } from '@gardener-ts/api';

export type BastionVerdict = { action: 'delete'; reason: string } | { action: 'keep'; requeueAfterMs: number };

/** Decides about one Bastion at `now`. */
export function bastionVerdict(
  bastion: Bastion,
  shoot: Shoot | undefined,
  now: Date,
  maxLifetimeMs: number,
): BastionVerdict {
  if (!shoot) return { action: 'delete', reason: 'Shoot does not exist anymore' };
  if (shoot.metadata?.deletionTimestamp) return { action: 'delete', reason: 'Shoot is in deletion' };
  if (bastion.spec.seedName && shoot.spec.seedName !== bastion.spec.seedName) {
    return { action: 'delete', reason: 'Shoot was migrated to a different seed' };
  }
  const expires = bastion.status?.expirationTimestamp
    ? new Date(bastion.status.expirationTimestamp).getTime()
    : undefined;
  if (expires !== undefined && expires <= now.getTime()) return { action: 'delete', reason: 'Bastion has expired' };
  const endOfLife = new Date(bastion.metadata?.creationTimestamp ?? now).getTime() + maxLifetimeMs;
  if (endOfLife <= now.getTime()) return { action: 'delete', reason: 'Bastion has reached its maximum lifetime' };
  return { action: 'keep', requeueAfterMs: Math.min(endOfLife, expires ?? endOfLife) - now.getTime() };
}
