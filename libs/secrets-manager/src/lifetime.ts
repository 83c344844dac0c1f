// When secrets are renewed and which of several secrets of one name is the newest (Gardener's secrets manager
// `mustAutoRenewSecret`, `shouldIgnoreOldSecrets` and the newest-secret lookups). Pure: labels and times in, answers out.
import {
  LabelKeyIssuedAtTime,
  LabelKeyLastRotationInitiationTime,
  LabelKeyRenewAfterValidityPercentage,
  LabelKeyValidUntilTime,
} from './constants.js';

const TEN_DAYS_S = 10 * 24 * 3600;

/** Unix seconds of a date, as the lifetime labels carry them. */
export function unixTime(date: Date): string {
  return String(Math.floor(date.getTime() / 1000));
}

function parseUnix(labels: Record<string, string>, key: string): number {
  const value = labels[key];
  if (!/^-?\d+$/.test(value)) throw new Error(`label ${key}=${JSON.stringify(value)} is not a unix time`);
  return Number(value);
}

/**
 * Whether a secret must be renewed now: after `renew-after-validity-percentage` (80 by default) of its validity
 * (from `issued-at-time` to `valid-until-time`) or less than 10 days before it expires. Secrets without both
 * lifetime labels are never renewed automatically.
 */
export function mustAutoRenew(labels: Record<string, string>, now: Date): boolean {
  if (!labels[LabelKeyIssuedAtTime] || !labels[LabelKeyValidUntilTime]) return false;
  const issuedAt = parseUnix(labels, LabelKeyIssuedAtTime);
  const validUntil = parseUnix(labels, LabelKeyValidUntilTime);
  const percentage = labels[LabelKeyRenewAfterValidityPercentage]
    ? parseUnix(labels, LabelKeyRenewAfterValidityPercentage)
    : 80;
  const renewAt = issuedAt + Math.trunc(((validUntil - issuedAt) * percentage) / 100);
  const nowS = now.getTime() / 1000;
  return nowS > renewAt || nowS > validUntil - TEN_DAYS_S;
}

/** A secret as far as ordering goes. */
export interface Dated {
  readonly metadata?: { readonly creationTimestamp?: string; readonly labels?: Record<string, string> };
}

/**
 * Whether `a` is newer than `b`: by creation time (Gardener's rule); secrets created in the same second are
 * ordered by their last rotation initiation time, then issued-at time.
 */
export function isNewer(a: Dated, b: Dated): boolean {
  const keys = [
    (s: Dated) => Date.parse(s.metadata?.creationTimestamp ?? '') || 0,
    (s: Dated) => Number(s.metadata?.labels?.[LabelKeyLastRotationInitiationTime] || 0),
    (s: Dated) => Number(s.metadata?.labels?.[LabelKeyIssuedAtTime] || 0),
  ];
  for (const key of keys) {
    if (key(a) !== key(b)) return key(a) > key(b);
  }
  return false;
}

/** The newest of the secrets, or undefined for none. */
export function newest<T extends Dated>(secrets: readonly T[]): T | undefined {
  let out: T | undefined;
  for (const s of secrets) if (!out || isNewer(s, out)) out = s;
  return out;
}

/**
 * The `valid-until-time` of a secret generated with a validity option (non-certificate secrets): issued-at plus the
 * validity, so a changed validity moves the expiry of an existing secret (which may then be renewed at once).
 */
export function validUntilForValidity(issuedAt: string, validityMs: number): string {
  return String(Number(issuedAt) + Math.floor(validityMs / 1000));
}
