// The lifetime of a Shoot bound to Quotas with `clusterLifetimeDays` (Gardener's shoot quota controller): the smallest
// lifetime of the Quotas of its SecretBinding or CredentialsBinding, the expiration timestamp annotated from it, and
// what to do now. Pure.
import type { Quota, Shoot } from '@gardener-ts/api';

/** The annotation holding the time a Shoot expires (Gardener's ShootExpirationTimestamp). */
export const ShootExpirationTimestamp = 'shoot.gardener.cloud/expiration-timestamp';

const DayMs = 24 * 60 * 60 * 1000;

/** The smallest `clusterLifetimeDays` of the quotas; undefined when none sets one. */
export function clusterLifetimeDays(quotas: readonly Quota[]): number | undefined {
  const days = quotas.map((q) => q.spec.clusterLifetimeDays).filter((d): d is number => d !== undefined && d !== null);
  return days.length > 0 ? Math.min(...days) : undefined;
}

/** Go's RFC 3339 in UTC, without fractional seconds: `2026-01-01T00:00:00Z`. */
const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export type ExpirationPlan =
  /** No lifetime: drop an annotated timestamp (if any) and look again after the sync period. */
  | { action: 'unlimited'; removeAnnotation: boolean }
  /** Annotate `annotate` (when not there yet); delete the Shoot when `expired`, else look again later. */
  | { action: 'limited'; annotate?: string; expirationTime: string; expired: boolean };

/**
 * What to do with `shoot` given the lifetime of its quotas: the annotated expiration time wins over one computed from
 * the creation timestamp; an expiration time that cannot be parsed is an error.
 */
export function planExpiration(shoot: Shoot, lifetimeDays: number | undefined, now: Date): ExpirationPlan {
  const annotated = shoot.metadata?.annotations?.[ShootExpirationTimestamp];
  if (lifetimeDays === undefined) return { action: 'unlimited', removeAnnotation: annotated !== undefined };
  let expirationTime = annotated;
  let annotate: string | undefined;
  if (expirationTime === undefined) {
    const created = Date.parse(shoot.metadata?.creationTimestamp ?? '');
    if (Number.isNaN(created)) throw new Error(`Shoot ${shoot.metadata?.name} has no creationTimestamp`);
    expirationTime = annotate = rfc3339(created + lifetimeDays * DayMs);
  }
  const expires = Date.parse(expirationTime);
  if (Number.isNaN(expires) || !/^\d{4}-\d\d-\d\dT/.test(expirationTime))
    throw new Error(
      `annotation ${ShootExpirationTimestamp} of Shoot ${shoot.metadata?.namespace}/${shoot.metadata?.name} is no RFC 3339 time: ${JSON.stringify(expirationTime)}`,
    );
  return { action: 'limited', ...(annotate ? { annotate } : {}), expirationTime, expired: now.getTime() > expires };
}
