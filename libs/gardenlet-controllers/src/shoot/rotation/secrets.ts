// What the secrets manager of a shoot's control plane gets from the rotation status, as Gardener's botanist derives
// it (`lastSecretRotationStartTimes` and the generate options of the CAs, the service account key, the ETCD
// encryption key, the SSH keypair and the observability password): each rotation's last initiation time becomes the
// rotation time of its secret configs (a newer time means a new secret), and the phase decides whether the old
// secret is kept next to the new one or dropped. Pure.
import type { Shoot } from '@gardener-ts/api';
import { caRotationOptions, type GenerateOptions, type SecretConfigWithOptions } from '@gardener-ts/secrets-manager';
import { SecretNames } from '../../component/secrets.js';
import { rotationPhase, type PhasedCredentialKind, type RotationPhase } from './status.js';

/** Secret config names of the rotated credentials that `SecretNames` of the control plane secrets does not list. */
export const RotatedSecretNames = {
  /** Gardener's `v1beta1constants.SecretNameSSHKeyPair`. */
  SSHKeypair: 'ssh-keypair',
  /** Gardener's `v1beta1constants.SecretNameObservabilityIngressUsers`. */
  ObservabilityIngressUsers: 'observability-ingress-users',
} as const;

/** The CA configs of the control plane secrets (rotated together by the certificate authorities rotation). */
export const DefaultCAConfigNames: readonly string[] = [
  SecretNames.CACluster,
  SecretNames.CAClient,
  SecretNames.CAETCD,
  SecretNames.CAFrontProxy,
  SecretNames.CAKubelet,
];

/**
 * Where a credential's secret stands in the secrets manager during the flow: `current` (no rotation in progress, or
 * it finished), `keep-old` (new secret generated, the old one kept and bundled: Preparing … Prepared) or `drop-old`
 * (Completing: the old secret is ignored so the manager's cleanup removes it).
 */
export type SecretsRotationPhase = 'current' | 'keep-old' | 'drop-old';

/** The secrets-manager side of a rotation phase (undefined: the rotation never ran). */
export function secretsRotationPhase(phase: RotationPhase | undefined): SecretsRotationPhase {
  switch (phase) {
    case 'Preparing':
    case 'PreparingWithoutWorkersRollout':
    case 'WaitingForWorkersRollout':
    case 'Prepared':
      return 'keep-old';
    case 'Completing':
      return 'drop-old';
    default:
      return 'current';
  }
}

/** The secrets manager's rotation configuration for one flow of a Shoot. */
export interface SecretsRotationConfig {
  /**
   * `secretNamesToTimes` of `SecretsManager.create`: per secret config name the last initiation time of the rotation
   * that covers it (CA configs and the static token follow the CA rotation).
   */
  readonly secretNamesToTimes: Readonly<Record<string, Date>>;
  /** The secrets-manager phase of each phased credential. */
  readonly phases: Readonly<Record<PhasedCredentialKind, SecretsRotationPhase>>;
  /** Generate options for the CA configs (`KeepOld`, old CAs ignored while Completing). */
  readonly certificateAuthorities: GenerateOptions;
  /** Generate options for the service account key (`KeepOld`, the old key ignored while Completing). */
  readonly serviceAccountKey: GenerateOptions;
  /** Generate options for the ETCD encryption key (`KeepOld`, the old key ignored while Completing). */
  readonly etcdEncryptionKey: GenerateOptions;
  /** Generate options for the SSH keypair: the old key stays valid until the next rotation. */
  readonly sshKeypair: GenerateOptions;
  /** Generate options for the observability password: replaced in place. */
  readonly observability: GenerateOptions;
}

function keepOld(phase: SecretsRotationPhase): GenerateOptions {
  return { rotate: 'KeepOld', ...(phase === 'drop-old' ? { ignoreOldSecrets: true } : {}) };
}

/**
 * The rotation configuration of the secrets manager for a flow of `shoot`, from the rotation status the flow runs
 * with (the status after {@link rotationStatusAtStart}). `caConfigNames` are the CA configs the flow generates.
 */
export function secretsRotationConfig(
  shoot: Shoot,
  caConfigNames: readonly string[] = DefaultCAConfigNames,
): SecretsRotationConfig {
  const rotation = shoot.status?.credentials?.rotation;
  const times: Record<string, Date> = {};
  const set = (names: readonly string[], time: string | undefined) => {
    if (time === undefined) return;
    for (const name of names) times[name] = new Date(time);
  };
  set([...caConfigNames, SecretNames.StaticToken], rotation?.certificateAuthorities?.lastInitiationTime);
  set([RotatedSecretNames.SSHKeypair], rotation?.sshKeypair?.lastInitiationTime);
  set([RotatedSecretNames.ObservabilityIngressUsers], rotation?.observability?.lastInitiationTime);
  set([SecretNames.ServiceAccountKey], rotation?.serviceAccountKey?.lastInitiationTime);
  set([SecretNames.ETCDEncryptionKey], rotation?.etcdEncryptionKey?.lastInitiationTime);

  const phases: Record<PhasedCredentialKind, SecretsRotationPhase> = {
    certificateAuthorities: secretsRotationPhase(rotationPhase(shoot, 'certificateAuthorities')),
    serviceAccountKey: secretsRotationPhase(rotationPhase(shoot, 'serviceAccountKey')),
    etcdEncryptionKey: secretsRotationPhase(rotationPhase(shoot, 'etcdEncryptionKey')),
  };
  const caPhase = rotationPhase(shoot, 'certificateAuthorities');
  return {
    secretNamesToTimes: times,
    phases,
    certificateAuthorities: caRotationOptions(caPhase === 'Completing' ? 'Completing' : undefined),
    serviceAccountKey: keepOld(phases.serviceAccountKey),
    etcdEncryptionKey: keepOld(phases.etcdEncryptionKey),
    sshKeypair: { rotate: 'KeepOld' },
    observability: { rotate: 'InPlace' },
  };
}

/**
 * The SSH keypair config of a shoot whose workers accept SSH (Gardener's `generateSSHKeypair`): RSA 4096 with an
 * OpenSSH public key, persisted, the old keypair kept after a rotation (until the next one).
 */
export function sshKeypairConfig(): SecretConfigWithOptions {
  return {
    config: { kind: 'rsa', name: RotatedSecretNames.SSHKeypair, bits: 4096, usedForSSH: true },
    options: { persist: true, rotate: 'KeepOld' },
  };
}

/**
 * `configs` with the generate options of the rotation merged into the options of the rotated credentials (the CA
 * configs, the service account key, the ETCD encryption key, the SSH keypair and the observability password); the
 * other options of a config (`persist`, …) stay. The other configs are returned unchanged.
 */
export function withRotationOptions(
  configs: readonly SecretConfigWithOptions[],
  rotation: SecretsRotationConfig,
): SecretConfigWithOptions[] {
  const byName: Record<string, GenerateOptions> = {
    [SecretNames.ServiceAccountKey]: rotation.serviceAccountKey,
    [SecretNames.ETCDEncryptionKey]: rotation.etcdEncryptionKey,
    [RotatedSecretNames.SSHKeypair]: rotation.sshKeypair,
    [RotatedSecretNames.ObservabilityIngressUsers]: rotation.observability,
  };
  return configs.map((c) => {
    const isCA = c.config.kind === 'certificate' && c.config.certType === 'ca';
    const extra = isCA ? rotation.certificateAuthorities : byName[c.config.name];
    return extra === undefined ? c : { ...c, options: { ...c.options, ...extra } };
  });
}
