// Registry credentials from a pull secret's `.dockerconfigjson` (type `kubernetes.io/dockerconfigjson`), looked up as
// Gardener's keychain does: first by `registry/repository`, then by `registry` (Docker Hub under
// `https://index.docker.io/v1/`), each key matched exactly and then against the configured keys reduced to their host
// (a scheme and a path dropped, as the Docker CLI's file store does). `auth` (base64 `user:password`) wins over
// `username`/`password`. Pure.

/** What to authenticate with; none of the fields set means anonymous. */
export interface RegistryCredentials {
  username?: string;
  password?: string;
  /** An OAuth2 refresh token exchanged at the token endpoint. */
  identityToken?: string;
  /** A bearer token sent as is. */
  registryToken?: string;
}

interface AuthEntry {
  auth?: string;
  username?: string;
  password?: string;
  identitytoken?: string;
  registrytoken?: string;
}

/** The Docker CLI's reduction of a configured key to a host: no scheme, nothing from the first `/`. */
const hostOf = (key: string) => key.replace(/^https?:\/\//, '').split('/')[0]!;

/** Parses `.dockerconfigjson`; throws when it is not JSON or has no `auths` object. */
export function parseDockerConfig(json: string): Record<string, AuthEntry> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    throw new Error('the pull secret .dockerconfigjson is not valid JSON', { cause: err });
  }
  const auths = (parsed as { auths?: unknown })?.auths;
  if (typeof auths !== 'object' || auths === null || Array.isArray(auths)) {
    throw new Error('the pull secret .dockerconfigjson has no "auths" object');
  }
  return auths as Record<string, AuthEntry>;
}

function lookup(auths: Record<string, AuthEntry>, key: string): AuthEntry | undefined {
  if (auths[key]) return auths[key];
  for (const [configured, entry] of Object.entries(auths)) if (hostOf(configured) === key) return entry;
  return undefined;
}

function credentialsOf(entry: AuthEntry): RegistryCredentials {
  const out: RegistryCredentials = {};
  if (entry.username) out.username = entry.username;
  if (entry.password) out.password = entry.password;
  if (entry.auth) {
    const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new Error('the pull secret has an "auth" entry that is not base64 of user:password');
    out.username = decoded.slice(0, colon);
    out.password = decoded.slice(colon + 1);
  }
  if (entry.identitytoken) out.identityToken = entry.identitytoken;
  if (entry.registrytoken) out.registryToken = entry.registrytoken;
  return out;
}

const isEmpty = (c: RegistryCredentials) => !c.username && !c.password && !c.identityToken && !c.registryToken;

/** The credentials for `registry/repository` in a `.dockerconfigjson`; undefined means anonymous. */
export function credentialsFor(
  dockerConfigJson: string,
  registry: string,
  repository: string,
): RegistryCredentials | undefined {
  const auths = parseDockerConfig(dockerConfigJson);
  const registryKey = registry === 'index.docker.io' ? 'https://index.docker.io/v1/' : registry;
  for (const key of [`${registry}/${repository}`, registryKey]) {
    const entry = lookup(auths, key) ?? (key === registryKey ? lookup(auths, registry) : undefined);
    if (!entry) continue;
    const creds = credentialsOf(entry);
    if (!isEmpty(creds)) return creds;
  }
  return undefined;
}
