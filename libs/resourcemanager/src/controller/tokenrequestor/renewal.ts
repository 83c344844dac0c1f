// When a token-requestor Secret needs a new token: the renew timestamp, the requested lifetime, the jitter.
import { parseDuration } from '@gardener-ts/component-config';
import { DataKey, TokenRequestorAnnotation, TokenRequestorLabel, PurposeTokenRequestor } from './names.js';
import { kubeconfigCA, kubeconfigToken } from './kubeconfig.js';

export const DefaultExpirationMs = 12 * 3600_000;
export const MaxRenewBaseMs = 24 * 3600_000;

interface SecretLike {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  data?: Record<string, string>;
}

/** Labeled `purpose: token-requestor` and, if the controller has a class, labeled with that class. */
export function isTokenRequestorSecret(secret: SecretLike | undefined, cls: string | undefined): boolean {
  const labels = secret?.metadata?.labels ?? {};
  return (
    labels[TokenRequestorLabel.Purpose] === PurposeTokenRequestor &&
    (cls === undefined || labels[TokenRequestorLabel.Class] === cls)
  );
}

/** The requested token lifetime in seconds: the `token-expiration-duration` annotation or 12 h. */
export function expirationSeconds(annotations: Record<string, string> | undefined): number {
  const value = annotations?.[TokenRequestorAnnotation.ExpirationDuration];
  if (value === undefined) return DefaultExpirationMs / 1000;
  const ms = parseDuration(value);
  if (ms === undefined)
    throw new Error(`invalid ${TokenRequestorAnnotation.ExpirationDuration} ${JSON.stringify(value)}`);
  return Math.floor(ms / 1000);
}

/** 80 % of the token's remaining lifetime (at most of 24 h), plus up to 5 % jitter (`random` in [0, 1)). */
export function renewAfterMs(expiration: Date, now: Date, random: number = Math.random()): number {
  const lifetime = Math.min(expiration.getTime() - now.getTime(), MaxRenewBaseMs);
  const base = Math.floor((lifetime * 80) / 100);
  return base + Math.floor(random * 0.05 * base);
}

/** RFC 3339 in UTC with seconds, as Gardener writes the renew timestamp. */
export function renewTimestamp(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Whether `data` (base64 values) holds a token: `.token` or the current user's token in `.kubeconfig`. */
export function hasToken(data: Record<string, string> | undefined): boolean {
  if (data?.[DataKey.Kubeconfig] === undefined) return data?.[DataKey.Token] !== undefined;
  return kubeconfigToken(Buffer.from(data[DataKey.Kubeconfig], 'base64').toString('utf8')) !== '';
}

/**
 * How long until the token must be renewed, or undefined if a new one is needed now: no renew timestamp, no token
 * where it is expected, or the timestamp has passed.
 */
export function renewalPendingMs(renewAt: string | undefined, tokenPresent: boolean, now: Date): number | undefined {
  if (!renewAt || !tokenPresent) return undefined;
  const at = Date.parse(renewAt);
  if (Number.isNaN(at)) throw new Error(`could not parse renew timestamp: ${JSON.stringify(renewAt)}`);
  return now.getTime() < at ? at - now.getTime() : undefined;
}

/** Go's strconv.ParseBool, errors as false: `1`, `t`, `T`, `TRUE`, `true`, `True` are true. */
export function goParseBool(value: string | undefined): boolean {
  return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value ?? '');
}

/** Whether the Secret has the `inject-ca-bundle` annotation set to true. */
export function injectsCABundle(annotations: Record<string, string> | undefined): boolean {
  return goParseBool(annotations?.[TokenRequestorAnnotation.InjectCABundle]);
}

/**
 * Whether `data` (base64 values) already carries `caData` (PEM): `bundle.crt` without a kubeconfig, else the current
 * context's cluster `certificate-authority-data` (throws if the kubeconfig has no such cluster).
 */
export function caBundleUpToDate(data: Record<string, string> | undefined, caData: string): boolean {
  const kubeconfig = data?.[DataKey.Kubeconfig];
  if (kubeconfig === undefined)
    return Buffer.from(data?.[DataKey.CABundle] ?? '', 'base64').toString('utf8') === caData;
  return kubeconfigCA(Buffer.from(kubeconfig, 'base64').toString('utf8')) === caData;
}
