// Bootstrap tokens as kube reads them (how a gardenlet first reaches the garden): `<token-id>.<token-secret>`
// matches a Secret `bootstrap-token-<token-id>` of type bootstrap.kubernetes.io/token in kube-system that allows
// authentication and has not expired; the user is `system:bootstrap:<token-id>` in group system:bootstrappers and
// the Secret's extra groups.
import { timingSafeEqual } from 'node:crypto';
import type { Authenticator } from '../http/authn.js';
import type { Storage } from '../storage/types.js';

const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const EXTRA_GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

const field = (data: Record<string, string> | undefined, key: string) =>
  data?.[key] ? Buffer.from(data[key], 'base64').toString('utf8') : undefined;

export function bootstrapTokenAuthenticator(storage: Storage): Authenticator {
  return async (req) => {
    const header = req.headers.authorization;
    const match = header?.startsWith('Bearer ') ? TOKEN.exec(header.slice(7).trim()) : null;
    if (!match) return undefined;
    const [, id, secret] = match;
    const stored = await storage.get(`/registry/core/secrets/kube-system/bootstrap-token-${id}`);
    const object = stored?.object;
    if (!object || object.type !== 'bootstrap.kubernetes.io/token' || object.metadata.deletionTimestamp)
      return undefined;
    const data: Record<string, string> | undefined = object.data;
    const expected = Buffer.from(field(data, 'token-secret') ?? '');
    const presented = Buffer.from(secret);
    if (field(data, 'token-id') !== id || expected.length !== presented.length || !timingSafeEqual(expected, presented))
      return undefined;
    if (field(data, 'usage-bootstrap-authentication') !== 'true') return undefined;
    const expiration = field(data, 'expiration');
    if (expiration && !(Date.parse(expiration) > Date.now())) return undefined;
    const extra = (field(data, 'auth-extra-groups') ?? '')
      .split(',')
      .map((g) => g.trim())
      .filter(Boolean);
    if (extra.some((g) => !EXTRA_GROUP.test(g))) return undefined;
    return { username: `system:bootstrap:${id}`, groups: ['system:bootstrappers', ...extra, 'system:authenticated'] };
  };
}
