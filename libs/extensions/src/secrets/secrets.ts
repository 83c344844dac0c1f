// Extension-side secrets management (Gardener's extensions/pkg/util/secret/manager): a secrets manager for the shoot
// namespace of a Cluster whose CA rotation follows the shoot's credentials rotation — the last initiation time of the
// CA rotation renews the CAs, and its phase decides whether old CAs are kept (Preparing) or dropped (Completing).
import {
  SecretsManager,
  generateAllSecrets,
  secretNamesToTimesForCARotation,
  type CredentialsRotationPhase,
  type SecretConfigWithOptions,
  type SecretsClient,
  type SecretsManagerLogger,
} from '@gardener-ts/secrets-manager';
import type { Secret } from '@gardener-ts/controller-runtime';
import type { Cluster } from '../cluster/cluster.js';

interface RotationStatus {
  phase?: CredentialsRotationPhase;
  lastInitiationTime?: string;
}

/** The shoot's CA rotation status (`status.credentials.rotation.certificateAuthorities`), if any. */
export function caRotation(cluster: Cluster): RotationStatus | undefined {
  const status = cluster.shoot.status as
    { credentials?: { rotation?: { certificateAuthorities?: RotationStatus } } } | undefined;
  return status?.credentials?.rotation?.certificateAuthorities;
}

/** What a secrets manager for a Cluster needs. */
export interface ClusterSecretsManagerOptions {
  /** The manager identity (the `manager-identity` label), e.g. `provider-local-controlplane`. */
  identity: string;
  /** The secrets the extension generates; CA configs follow the shoot's CA rotation. */
  configs: readonly SecretConfigWithOptions[];
  now?: () => Date;
  logger?: SecretsManagerLogger;
}

/** A secrets manager for the shoot namespace of `cluster` (Gardener's `SecretsManagerForCluster`). */
export function secretsManagerForCluster(
  client: SecretsClient,
  cluster: Cluster,
  options: ClusterSecretsManagerOptions,
): Promise<SecretsManager> {
  return SecretsManager.create(client, {
    namespace: cluster.name,
    identity: options.identity,
    secretNamesToTimes: secretNamesToTimesForCARotation(options.configs, caRotation(cluster)?.lastInitiationTime),
    ...(options.now ? { now: options.now } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

/** Generates all `configs` (CAs first) in the rotation phase of the shoot's CA rotation; returns the secrets by name. */
export function generateSecretsForCluster(
  manager: SecretsManager,
  cluster: Cluster,
  configs: readonly SecretConfigWithOptions[],
): Promise<Record<string, Secret>> {
  return generateAllSecrets(manager, configs, caRotation(cluster)?.phase);
}
