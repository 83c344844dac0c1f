import type { IncomingMessage } from 'node:http';
import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryStorage } from '../storage/index.js';
import { bootstrapTokenAuthenticator } from './bootstrap-tokens.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const request = (token: string) => ({ headers: { authorization: `Bearer ${token}` } }) as IncomingMessage;

let storage: MemoryStorage;
const secret = (data: Record<string, string>, type = 'bootstrap.kubernetes.io/token') =>
  storage.create('/registry/core/secrets/kube-system/bootstrap-token-abcdef', {
    apiVersion: 'v1',
    kind: 'Secret',
    type,
    metadata: { name: 'bootstrap-token-abcdef', namespace: 'kube-system' },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  });

beforeEach(async () => {
  storage = new MemoryStorage();
  await storage.open();
});

describe('bootstrap tokens', () => {
  const valid = {
    'token-id': 'abcdef',
    'token-secret': '0123456789abcdef',
    'usage-bootstrap-authentication': 'true',
    'auth-extra-groups': 'system:bootstrappers:gardener',
  };

  it('authenticate as system:bootstrap:<id> with the extra groups', async () => {
    await secret(valid);
    expect(await bootstrapTokenAuthenticator(storage)(request('abcdef.0123456789abcdef'))).toEqual({
      username: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:bootstrappers:gardener', 'system:authenticated'],
    });
  });

  it('refuse a wrong secret, an expired token, a token not for authentication, and the wrong Secret type', async () => {
    const auth = bootstrapTokenAuthenticator(storage);
    await secret(valid);
    expect(await auth(request('abcdef.0123456789abcdeX'))).toBeUndefined();
    for (const [data, type] of [
      [{ ...valid, expiration: '2000-01-01T00:00:00Z' }, undefined],
      [{ ...valid, 'usage-bootstrap-authentication': 'false' }, undefined],
      [valid, 'Opaque'],
    ] as const) {
      const current = await storage.get('/registry/core/secrets/kube-system/bootstrap-token-abcdef');
      await storage.delete(current!.key, current!.revision);
      await secret(data, type);
      expect(await auth(request('abcdef.0123456789abcdef'))).toBeUndefined();
    }
  });
});
