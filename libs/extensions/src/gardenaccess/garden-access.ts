// Access to the garden cluster from an extension in a seed (Gardener's "Access to the Garden Cluster for Extensions"):
// gardenlet mounts a generic garden kubeconfig whose user reads a token file that its TokenRequestor renews; its path
// is in $GARDEN_KUBECONFIG, the seed's name in $SEED_NAME. An extension may also request its own token with a garden
// access secret.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { KubeConfig, type User } from '@kubernetes/client-node';
import { ApiClient, type Secret, type TransportOptions } from '@gardener-ts/controller-runtime';
import { parse } from 'yaml';

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

interface RawKubeconfig {
  clusters?: { name: string; cluster: Record<string, unknown> }[];
  users?: { name: string; user: Record<string, unknown> }[];
  contexts?: { name: string; context: Record<string, unknown> }[];
  'current-context'?: string;
}

const TOKEN_FILE_PROVIDER = 'gardener-ts-token-file';
/** How long a token read from a file is used before the file is read again (client-go's one minute). */
export const TokenFileRefreshMs = 60_000;

/** Bearer tokens from files, re-read at most every `TokenFileRefreshMs`; one cache per kubeconfig and file. */
type Authenticator = Parameters<KubeConfig['addAuthenticator']>[0];

class TokenFileAuthenticator implements Authenticator {
  private readonly cache = new Map<string, { token: string; readAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  isAuthProvider(user: User): boolean {
    return user.authProvider?.name === TOKEN_FILE_PROVIDER;
  }

  async applyAuthentication(user: User, opts: Parameters<Authenticator['applyAuthentication']>[1]): Promise<void> {
    const file = (user.authProvider as { config?: Record<string, string> } | undefined)?.config?.path;
    if (!file) return;
    let entry = this.cache.get(file);
    if (!entry || this.now() - entry.readAt > TokenFileRefreshMs) {
      entry = { token: readFileSync(file, 'utf8').trim(), readAt: this.now() };
      this.cache.set(file, entry);
    }
    const target = opts as { headers?: Record<string, unknown> };
    target.headers = { ...(target.headers ?? {}), Authorization: `Bearer ${entry.token}` };
  }
}

/**
 * Loads a kubeconfig whose users may authenticate with `tokenFile` (as the generic garden kubeconfig does; relative
 * paths are relative to the kubeconfig). The token is read again at least every minute, like client-go, so tokens
 * that gardenlet renews are picked up without a restart.
 */
export function loadGardenKubeConfig(path: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  let raw: RawKubeconfig;
  try {
    raw = parse(readFileSync(path, 'utf8')) as RawKubeconfig;
  } catch (err) {
    throw new Error(`reading kubeconfig ${path}`, { cause: err });
  }
  const tokenFiles = new Map<string, string>();
  for (const u of raw.users ?? []) {
    const file = u.user?.tokenFile;
    if (typeof file === 'string' && file) tokenFiles.set(u.name, isAbsolute(file) ? file : join(dirname(path), file));
  }
  if (tokenFiles.size === 0) return kc;
  const users = kc.users.map((u) => {
    const file = tokenFiles.get(u.name);
    return file && !u.token ? { ...u, authProvider: { name: TOKEN_FILE_PROVIDER, config: { path: file } } } : u;
  });
  const out = new KubeConfig();
  out.loadFromOptions({ clusters: kc.clusters, contexts: kc.contexts, currentContext: kc.currentContext, users });
  out.addAuthenticator(new TokenFileAuthenticator());
  return out;
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
