import { afterEach, describe, expect, it } from 'vitest';
import { ChartCache } from './cache.js';
import { OciChartPuller, parseChallenge, type SecretData } from './puller.js';
import { startTestRegistry, type TestRegistry } from './test-registry.js';

const archive = Buffer.from('a packaged chart, as helm package writes it');
const b64 = (s: string) => Buffer.from(s).toString('base64');
const pullSecret = (host: string, username: string, password: string): SecretData => ({
  data: { '.dockerconfigjson': b64(JSON.stringify({ auths: { [host]: { auth: b64(`${username}:${password}`) } } })) },
});

let registry: TestRegistry | undefined;
afterEach(async () => {
  await registry?.close();
  registry = undefined;
});

describe('parseChallenge', () => {
  it('reads the scheme and the quoted and bare parameters', () => {
    expect(
      parseChallenge('Bearer realm="https://auth.example.com/token",service="registry.example.com",scope="a:b:pull"'),
    ).toEqual({
      scheme: 'bearer',
      params: { realm: 'https://auth.example.com/token', service: 'registry.example.com', scope: 'a:b:pull' },
    });
    expect(parseChallenge('Basic realm=registry')).toEqual({ scheme: 'basic', params: { realm: 'registry' } });
  });
});

describe('OciChartPuller', () => {
  it('pulls the helm layer of an anonymous registry by tag and by digest, the digest then from the cache', async () => {
    registry = await startTestRegistry();
    const digest = registry.push('charts/ext', '1.0.0', archive);
    const puller = new OciChartPuller();
    expect((await puller.pull({ ref: `oci://${registry.host}/charts/ext:1.0.0` })).equals(archive)).toBe(true);
    expect(registry.requests).toEqual([
      'GET /v2/',
      'GET /v2/charts/ext/manifests/1.0.0',
      expect.stringMatching(/^GET \/v2\/charts\/ext\/blobs\/sha256:[0-9a-f]{64}$/),
    ]);
    registry.requests.length = 0;
    const byDigest = await puller.pull({ repository: `${registry.host}/charts/ext`, tag: 'ignored', digest });
    expect(byDigest.equals(archive)).toBe(true);
    expect(registry.requests).toEqual([]); // cached under repository@digest by the tag pull
  });

  it('answers a bearer challenge with a token for the pull secret credentials', async () => {
    registry = await startTestRegistry({ kind: 'bearer', username: 'robot', password: 's3cret' });
    registry.push('charts/ext', '1.0.0', archive);
    const secrets: Record<string, SecretData> = { 'helm-pull': pullSecret(registry.host, 'robot', 's3cret') };
    const read: string[] = [];
    const puller = new OciChartPuller({
      readSecret: async (name) => {
        read.push(name);
        return secrets[name];
      },
    });
    const pulled = await puller.pull({
      ref: `${registry.host}/charts/ext:1.0.0`,
      pullSecretRef: { name: 'helm-pull' },
    });
    expect(pulled.equals(archive)).toBe(true);
    expect(read).toEqual(['helm-pull']);
    expect(registry.requests.slice(0, 2)).toEqual(['GET /v2/', 'GET /token']);

    // Without the pull secret the token endpoint refuses.
    await expect(new OciChartPuller().pull({ ref: `${registry.host}/charts/ext:1.0.0` })).rejects.toThrow(
      /failed to pull artifact 127\.0\.0\.1:\d+\/charts\/ext:1\.0\.0: token request .* HTTP 401/,
    );
  });

  it('sends basic credentials from the .dockerconfigjson when the registry asks for them', async () => {
    registry = await startTestRegistry({ kind: 'basic', username: 'u', password: 'p' });
    registry.push('charts/ext', '2.0.0', archive);
    const ok = new OciChartPuller({ readSecret: async () => pullSecret(registry!.host, 'u', 'p') });
    expect(
      (await ok.pull({ ref: `${registry.host}/charts/ext:2.0.0`, pullSecretRef: { name: 's' } })).equals(archive),
    ).toBe(true);
    const wrong = new OciChartPuller({ readSecret: async () => pullSecret(registry!.host, 'u', 'nope') });
    await expect(
      wrong.pull({ ref: `${registry.host}/charts/ext:2.0.0`, pullSecretRef: { name: 's' } }),
    ).rejects.toThrow(/GET manifest: HTTP 401/);
    await expect(new OciChartPuller().pull({ ref: `${registry.host}/charts/ext:2.0.0` })).rejects.toThrow(
      /basic authentication, but no pull secret credentials match/,
    );
  });

  it('refuses a blob whose digest does not match the manifest and caches nothing', async () => {
    registry = await startTestRegistry();
    registry.push('charts/ext', '1.0.0', archive, { corruptBlob: true });
    const cache = new ChartCache();
    const puller = new OciChartPuller({ cache });
    await expect(puller.pull({ ref: `${registry.host}/charts/ext:1.0.0` })).rejects.toThrow(/blob digest mismatch/);
    expect(cache.size.entries).toBe(0);
  });

  it('names a missing artifact, a missing pull secret and a pull secret without .dockerconfigjson', async () => {
    registry = await startTestRegistry();
    registry.push('charts/ext', '1.0.0', archive);
    const puller = new OciChartPuller({
      readSecret: async (name) => (name === 'empty' ? { data: {} } : undefined),
    });
    await expect(puller.pull({ ref: `${registry.host}/charts/ext:9.9.9` })).rejects.toThrow(/GET manifest: HTTP 404/);
    await expect(
      puller.pull({ ref: `${registry.host}/charts/ext:1.0.0`, pullSecretRef: { name: 'gone' } }),
    ).rejects.toThrow('pull secret garden/gone not found');
    await expect(
      puller.pull({ ref: `${registry.host}/charts/ext:1.0.0`, pullSecretRef: { name: 'empty' } }),
    ).rejects.toThrow('pull secret garden/empty is missing the data key .dockerconfigjson');
    await expect(puller.pull({ repository: `${registry.host}/charts/ext` })).rejects.toThrow(/tag or a digest/);
  });
});
