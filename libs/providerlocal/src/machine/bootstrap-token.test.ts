import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bootstrapTokenExpired,
  bootstrapTokenID,
  bootstrapTokenSecret,
  newTokenSecret,
  withBootstrapToken,
} from './bootstrap-token.js';

describe("a machine's bootstrap token", () => {
  it('has the id machine-controller-manager derives from the machine name: 6 of [0-9a-f], stable', () => {
    // The last five bytes of "...-abcde" are "abcde": hex 6162636465, cut to 616263.
    expect(bootstrapTokenID('shoot--local--local-local-z1-5f9c8-abcde')).toBe('616263');
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), (name) => {
        const id = bootstrapTokenID(name);
        expect(id).toMatch(/^[0-9a-f]{6}$/);
        expect(bootstrapTokenID(name)).toBe(id);
      }),
    );
  });

  it('is a kube bootstrap token Secret in kube-system with both usages and an RFC 3339 expiration', () => {
    const secret = newTokenSecret();
    expect(secret).toMatch(/^[0-9a-z]{16}$/);
    const s = bootstrapTokenSecret('m-abcde', secret, new Date('2026-11-29T13:20:00.123Z')) as {
      metadata: unknown;
      type: string;
      data: Record<string, string>;
    };
    expect(s.metadata).toEqual({ name: 'bootstrap-token-616263', namespace: 'kube-system' });
    expect(s.type).toBe('bootstrap.kubernetes.io/token');
    const data = Object.fromEntries(Object.entries(s.data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
    expect(data).toMatchObject({
      'token-id': '616263',
      'token-secret': secret,
      expiration: '2026-11-29T13:20:00Z',
      'usage-bootstrap-authentication': 'true',
      'usage-bootstrap-signing': 'true',
    });
  });

  it('replaces every placeholder of the user data', () => {
    const userData = 'a: <<BOOTSTRAP_TOKEN>>\nb: <<BOOTSTRAP_TOKEN>>\nc: <<MACHINE_NAME>>\n';
    expect(withBootstrapToken(userData, '616263.0123456789abcdef')).toBe(
      'a: 616263.0123456789abcdef\nb: 616263.0123456789abcdef\nc: <<MACHINE_NAME>>\n',
    );
  });
});

describe('bootstrapTokenExpired', () => {
  it('is expired once its expiration passed (a kept token of a restored machine is replaced), not before', () => {
    const secret = bootstrapTokenSecret('m1', 'abcdefghijklmnop', new Date('2026-11-29T10:20:00Z')) as {
      data: Record<string, string>;
    };
    expect(bootstrapTokenExpired(secret.data, new Date('2026-11-29T10:19:59Z'))).toBe(false);
    expect(bootstrapTokenExpired(secret.data, new Date('2026-11-29T10:20:00Z'))).toBe(true);
    expect(bootstrapTokenExpired({}, new Date())).toBe(false);
  });
});
