// Access to the garden cluster from an extension in a seed (Gardener's "Access to the Garden Cluster for Extensions"):
// gardenlet mounts a generic garden kubeconfig whose user reads a token file that its TokenRequestor renews; its path
// is in $GARDEN_KUBECONFIG, the seed's name in $SEED_NAME. An extension may also request its own token with a garden
// access secret.
import type { KubeConfig } from '@kubernetes/client-node';
import { ApiClient, loadKubeConfig, type Secret, type TransportOptions } from '@gardener-ts/controller-runtime';

/** How long a token read from a token file is used before the file is read again (controller-runtime's). */
export { TokenFileRefreshMs } from '@gardener-ts/controller-runtime';

/** The environment variable with the path of the generic garden kubeconfig. */
export const GardenKubeconfigEnv = 'GARDEN_KUBECONFIG';
/** The environment variable with the name of the seed the extension runs on. */
export const SeedNameEnv = 'SEED_NAME';
/** Where gardenlet mounts the generic garden kubeconfig. */
export const DefaultGardenKubeconfigPath = '/var/run/secrets/gardener.cloud/garden/generic-kubeconfig/kubeconfig';

/** The garden kubeconfig path from the environment, if gardenlet injected one. */
export function gardenKubeconfigPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[GardenKubeconfigEnv] || undefined;
}

/** The seed's name from the environment, if gardenlet injected it. */
export function seedName(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[SeedNameEnv] || undefined;
}

/**
 * Loads a kubeconfig whose users may authenticate with `tokenFile` (as the generic garden kubeconfig does; relative
 * paths are relative to the kubeconfig). The token is read again at least every minute, like client-go, so tokens
 * that gardenlet renews are picked up without a restart. The same as controller-runtime's `loadKubeConfig`, kept under
 * this name for extensions.
 */
export function loadGardenKubeConfig(path: string): KubeConfig {
  return loadKubeConfig(path);
}

/** A client of the garden cluster from `$GARDEN_KUBECONFIG` (or `path`); throws when neither names a kubeconfig. */
export function gardenClient(
  path: string | undefined = gardenKubeconfigPath(),
  options: TransportOptions = {},
): Promise<ApiClient> {
  if (!path)
    throw new Error(
      `no garden kubeconfig: ${GardenKubeconfigEnv} is not set (is the extension installed by gardenlet?)`,
    );
  return ApiClient.create(loadGardenKubeConfig(path), options);
}

/** How to request a dedicated garden token. */
export interface GardenAccessSecretOptions {
  /** The secret's name in the extension's namespace. */
  name: string;
  namespace: string;
  /** The ServiceAccount gardenlet creates in the seed's namespace of the garden. Do not prefix it with `extension-`. */
  serviceAccountName: string;
  /** Labels for that ServiceAccount (to bind custom permissions with a selector). */
  serviceAccountLabels?: Record<string, string>;
}

/**
 * A garden access secret: gardenlet's TokenRequestor (class `garden`) creates the ServiceAccount in the garden,
 * requests a token for it and writes it under the `token` key.
 */
export function gardenAccessSecret(options: GardenAccessSecretOptions): Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: {
      name: options.name,
      namespace: options.namespace,
      labels: { 'resources.gardener.cloud/purpose': 'token-requestor', 'resources.gardener.cloud/class': 'garden' },
      annotations: {
        'serviceaccount.resources.gardener.cloud/name': options.serviceAccountName,
        ...(options.serviceAccountLabels
          ? { 'serviceaccount.resources.gardener.cloud/labels': JSON.stringify(options.serviceAccountLabels) }
          : {}),
      },
    },
  };
}
