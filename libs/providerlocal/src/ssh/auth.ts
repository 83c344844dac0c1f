// Public-key authentication as OpenSSH's sshd does it with an authorized_keys file, for the SSH servers of local mode
// (the bastion's and the nodes'): a client gets in as a user when it offers one of that user's authorized keys and
// proves it holds the private key (the signature over the session); every other method is refused. Also the host
// key a server makes when it was given none.
import { timingSafeEqual } from 'node:crypto';
import ssh2, { type AuthContext, type ParsedKey } from 'ssh2';
import type { Logger } from '@gardener-ts/logging';
import type { AuthorizedKey } from './authorized-keys.js';

const { utils } = ssh2;

/** A new ed25519 host key (OpenSSH private key format), for a server that was given none. */
export function generateHostKey(): string {
  return utils.generateKeyPairSync('ed25519').private;
}

/** Whether the offered key is `key` (same blob). */
function sameKey(offered: { algo: string; data: Buffer }, key: ParsedKey): boolean {
  const blob = key.getPublicSSH();
  return offered.data.length === blob.length && timingSafeEqual(offered.data, blob);
}

/** The authorized key of the login user that `ctx` offers, parsed; undefined when none. */
function offeredKey(keys: readonly AuthorizedKey[], ctx: AuthContext): ParsedKey | undefined {
  if (ctx.method !== 'publickey') return undefined;
  for (const key of keys) {
    if (key.user !== undefined && key.user !== ctx.username) continue;
    const parsed = utils.parseKey(`${key.type} ${key.data}`);
    if (parsed instanceof Error) continue;
    if (sameKey(ctx.key, parsed)) return parsed;
  }
  return undefined;
}

/**
 * Answers one authentication attempt of an ssh2 server connection against the authorized `keys` (read for every
 * attempt, so changed keys apply at once; a failure to read them refuses the attempt).
 */
export async function authenticatePublicKey(
  ctx: AuthContext,
  keys: () => readonly AuthorizedKey[] | Promise<readonly AuthorizedKey[]>,
  log?: Logger,
): Promise<void> {
  let key: ParsedKey | undefined;
  try {
    key = offeredKey(await keys(), ctx);
  } catch (err) {
    log?.error({ err }, 'Could not read the authorized keys');
  }
  if (!key || ctx.method !== 'publickey') {
    ctx.reject(['publickey']);
    return;
  }
  // Without a signature the client only asks whether the key would do; with one, it must prove it holds the key.
  if (ctx.signature && ctx.blob && key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true) {
    log?.info({ user: ctx.username }, 'Public key signature invalid');
    ctx.reject(['publickey']);
    return;
  }
  if (ctx.signature) log?.info({ user: ctx.username }, 'Logged in');
  ctx.accept();
}
