// Rotating CAs in lock-step with the shoot's (or garden's) CA rotation, as Gardener's extensions secrets-manager
// helpers do (`SecretsManagerForCluster`, `GenerateAllSecrets`): the rotation's `lastInitiationTime` becomes the
// last rotation initiation time of every CA config (new CA secrets from the Preparing phase on), CAs always rotate
// with `KeepOld` (bundle = new + old), and in the Completing phase old CAs are ignored so `cleanup()` removes them.
import type { SecretConfig } from './configs/types.js';
import type { GenerateOptions, SecretsManager } from './manager.js';
import type { Secret } from '@gardener-ts/controller-runtime';

/** Gardener's credentials rotation phases (`status.credentials.rotation.certificateAuthorities.phase`). */
export type CredentialsRotationPhase = 'Preparing' | 'Prepared' | 'Completing' | 'Completed';

/** A secret config with the options to generate it with. */
export interface SecretConfigWithOptions {
  readonly config: SecretConfig;
  readonly options?: GenerateOptions;
}

function isCAConfig(config: SecretConfig): boolean {
  return config.kind === 'certificate' && config.certType === 'ca';
}

/**
 * `secretNamesToTimes` for `SecretsManager.create`: the CA rotation's last initiation time for every CA config
 * (none when no rotation was ever initiated).
 */
export function secretNamesToTimesForCARotation(
  configs: readonly SecretConfigWithOptions[],
  lastInitiationTime: Date | string | undefined,
): Record<string, Date> {
  if (!lastInitiationTime) return {};
  const time = typeof lastInitiationTime === 'string' ? new Date(lastInitiationTime) : lastInitiationTime;
  return Object.fromEntries(configs.filter((c) => isCAConfig(c.config)).map((c) => [c.config.name, time]));
}

/** The options a CA config gets in a rotation phase: always `KeepOld`; `ignoreOldSecrets` while Completing. */
export function caRotationOptions(phase: CredentialsRotationPhase | undefined): GenerateOptions {
  return { rotate: 'KeepOld', ...(phase === 'Completing' ? { ignoreOldSecrets: true } : {}) };
}

/**
 * Generates all configs, CAs first (they sign the others), adding `caRotationOptions(phase)` to every CA config;
 * returns the secrets by config name.
 */
export async function generateAllSecrets(
  manager: SecretsManager,
  configs: readonly SecretConfigWithOptions[],
  phase?: CredentialsRotationPhase,
): Promise<Record<string, Secret>> {
  const out: Record<string, Secret> = {};
  for (const c of configs.filter((c) => isCAConfig(c.config))) {
    out[c.config.name] = await manager.generate(c.config, { ...c.options, ...caRotationOptions(phase) });
  }
  for (const c of configs) {
    if (c.config.name in out) continue;
    out[c.config.name] = await manager.generate(c.config, c.options);
  }
  return out;
}
