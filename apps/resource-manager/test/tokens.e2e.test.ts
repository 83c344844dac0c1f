// End to end: the TokenRequestor (token-requestor Secrets in the source, ServiceAccounts and tokens in the target)
// and the TokenInvalidator controller (legacy ServiceAccount token Secrets in the target), run by the built app.
import { readFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { kind } from '@gardener-ts/controller-runtime';
import { tokenRequestorSeedKubeconfig as seedKubeconfig } from '@gardener-ts/resourcemanager';
import { SecretK, b64, getOrUndefined, startLandscape, waitFor, type Landscape } from './harness.js';

const ns = 'default';
const SA = kind<{ metadata?: any; automountServiceAccountToken?: boolean }>('v1', 'ServiceAccount');
const RENEW = 'serviceaccount.resources.gardener.cloud/token-renew-timestamp';
const unb64 = (s: string | undefined) => Buffer.from(s ?? '', 'base64').toString('utf8');
const purpose = { 'resources.gardener.cloud/purpose': 'token-requestor', 'resources.gardener.cloud/class': 'shoot' };
const saAnnotations = (name: string) => ({
  'serviceaccount.resources.gardener.cloud/name': name,
  'serviceaccount.resources.gardener.cloud/namespace': 'kube-system',
});

let land: Landscape;

async function createSourceSecret(
  name: string,
  labels: Record<string, string>,
  annotations: Record<string, string>,
  data?: Record<string, string>,
) {
  await land.src.create({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: ns, labels, annotations },
    type: 'Opaque',
    data,
  });
}
const sourceSecret = (name: string) => getOrUndefined(land.src, SecretK, ns, name);
const kubeconfigUserToken = (kc: string) => YAML.parse(kc).users[0].user.token as string;

/** The payload of a JWT (the local API server issues signed JWTs). */
function claims(token: string): any {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

/** Moves the renew timestamp into the past, as if the renewal were due; resolves with the next renewed Secret. */
async function forceRenewal(name: string, previous: (s: any) => string) {
  const before = await sourceSecret(name);
  await land.src.patch(
    SecretK,
    { namespace: ns, name },
    { type: 'merge', patch: { metadata: { annotations: { [RENEW]: '2000-01-01T00:00:00Z' } } } },
  );
  return waitFor(
    `${name} renewed`,
    async () => {
      const s = await sourceSecret(name);
      const ts = s?.metadata?.annotations?.[RENEW];
      return s && ts && ts !== '2000-01-01T00:00:00Z' && previous(s) !== previous(before) ? s : undefined;
    },
    { timeoutMs: 15_000 },
  );
}

beforeAll(async () => {
  land = await startLandscape((config) => {
    config.controllers.tokenRequestor = { enabled: true, concurrentSyncs: 5 };
    config.controllers.tokenInvalidator = { enabled: true };
  });
  await land.tgt
    .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } })
    .catch(() => undefined);
  await land.start();
}, 60_000);

afterAll(async () => {
  await land?.stop();
});

