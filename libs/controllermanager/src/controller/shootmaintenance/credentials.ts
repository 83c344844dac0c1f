// The automatic credentials rotation of a shoot's maintenance (Gardener's shoot maintenance
// `computeCredentialsToRotationResults`): `spec.maintenance.autoRotation.credentials.sshKeypair` and `.observability`
// with a `rotationPeriod` start the rotation (`rotate-ssh-keypair`, `rotate-observability-credentials`, added to the
// `gardener.cloud/operation` the maintenance sets) once the period has passed since the last completion of that
// rotation — since the shoot's creation when it never completed. The SSH keypair only when the workers accept SSH. Pure.
import { Operations, parseDuration, type Shoot } from '@gardener-ts/api';

/** The outcome of one maintenance operation (an update or a rotation start). */
export interface UpdateResult {
  description: string;
  reason: string;
  ok: boolean;
}

type RotationConfig = { enabled?: boolean; rotationPeriod?: string };

/**
 * The rotation period of an automatic rotation in milliseconds, undefined when it is off: no configuration,
 * `enabled: false`, or no positive `rotationPeriod`.
 */
export function autoRotationPeriod(config: RotationConfig | undefined): number | undefined {
  if (config === undefined || config.enabled === false || config.rotationPeriod === undefined) return undefined;
  const period = parseDuration(config.rotationPeriod);
  return period !== undefined && period > 0 ? period : undefined;
}

/** Whether `period` has passed at `now` since the rotation's last completion (or the shoot's creation). */
function periodPassed(shoot: Shoot, lastCompletionTime: string | undefined, period: number, now: Date): boolean {
  const since = lastCompletionTime ?? shoot.metadata?.creationTimestamp;
  if (since === undefined) return false;
  return Date.parse(since) < now.getTime() - period;
}

/** Gardener's `ShootEnablesSSHAccess`: the shoot has workers and SSH access is not disabled. */
function enablesSSHAccess(shoot: Shoot): boolean {
  return (
    (shoot.spec.provider.workers ?? []).length > 0 && shoot.spec.provider.workersSettings?.sshAccess?.enabled !== false
  );
}

/**
 * The automatic rotations this maintenance starts, by operation (`rotate-ssh-keypair`,
 * `rotate-observability-credentials`), each with Gardener's description and reason.
 */
export function credentialsRotationResults(shoot: Shoot, now: Date): Record<string, UpdateResult> {
  const results: Record<string, UpdateResult> = {};
  const auto = shoot.spec.maintenance?.autoRotation?.credentials;
  const rotation = shoot.status?.credentials?.rotation;

  const sshPeriod = autoRotationPeriod(auto?.sshKeypair);
  if (
    sshPeriod !== undefined &&
    enablesSSHAccess(shoot) &&
    periodPassed(shoot, rotation?.sshKeypair?.lastCompletionTime, sshPeriod, now)
  ) {
    results[Operations.OperationRotateSSHKeypair] = {
      description: 'SSH keypair rotation started',
      reason: 'Automatic rotation of SSH keypair configured',
      ok: true,
    };
  }

  const observabilityPeriod = autoRotationPeriod(auto?.observability);
  if (
    observabilityPeriod !== undefined &&
    periodPassed(shoot, rotation?.observability?.lastCompletionTime, observabilityPeriod, now)
  ) {
    results[Operations.OperationRotateObservabilityCredentials] = {
      description: 'Observability passwords rotation started',
      reason: 'Automatic rotation of observability passwords configured',
      ok: true,
    };
  }
  return results;
}
