import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../storage/index.js';
import { ServiceAccountTokens } from './service-account-tokens.js';

const key = () =>
  generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

async function setup() {
  const storage = new MemoryStorage();
  await storage.open();
  await storage.create('/registry/core/serviceaccounts/ns/robot', {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: 'robot', namespace: 'ns', uid: 'uid-1' },
  });
  return { storage, tokens: new ServiceAccountTokens(key(), storage) };
}

afterEach(() => vi.useRealTimers());

describe('ServiceAccount tokens', () => {
  it('expire after expirationSeconds', async () => {
    const { tokens } = await setup();
    const issued = await tokens.request('ns', 'robot', { spec: { expirationSeconds: 600 } });
    expect((await tokens.verify(issued.status.token))?.user.username).toBe('system:serviceaccount:ns:robot');
    vi.useFakeTimers({ now: Date.now() + 601_000 });
    expect(await tokens.verify(issued.status.token)).toBeUndefined();
  });

  it('are rejected when signed by another key, tampered with, or for a recreated ServiceAccount', async () => {
    const { storage, tokens } = await setup();
    const token: string = (await tokens.request('ns', 'robot', {})).status.token;
    const other = new ServiceAccountTokens(key(), storage);
    expect(await other.verify(token)).toBeUndefined();
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    payload.sub = 'system:serviceaccount:ns:admin';
    expect(
      await tokens.verify(`${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`),
    ).toBeUndefined();
    const current = await storage.get('/registry/core/serviceaccounts/ns/robot');
    await storage.delete('/registry/core/serviceaccounts/ns/robot', current!.revision);
    await storage.create('/registry/core/serviceaccounts/ns/robot', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'robot', namespace: 'ns', uid: 'uid-2' },
    });
    expect(await tokens.verify(token)).toBeUndefined();
  });

  it('never authenticate arbitrary or JWT-shaped garbage (property)', async () => {
    const { tokens } = await setup();
    const segment = fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('base64url'));
    const jwtShaped = fc.tuple(segment, segment, segment).map((parts) => parts.join('.'));
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), jwtShaped), async (token) => (await tokens.verify(token)) === undefined),
      { numRuns: 300 },
    );
  });

  it('never throw on garbage', async () => {
    const { tokens } = await setup();
    for (const junk of ['', 'a.b.c', 'x'.repeat(5000), '..', 'eyJhbGciOiJub25lIn0.e30.'])
      expect(await tokens.verify(junk)).toBeUndefined();
  });
});
