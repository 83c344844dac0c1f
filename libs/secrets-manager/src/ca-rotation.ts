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
  // The CAs first (the certificates are signed by them), each group generated concurrently. The keys of secrets that
  // do not exist yet are all started at once, the CAs' first: key generation runs in the threadpool, so the
  // certificates' keys are made while the CAs' are, and only the signing waits for the CAs.
  const cas = configs.filter((c) => isCAConfig(c.config));
  manager.prepareKeys([...cas, ...configs.filter((c) => !isCAConfig(c.config))].map((c) => c.config));
  const generated = new Map<string, Secret>();
  const generateAll = async (group: readonly SecretConfigWithOptions[], extra: GenerateOptions = {}) => {
    const secrets = await Promise.all(group.map((c) => manager.generate(c.config, { ...c.options, ...extra })));
    group.forEach((c, i) => generated.set(c.config.name, secrets[i]!));
  };
  await generateAll(cas, caRotationOptions(phase));
  await generateAll(configs.filter((c) => !generated.has(c.config.name)));
  const out: Record<string, Secret> = {};
  for (const c of configs) out[c.config.name] = generated.get(c.config.name)!;
  return out;
}
