// Loading kubeconfig files as client-go does, including users that authenticate with a `tokenFile` (Gardener's generic
// token kubeconfigs: the garden kubeconfig of extensions, the shoot access kubeconfig of control plane components).
// client-go reads such a file again at least every minute, so a token that a token requestor renews in place is picked
// up without a restart; @kubernetes/client-node ignores `tokenFile`, so it is wired in here as an authenticator.
import { readFileSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { KubeConfig, type User } from '@kubernetes/client-node';
import { parse } from 'yaml';

/** How long a token read from a file is used before the file is read again (client-go's one minute). */
export const TokenFileRefreshMs = 60_000;

const TOKEN_FILE_PROVIDER = 'gardener-ts-token-file';

interface RawKubeconfig {
  users?: { name: string; user?: Record<string, unknown> }[];
}

type Authenticator = Parameters<KubeConfig['addAuthenticator']>[0];

/** Bearer tokens from files, re-read at most every {@link TokenFileRefreshMs}; one cache per file. */
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
      let token: string;
      try {
        token = readFileSync(file, 'utf8').trim();
      } catch (err) {
        throw new Error(`reading the token file ${file} of kubeconfig user ${user.name}`, { cause: err });
      }
      entry = { token, readAt: this.now() };
      this.cache.set(file, entry);
    }
    const target = opts as { headers?: Record<string, unknown> };
    target.headers = { ...(target.headers ?? {}), Authorization: `Bearer ${entry.token}` };
  }
}

/** The `tokenFile` of each user of a kubeconfig file, absolute (relative paths are relative to the file). */
function tokenFilesOf(path: string): Map<string, string> {
  let raw: RawKubeconfig | null;
  try {
    raw = parse(readFileSync(path, 'utf8')) as RawKubeconfig | null;
  } catch (err) {
    throw new Error(`reading kubeconfig ${path}`, { cause: err });
  }
  const files = new Map<string, string>();
  for (const u of raw?.users ?? []) {
    const file = u.user?.tokenFile;
    if (typeof file === 'string' && file) files.set(u.name, isAbsolute(file) ? file : join(dirname(path), file));
  }
  return files;
}

/**
 * `kc` with every user that has no inline token but a `tokenFile` (from `files`) authenticating with that file, re-read
 * at least every minute; `kc` itself when no user has one.
 */
function withTokenFiles(kc: KubeConfig, files: ReadonlyMap<string, string>, now?: () => number): KubeConfig {
  if (files.size === 0) return kc;
  const users = kc.users.map((u) => {
    const file = files.get(u.name);
    return file && !u.token ? { ...u, authProvider: { name: TOKEN_FILE_PROVIDER, config: { path: file } } } : u;
  });
  const out = new KubeConfig();
  out.loadFromOptions({ clusters: kc.clusters, contexts: kc.contexts, currentContext: kc.currentContext, users });
  out.addAuthenticator(new TokenFileAuthenticator(now));
  return out;
}

/** Options of {@link loadKubeConfig}. */
export interface LoadKubeConfigOptions {
  /** The clock of the token file cache (tests). */
  readonly now?: () => number;
}

/**
 * Loads a kubeconfig file; an empty path means the default (`$KUBECONFIG`, `~/.kube/config`, or in-cluster). Users
 * with a `tokenFile` authenticate with the token in that file (relative paths are relative to the kubeconfig), read
 * again at least every minute like client-go, so tokens renewed in place are used without a restart.
 */
export function loadKubeConfig(path: string, options: LoadKubeConfigOptions = {}): KubeConfig {
  const kc = new KubeConfig();
  if (path) {
    kc.loadFromFile(path);
    return withTokenFiles(kc, tokenFilesOf(path), options.now);
  }
  kc.loadFromDefault();
  // $KUBECONFIG may list several files (merged, the first one wins for a user's name, as client-go merges them).
  const files = new Map<string, string>();
  for (const file of (process.env.KUBECONFIG ?? '').split(delimiter).filter(Boolean)) {
    let found: Map<string, string>;
    try {
      found = tokenFilesOf(file);
    } catch {
      continue; // client-node skips files it cannot read too.
    }
    for (const [user, tokenFile] of found) if (!files.has(user)) files.set(user, tokenFile);
  }
  return withTokenFiles(kc, files, options.now);
}
