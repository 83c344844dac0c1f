import { createPublicKey, generateKeyPairSync } from 'node:crypto';
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

  it('bound to a Pod keep working while the Pod shuts down, and stop once it is gone or deleted over a minute ago', async () => {
    const { storage, tokens } = await setup();
    const podKey = '/registry/core/pods/ns/web';
    await storage.create(podKey, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'ns', uid: 'pod-1' },
    });
    const token: string = (
      await tokens.request('ns', 'robot', {
        spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web', uid: 'pod-1' } },
      })
    ).status.token;
    const deleting = async (deletionTimestamp: string) => {
      const current = await storage.get(podKey);
      await storage.update(
        podKey,
        { ...current!.object, metadata: { ...current!.object.metadata, deletionTimestamp } },
        current!.revision,
      );
    };
    // kubectl delete pod: the deletionTimestamp is the end of the grace period, 30 s ahead.
    await deleting(new Date(Date.now() + 30_000).toISOString());
    expect((await tokens.verify(token))?.user.extra?.['authentication.kubernetes.io/pod-uid']).toEqual(['pod-1']);
    await deleting(new Date(Date.now() - 50_000).toISOString());
    expect(await tokens.verify(token)).toBeDefined();
    await deleting(new Date(Date.now() - 61_000).toISOString());
    expect(await tokens.verify(token)).toBeUndefined();
    await deleting(new Date(Date.now() + 30_000).toISOString());
    const current = await storage.get(podKey);
    await storage.delete(podKey, current!.revision);
    expect(await tokens.verify(token)).toBeUndefined();
  });

  it("accept the --api-audiences (Gardener's kubernetes,gardener) and default requests to them", async () => {
    const { storage } = await setup();
    const signingKey = key();
    const tokens = new ServiceAccountTokens(signingKey, storage, { apiAudiences: ['kubernetes', 'gardener'] });
    // The token requestor of gardener-resource-manager asks for audience `gardener`.
    const forGardener: string = (await tokens.request('ns', 'robot', { spec: { audiences: ['gardener'] } })).status
      .token;
    expect((await tokens.verify(forGardener))?.audiences).toEqual(['gardener']);
    const defaulted = await tokens.request('ns', 'robot', {});
    expect(defaulted.spec.audiences).toEqual(['kubernetes', 'gardener']);
    const forOther: string = (await tokens.request('ns', 'robot', { spec: { audiences: ['vault'] } })).status.token;
    expect(await tokens.verify(forOther)).toBeUndefined();
    // Without --api-audiences only the issuer is accepted, as kube does.
    const issuerOnly = new ServiceAccountTokens(signingKey, storage);
    expect(await issuerOnly.verify(forGardener)).toBeUndefined();
    const forIssuer: string = (await issuerOnly.request('ns', 'robot', {})).status.token;
    expect((await issuerOnly.verify(forIssuer))?.user.username).toBe('system:serviceaccount:ns:robot');
  });

  it('accept tokens of the further issuers (repeated --service-account-issuer) and issue with the first', async () => {
    const { storage } = await setup();
    const signingKey = key();
    const before = new ServiceAccountTokens(signingKey, storage, {
      issuer: 'https://old.example',
      apiAudiences: ['k'],
    });
    const old: string = (await before.request('ns', 'robot', {})).status.token;
    const changed = new ServiceAccountTokens(signingKey, storage, {
      issuer: 'https://new.example',
      apiAudiences: ['k'],
    });
    expect(await changed.verify(old)).toBeUndefined();
    const accepting = new ServiceAccountTokens(signingKey, storage, {
      issuer: 'https://new.example',
      acceptedIssuers: ['https://old.example'],
      apiAudiences: ['k'],
    });
    expect((await accepting.verify(old))?.user.username).toBe('system:serviceaccount:ns:robot');
    const fresh: string = (await accepting.request('ns', 'robot', {})).status.token;
    expect(JSON.parse(Buffer.from(fresh.split('.')[1]!, 'base64url').toString()).iss).toBe('https://new.example');
    expect(await before.verify(fresh)).toBeUndefined();
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

describe("ServiceAccount tokens with Gardener's keys (--service-account-signing-key-file, --service-account-key-file)", () => {
  const rsa = () =>
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const claims = (token: string) =>
    token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));

  it('signs with an RSA key as RS256 for the configured issuer, which is also the default audience', async () => {
    const { storage } = await setup();
    const issuer = 'https://api.local.local.internal.local.gardener.cloud';
    const signingKey = rsa();
    const tokens = new ServiceAccountTokens(signingKey, storage, { issuer });
    const token: string = (await tokens.request('ns', 'robot', {})).status.token;
    const [header, payload] = claims(token);
    expect(header).toMatchObject({ alg: 'RS256', kid: expect.stringMatching(/^[\w-]{43}$/) });
    expect(payload).toMatchObject({ iss: issuer, aud: [issuer] });
    expect((await tokens.verify(token))?.user.username).toBe('system:serviceaccount:ns:robot');
    // A server of another issuer does not accept it, though it holds the same key.
    const elsewhere = new ServiceAccountTokens(signingKey, storage, { issuer: 'https://elsewhere' });
    expect(await elsewhere.verify(token)).toBeUndefined();
  });

  it("verifies with every key of the bundle (Gardener's bundle.key during a rotation), and only those", async () => {
    const { storage } = await setup();
    const [oldKey, newKey] = [rsa(), key()];
    const before = new ServiceAccountTokens(oldKey, storage);
    const oldToken: string = (await before.request('ns', 'robot', {})).status.token;
    const rotating = new ServiceAccountTokens(newKey, storage, { verificationKeysPem: `${newKey}${oldKey}` });
    expect((await rotating.verify(oldToken))?.user.username).toBe('system:serviceaccount:ns:robot');
    const newToken: string = (await rotating.request('ns', 'robot', {})).status.token;
    expect(claims(newToken)[0].alg).toBe('ES256');
    expect(await rotating.verify(newToken)).toBeDefined();
    const after = new ServiceAccountTokens(newKey, storage, { verificationKeysPem: newKey });
    expect(await after.verify(oldToken)).toBeUndefined();
    // Public keys work as well as private ones.
    const publicOnly = createPublicKey(oldKey).export({ type: 'spki', format: 'pem' }).toString();
    expect(
      await new ServiceAccountTokens(newKey, storage, { verificationKeysPem: publicOnly }).verify(oldToken),
    ).toBeDefined();
  });

  it('refuses keys it cannot use, naming the problem', async () => {
    const { storage } = await setup();
    expect(() => new ServiceAccountTokens(key(), storage, { verificationKeysPem: 'not a key' })).toThrow(
      'no PEM public or private key found',
    );
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => new ServiceAccountTokens(ed, storage)).toThrow('unsupported service account key type ed25519');
  });
});
