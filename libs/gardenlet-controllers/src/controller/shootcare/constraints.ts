// The `CACertificateValiditiesAcceptable` shoot constraint (Gardener's care constraints.go): the persisted CAs of the
// gardenlet's secrets manager in the control plane namespace are valid for at least another year. It is an optional
// constraint: written only while it is not True (Gardener's `filterOptionalConstraints`). Pure: the CA secrets' labels
// in, the constraint out. HibernationPossible and MaintenancePreconditionsSatisfied come from webhooks.ts.
import { ShootConstraintType } from '@gardener-ts/api';
import {
  getOrInitCondition,
  updatedCondition,
  type Condition,
  type Secret,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import {
  DataKeyCertificateCA,
  DataKeyPrivateKeyCA,
  LabelKeyName,
  LabelKeyValidUntilTime,
} from '@gardener-ts/secrets-manager';

/** CAs valid for less than this are reported (Gardener's one year; CAs are issued for ten). */
export const MinimumCAValidityMs = 365 * 24 * 3600_000;

/** Go's `time.Time.String()` in UTC (`2027-01-01 00:00:00 +0000 UTC`). */
export function goTime(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} +0000 UTC`;
}

/**
 * CACertificateValiditiesAcceptable from the persisted secrets of the secrets manager (those with a CA certificate and
 * key): False naming the CAs expiring within a year, else True. Undefined when the constraint is True, as an optional
 * constraint is then not shown; throws when a CA's `valid-until-time` label is not a number.
 */
export function caCertificateValiditiesConstraint(
  constraints: readonly Condition[] | undefined,
  secrets: readonly Secret[],
  clock: WallClock,
): Condition | undefined {
  const now = clock.now().getTime();
  const expiring: { name: string; validUntil: Date }[] = [];
  for (const secret of secrets) {
    if (!secret.data?.[DataKeyCertificateCA] || !secret.data[DataKeyPrivateKeyCA]) continue;
    const label = secret.metadata?.labels?.[LabelKeyValidUntilTime] ?? '';
    const validUntil = Number.parseInt(label, 10);
    if (!/^\d+$/.test(label) || Number.isNaN(validUntil)) {
      throw new Error(`could not parse ${LabelKeyValidUntilTime} label from secret "${secret.metadata?.name}"`);
    }
    if (validUntil * 1000 - now < MinimumCAValidityMs) {
      expiring.push({ name: secret.metadata?.labels?.[LabelKeyName] ?? '', validUntil: new Date(validUntil * 1000) });
    }
  }
  if (expiring.length === 0) return undefined;
  const current = getOrInitCondition(constraints, ShootConstraintType.CACertificateValiditiesAcceptable, clock);
  const list = expiring
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((e) => `"${e.name}" (expiring at ${goTime(e.validUntil)})`)
    .join(', ');
  return updatedCondition(
    current,
    'False',
    'ExpiringCACertificates',
    `Some CA certificates are expiring in less than 8760h0m0s, you should rotate them: ${list}`,
    { clock },
  );
}