describe('TokenRequestor', () => {
  it('creates the ServiceAccount, fills .data.token and renews it', async () => {
    const started = Date.now();
    await createSourceSecret('shoot-access-a', purpose, saAnnotations('sa-a'));
    const secret = await waitFor(
      'token in .data.token',
      async () => {
        const s = await sourceSecret('shoot-access-a');
        return s?.data?.token ? s : undefined;
      },
      { timeoutMs: 15_000 },
    );

    const sa = await getOrUndefined(land.tgt, SA, 'kube-system', 'sa-a');
    expect(sa?.automountServiceAccountToken).toBe(false);
    const token = unb64(secret.data!.token);
    const c = claims(token);
    expect(c.sub).toBe('system:serviceaccount:kube-system:sa-a');
    expect([c.aud].flat()).toContain('gardener');
    // Default lifetime 12h, renewal at 80 % (plus up to 5 % jitter).
    const renewAt = Date.parse(secret.metadata!.annotations![RENEW]!);
    expect(renewAt - started).toBeGreaterThan(9.6 * 3600_000 - 60_000);
    expect(renewAt - started).toBeLessThan(9.6 * 3600_000 * 1.05 + 60_000);

    const renewed = await forceRenewal('shoot-access-a', (s) => s.data?.token);
    expect(Date.parse(renewed.metadata!.annotations![RENEW]!)).toBeGreaterThan(Date.now());
    expect(claims(unb64(renewed.data!.token)).sub).toBe('system:serviceaccount:kube-system:sa-a');
  });

  it("writes the token into the current user of .data.kubeconfig (the seed's example) and renews it", async () => {
    await createSourceSecret('shoot-access-kubeconfig', purpose, saAnnotations('sa-kc'), {
      kubeconfig: b64(seedKubeconfig),
    });
    const secret = await waitFor(
      'token in kubeconfig',
      async () => {
        const s = await sourceSecret('shoot-access-kubeconfig');
        return s?.data?.kubeconfig && kubeconfigUserToken(unb64(s.data.kubeconfig)) ? s : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(secret.data!.token).toBeUndefined();
    const written = YAML.parse(unb64(secret.data!.kubeconfig));
    const expected = YAML.parse(seedKubeconfig);
    expected.users[0].user.token = written.users[0].user.token;
    expect(written).toEqual(expected);
    expect(claims(written.users[0].user.token).sub).toBe('system:serviceaccount:kube-system:sa-kc');

    const renewed = await forceRenewal('shoot-access-kubeconfig', (s) =>
      kubeconfigUserToken(unb64(s.data?.kubeconfig)),
    );
    expect(kubeconfigUserToken(unb64(renewed.data!.kubeconfig))).not.toBe(written.users[0].user.token);
  });

  it('requests the lifetime of the token-expiration-duration annotation and renews at 80 % of it', async () => {
    const started = Date.now();
    await createSourceSecret('shoot-access-6h', purpose, {
      ...saAnnotations('sa-6h'),
      'serviceaccount.resources.gardener.cloud/token-expiration-duration': '6h',
    });
    const secret = await waitFor(
      'token',
      async () => ((await sourceSecret('shoot-access-6h'))?.data?.token ? sourceSecret('shoot-access-6h') : undefined),
      { timeoutMs: 15_000 },
    );
    const c = claims(unb64(secret!.data!.token));
    expect(c.exp - c.iat).toBe(6 * 3600);
    const renewIn = Date.parse(secret!.metadata!.annotations![RENEW]!) - started;
    expect(renewIn).toBeGreaterThan(4.8 * 3600_000 - 60_000);
    expect(renewIn).toBeLessThan(4.8 * 3600_000 * 1.05 + 60_000);
  });

  it('puts the token into the target Secret named by the annotations, not into the source Secret', async () => {
    await land.tgt.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bar' } });
    await createSourceSecret('shoot-access-target', purpose, {
      ...saAnnotations('sa-t'),
      'token-requestor.resources.gardener.cloud/target-secret-name': 'foo',
      'token-requestor.resources.gardener.cloud/target-secret-namespace': 'bar',
    });
    const target = await waitFor(
      'target secret bar/foo',
      async () => {
        const s = await getOrUndefined(land.tgt, SecretK, 'bar', 'foo');
        return s?.data?.token ? s : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(claims(unb64(target.data!.token)).sub).toBe('system:serviceaccount:kube-system:sa-t');
    const source = await waitFor('renew timestamp', async () => {
      const s = await sourceSecret('shoot-access-target');
      return s?.metadata?.annotations?.[RENEW] ? s : undefined;
    });
    expect(source.data?.token).toBeUndefined();
  });

  it('leaves Secrets of another class and without the purpose label alone', async () => {
    await createSourceSecret(
      'other-class',
      { ...purpose, 'resources.gardener.cloud/class': 'garden' },
      saAnnotations('sa-other'),
    );
    await createSourceSecret('no-purpose', {}, saAnnotations('sa-none'));
    await createSourceSecret('after-them', purpose, saAnnotations('sa-after'));
    await waitFor('later secret handled', async () => (await sourceSecret('after-them'))?.data?.token, {
      timeoutMs: 15_000,
    });
    for (const name of ['other-class', 'no-purpose']) {
      const s = await sourceSecret(name);
      expect(s?.data?.token).toBeUndefined();
      expect(s?.metadata?.annotations?.[RENEW]).toBeUndefined();
    }
    expect(await getOrUndefined(land.tgt, SA, 'kube-system', 'sa-other')).toBeUndefined();
  });
});

describe('TokenRequestor inject-ca-bundle', () => {
  const INJECT = { 'serviceaccount.resources.gardener.cloud/inject-ca-bundle': 'true' };
  /** The CA the target kubeconfig trusts: what the resource-manager injects. */
  const targetCA = async () => {
    const kc = YAML.parse(await readFile(land.target.kubeconfigPath, 'utf8'));
    return unb64(kc.clusters[0].cluster['certificate-authority-data']);
  };

  it('writes the target CA as bundle.crt, which verifies the target API server', async () => {
    await createSourceSecret('shoot-access-ca', purpose, { ...saAnnotations('sa-ca'), ...INJECT });
    const secret = await waitFor(
      'token and bundle.crt',
      async () => {
        const s = await sourceSecret('shoot-access-ca');
        return s?.data?.token && s.data['bundle.crt'] ? s : undefined;
      },
      { timeoutMs: 15_000 },
    );
    const ca = unb64(secret.data!['bundle.crt']);
    expect(ca).toBe(await targetCA());
    expect(ca).toContain('BEGIN CERTIFICATE');

    // The bundle verifies the target API server's serving certificate (the token's audience is `gardener`, not the
    // API server's, so the request itself is refused with 401 — after a verified TLS handshake).
    const server = YAML.parse(await readFile(land.target.kubeconfigPath, 'utf8')).clusters[0].cluster.server as string;
    const call = (trusted: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpsRequest(
          new URL('/api', server),
          { ca: trusted, headers: { authorization: `Bearer ${unb64(secret.data!.token)}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect(await call(ca)).toBe(401);
    const other = (await import('node:tls')).rootCertificates[0]!;
    await expect(call(other)).rejects.toThrow(/certificate/);
  });

  it('renews at once when bundle.crt is not the current CA, and restores it', async () => {
    await waitFor('bundle', async () => (await sourceSecret('shoot-access-ca'))?.data?.['bundle.crt']);
    const before = await sourceSecret('shoot-access-ca');
    await land.src.patch(
      SecretK,
      { namespace: ns, name: 'shoot-access-ca' },
      { type: 'merge', patch: { data: { 'bundle.crt': b64('stale') } } },
    );
    const renewed = await waitFor(
      'bundle restored with a new token',
      async () => {
        const s = await sourceSecret('shoot-access-ca');
        return s?.data?.['bundle.crt'] &&
          unb64(s.data['bundle.crt']) !== 'stale' &&
          s.data.token !== before!.data!.token
          ? s
          : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(unb64(renewed.data!['bundle.crt'])).toBe(await targetCA());
  });

  it("sets the kubeconfig's current cluster certificate-authority-data instead of bundle.crt", async () => {
    await createSourceSecret(
      'shoot-access-kc-ca',
      purpose,
      { ...saAnnotations('sa-kc-ca'), ...INJECT },
      { kubeconfig: b64(seedKubeconfig) },
    );
    const secret = await waitFor(
      'token in kubeconfig',
      async () => {
        const s = await sourceSecret('shoot-access-kc-ca');
        return s?.data?.kubeconfig && kubeconfigUserToken(unb64(s.data.kubeconfig)) ? s : undefined;
      },
      { timeoutMs: 15_000 },
    );
    const kc = YAML.parse(unb64(secret.data!.kubeconfig));
    expect(unb64(kc.clusters[0].cluster['certificate-authority-data'])).toBe(await targetCA());
    expect(kc.clusters[0].cluster.server).toBe('some-server-url');
    expect(secret.data!['bundle.crt']).toBeUndefined();
  });

  it('without the annotation writes no bundle.crt', async () => {
    await createSourceSecret('shoot-access-no-ca', purpose, {
      ...saAnnotations('sa-no-ca'),
      'serviceaccount.resources.gardener.cloud/inject-ca-bundle': 'false',
    });
    const secret = await waitFor(
      'token',
      async () => {
        const s = await sourceSecret('shoot-access-no-ca');
        return s?.data?.token ? s : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(secret.data!['bundle.crt']).toBeUndefined();
  });
});

describe('TokenInvalidator', () => {
  const consider = 'token-invalidator.resources.gardener.cloud/consider';
  async function tokenSecret(name: string, sa: string) {
    await land.tgt.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name,
        namespace: ns,
        annotations: {
          'kubernetes.io/service-account.name': sa,
          'kubernetes.io/service-account.uid': '86e98645-2e05-11e9-863a-b2d4d086dd5a',
        },
      },
      type: 'kubernetes.io/service-account-token',
    });
  }
  const labels = async (name: string) => (await getOrUndefined(land.tgt, SecretK, ns, name))?.metadata?.labels ?? {};

  it("labels the token Secret of a ServiceAccount with automountServiceAccountToken=false (the seed's example)", async () => {
    await land.tgt.create({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'my-serviceaccount', namespace: ns },
      automountServiceAccountToken: false,
    });
    await tokenSecret('my-serviceaccount-token-ntxs9', 'my-serviceaccount');
    const l = await waitFor(
      'consider label',
      async () => {
        const l = await labels('my-serviceaccount-token-ntxs9');
        return l[consider] ? l : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(l).toMatchObject({ 'resources.gardener.cloud/purpose': 'token-invalidator', [consider]: 'true' });

    // Turning automount on again withdraws the Secret from invalidation.
    await land.tgt.patch(
      SA,
      { namespace: ns, name: 'my-serviceaccount' },
      { type: 'merge', patch: { automountServiceAccountToken: true } },
    );
    await waitFor(
      'consider label removed',
      async () => !(consider in (await labels('my-serviceaccount-token-ntxs9'))),
      { timeoutMs: 15_000 },
    );
  });

  it('skips ServiceAccounts labeled token-invalidator.resources.gardener.cloud/skip=true and those with automount', async () => {
    await land.tgt.create({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: {
        name: 'skipped',
        namespace: ns,
        labels: { 'token-invalidator.resources.gardener.cloud/skip': 'true' },
      },
      automountServiceAccountToken: false,
    });
    await land.tgt.create({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default-like', namespace: ns },
    });
    await tokenSecret('skipped-token', 'skipped');
    await tokenSecret('default-like-token', 'default-like');
    for (const name of ['skipped-token', 'default-like-token']) {
      const l = await waitFor(
        `${name} seen`,
        async () => {
          const l = await labels(name);
          return l['resources.gardener.cloud/purpose'] ? l : undefined;
        },
        { timeoutMs: 15_000 },
      );
      expect(l[consider]).toBeUndefined();
    }
  });
});
