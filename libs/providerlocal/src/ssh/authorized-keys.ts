// The SSH public keys a bastion's user data authorizes (a pure parser). Gardener's gardenlet writes the user's key
// into a bash script (`echo "<key>" > /home/gardener/.ssh/authorized_keys`, its `createUserData`); cloud providers
// also take cloud-init's `#cloud-config` (`ssh_authorized_keys`, top-level or per entry of `users`). Both are read:
// in a script, every `echo`/`printf` and here-document that writes an `authorized_keys` file, the user named by the
// file's home directory; in a cloud-config, each user's keys (top-level keys belong to any user).
import { parse } from 'yaml';

/** One authorized key: an OpenSSH public key line (`<type> <base64> [comment]`) and the user it lets in. */
export interface AuthorizedKey {
  /** The login name the key is for; undefined: any login name (cloud-init's default user). */
  user?: string;
  /** The key type, e.g. `ssh-ed25519`. */
  type: string;
  /** The key blob (the base64 part). */
  data: string;
  /** The comment after the blob, if any. */
  comment?: string;
}

const KeyTypes = [
  'ssh-ed25519',
  'ssh-rsa',
  'ssh-dss',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'sk-ssh-ed25519@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
];

/**
 * Parses an authorized_keys line (options before the key type are not supported: Gardener writes none); undefined
 * when the line is not a public key whose blob names its own type.
 */
export function parseAuthorizedKeyLine(line: string, user?: string): AuthorizedKey | undefined {
  const [type, data, ...comment] = line.trim().split(/\s+/);
  if (!type || !data || !KeyTypes.includes(type) || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return undefined;
  const blob = Buffer.from(data, 'base64');
  if (blob.length < 4) return undefined;
  const length = blob.readUInt32BE(0);
  if (blob.length < 4 + length || blob.subarray(4, 4 + length).toString('latin1') !== type) return undefined;
  return {
    ...(user !== undefined ? { user } : {}),
    type,
    data,
    ...(comment.length ? { comment: comment.join(' ') } : {}),
  };
}

/** The user whose authorized_keys file `path` is: `/home/<user>/.ssh/...` or `/root/.ssh/...`; else undefined. */
export function userOfAuthorizedKeysPath(path: string): string | undefined {
  const home = /^\/home\/([^/]+)\/\.ssh\/authorized_keys2?$/.exec(path);
  if (home) return home[1];
  if (/^\/root\/\.ssh\/authorized_keys2?$/.test(path)) return 'root';
  return undefined;
}

/** The keys of user data (a script or a cloud-config, as text). Lines that are not keys are skipped. */
export function authorizedKeysFromUserData(userData: string): AuthorizedKey[] {
  return userData.trimStart().startsWith('#cloud-config') ? fromCloudConfig(userData) : fromScript(userData);
}

function keysOf(list: unknown, user?: string): AuthorizedKey[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((line) => {
    const key = typeof line === 'string' ? parseAuthorizedKeyLine(line, user) : undefined;
    return key ? [key] : [];
  });
}

function fromCloudConfig(text: string): AuthorizedKey[] {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch {
    return [];
  }
  if (!doc || typeof doc !== 'object') return [];
  const config = doc as Record<string, unknown>;
  const keys = keysOf(config.ssh_authorized_keys ?? config['ssh-authorized-keys']);
  for (const entry of Array.isArray(config.users) ? config.users : []) {
    if (!entry || typeof entry !== 'object') continue;
    const u = entry as Record<string, unknown>;
    if (typeof u.name !== 'string') continue;
    keys.push(...keysOf(u.ssh_authorized_keys ?? u['ssh-authorized-keys'], u.name));
  }
  return keys;
}

// `echo|printf ... >[>] <path>` — the redirection target must be an authorized_keys file.
const WriteLine = /^\s*(?:echo|printf)\s+(.*?)\s*>>?\s*(["']?)(\S+?authorized_keys2?)\2\s*$/;
// `cat [>[>] <path>] <<[-]['"]?EOF['"]? [>[>] <path>]`
const HereDocument = /^\s*cat\s+(?:>>?\s*(\S+)\s+)?<<-?\s*(["']?)(\w+)\2(?:\s*>>?\s*(\S+))?\s*$/;

/** The words of a shell argument list (single and double quotes, no expansions), without printf formats. */
function words(args: string): string[] {
  const result: string[] = [];
  const word = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m = word.exec(args); m; m = word.exec(args)) {
    result.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3]!));
  }
  return result;
}

function fromScript(text: string): AuthorizedKey[] {
  const keys: AuthorizedKey[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const write = WriteLine.exec(line);
    if (write) {
      const user = userOfAuthorizedKeysPath(write[3]!);
      const args = words(write[1]!).filter((w) => !w.startsWith('-') && !w.includes('%'));
      // An echo of several words is one line; each argument of printf is one.
      const candidates = line.trimStart().startsWith('echo') ? [args.join(' ')] : args;
      for (const candidate of candidates.flatMap((c) => c.split(/\\n|\n/))) {
        const key = parseAuthorizedKeyLine(candidate, user);
        if (key) keys.push(key);
      }
      continue;
    }
    const here = HereDocument.exec(line);
    if (here) {
      const path = here[1] ?? here[4];
      const end = here[3]!;
      const body: string[] = [];
      for (i++; i < lines.length && lines[i]!.trim() !== end; i++) body.push(lines[i]!);
      if (!path || !/authorized_keys2?$/.test(path)) continue;
      const user = userOfAuthorizedKeysPath(path.replace(/^["']|["']$/g, ''));
      for (const candidate of body) {
        const key = parseAuthorizedKeyLine(candidate, user);
        if (key) keys.push(key);
      }
    }
  }
  return keys;
}
