// Authentication: a chain of authenticators, each may recognise the request. The first that does decides.
// This issue ships x509 client certificates and static bearer tokens; ServiceAccount JWTs, bootstrap tokens
// and webhook token review plug into the same chain.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { timingSafeEqual } from 'node:crypto';
import type { UserInfo } from '../server/context.js';

export type Authenticator = (req: IncomingMessage) => UserInfo | undefined | Promise<UserInfo | undefined>;

/** Client certificates verified against the client CA during the TLS handshake: CN = user, O = groups. */
export const clientCertificateAuthenticator: Authenticator = (req) => {
  const socket = req.socket as TLSSocket;
  if (!socket.authorized || typeof socket.getPeerCertificate !== 'function') return undefined;
  // The certificate is fixed for the connection's life; reading it is costly, so keep-alive requests reuse it.
  if (certificateUsers.has(socket)) return certificateUsers.get(socket);
  const cert = socket.getPeerCertificate();
  let user: UserInfo | undefined;
  if (cert?.subject?.CN) {
    const o = cert.subject.O;
    const groups = Array.isArray(o) ? o : o ? [o] : [];
    const cn = cert.subject.CN;
    user = { username: Array.isArray(cn) ? cn[0] : cn, groups: [...groups, 'system:authenticated'] };
  }
  certificateUsers.set(socket, user);
  return user;
};

const certificateUsers = new WeakMap<TLSSocket, UserInfo | undefined>();

export interface StaticToken {
  token: string;
  user: UserInfo;
}

/** Bearer tokens from a static token file (`token,user,uid,"group1,group2"`), compared in constant time. */
export function staticTokenAuthenticator(tokens: StaticToken[]): Authenticator {
  // The tokens' bytes once, not per request; each request still gets a user object of its own.
  const known = tokens.map((t) => ({ bytes: Buffer.from(t.token), user: t.user }));
  return (req) => {
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ')) return undefined;
    const presented = Buffer.from(header.slice(7).trim());
    for (const t of known) {
      if (t.bytes.length === presented.length && timingSafeEqual(t.bytes, presented)) {
        return { ...t.user, groups: [...t.user.groups, 'system:authenticated'] };
      }
    }
    return undefined;
  };
}

export function parseTokenFile(text: string): StaticToken[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((line) => {
      const fields = line.match(/("[^"]*"|[^,]+)/g)?.map((f) => f.replace(/^"|"$/g, '')) ?? [];
      const [token, username, uid, groups] = fields;
      return { token, user: { username, uid, groups: groups ? groups.split(',') : [] } };
    });
}

export const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

export async function authenticate(chain: Authenticator[], req: IncomingMessage): Promise<UserInfo | undefined> {
  for (const a of chain) {
    const user = await a(req);
    if (user) return user;
  }
  return undefined;
}
