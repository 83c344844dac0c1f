import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { kubeconfigCA, kubeconfigToken, setKubeconfigToken } from './kubeconfig.js';
import { withToken } from './reconcile.js';
import { seedKubeconfig } from './seed-example.js';
import {
  caBundleUpToDate,
  expirationSeconds,
  goParseBool,
  hasToken,
  injectsCABundle,
  isTokenRequestorSecret,
  renewAfterMs,
  renewalPendingMs,
  renewTimestamp,
} from './renewal.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const unb64 = (s: string) => Buffer.from(s, 'base64').toString();

describe('kubeconfig token', () => {
  it('sets .users[0].user.token of the seed example and keeps everything else', () => {
    const out = YAML.parse(setKubeconfigToken(seedKubeconfig, 'new-token'));
    const expected = YAML.parse(seedKubeconfig);
    expected.users[0].user.token = 'new-token';
    expect(out).toEqual(expected);
  });

  it('replaces the user of the current context only, also from JSON', () => {
    const config = {
      'current-context': 'b',
      contexts: [
        { name: 'a', context: { user: 'ua' } },
        { name: 'b', context: { user: 'ub' } },
      ],
      users: [
        { name: 'ua', user: { token: 'keep' } },
        { name: 'ub', user: { token: 'old' } },
      ],
    };
    const out = YAML.parse(setKubeconfigToken(JSON.stringify(config), 'fresh'));
    expect(out.users).toEqual([
      { name: 'ua', user: { token: 'keep' } },
      { name: 'ub', user: { token: 'fresh' } },
    ]);
    expect(kubeconfigToken(setKubeconfigToken(JSON.stringify(config), 'fresh'))).toBe('fresh');
  });

  it('fails when the current context or its user is missing', () => {
    expect(() => setKubeconfigToken('current-context: x\ncontexts: []\n', 't')).toThrow(
      'did not find context defined in current context',
    );
    expect(() =>
      setKubeconfigToken('current-context: x\ncontexts: [{name: x, context: {user: u}}]\nusers: []\n', 't'),
    ).toThrow('did not find authInfo of current context named u');
    expect(() => setKubeconfigToken('- a list', 't')).toThrow('cannot decode kubeconfig');
  });
});

describe('where the token goes', () => {
  it('goes to .data.token without a kubeconfig', () => {
    expect(withToken({ other: b64('x') }, 'tok')).toEqual({ other: b64('x'), token: b64('tok') });
  });
  it('goes into the kubeconfig when there is one (and not to .data.token)', () => {
    const out = withToken({ kubeconfig: b64(seedKubeconfig) }, 'tok');
    expect(out.token).toBeUndefined();
    expect(kubeconfigToken(unb64(out.kubeconfig!))).toBe('tok');
  });
  it('has a token: .data.token present, or a non-empty kubeconfig user token', () => {
    expect(hasToken(undefined)).toBe(false);
    expect(hasToken({ token: '' })).toBe(true);
    expect(hasToken({ kubeconfig: b64(seedKubeconfig) })).toBe(false);
    expect(hasToken({ kubeconfig: b64(setKubeconfigToken(seedKubeconfig, 't')) })).toBe(true);
  });
});

describe('relevant Secrets', () => {
  const secret = (labels: Record<string, string>) => ({ metadata: { labels } });
  it('needs the purpose label', () => {
    expect(isTokenRequestorSecret(secret({ 'resources.gardener.cloud/purpose': 'token-requestor' }), undefined)).toBe(
      true,
    );
    expect(isTokenRequestorSecret(secret({ 'resources.gardener.cloud/purpose': 'other' }), undefined)).toBe(false);
    expect(isTokenRequestorSecret(secret({}), undefined)).toBe(false);
  });
  it('needs the class label to match when the controller has a class', () => {
    const labels = { 'resources.gardener.cloud/purpose': 'token-requestor' };
    expect(isTokenRequestorSecret(secret({ ...labels, 'resources.gardener.cloud/class': 'shoot' }), 'shoot')).toBe(
      true,
    );
    expect(isTokenRequestorSecret(secret({ ...labels, 'resources.gardener.cloud/class': 'garden' }), 'shoot')).toBe(
      false,
    );
    expect(isTokenRequestorSecret(secret(labels), 'shoot')).toBe(false);
    expect(isTokenRequestorSecret(secret({ ...labels, 'resources.gardener.cloud/class': 'garden' }), undefined)).toBe(
      true,
    );
  });
});

describe('renewal', () => {
  const now = new Date('2024-01-01T00:00:00Z');
  const hours = (h: number) => new Date(now.getTime() + h * 3600_000);

  it('requests 12h by default or the token-expiration-duration annotation', () => {
    expect(expirationSeconds(undefined)).toBe(43200);
    expect(expirationSeconds({ 'serviceaccount.resources.gardener.cloud/token-expiration-duration': '6h' })).toBe(
      21600,
    );
    expect(() =>
      expirationSeconds({ 'serviceaccount.resources.gardener.cloud/token-expiration-duration': 'soon' }),
    ).toThrow();
  });

  it('renews at 80 % of the lifetime, at the latest after 80 % of 24h, plus at most 5 % jitter', () => {
    expect(renewAfterMs(hours(12), now, 0)).toBe(9.6 * 3600_000);
    expect(renewAfterMs(hours(48), now, 0)).toBe(19.2 * 3600_000);
    expect(renewAfterMs(hours(10), now, 0.999)).toBeLessThanOrEqual(8 * 3600_000 * 1.05);
    expect(renewAfterMs(hours(10), now, 0.999)).toBeGreaterThan(8 * 3600_000 * 1.04);
  });

  it('writes the renew timestamp as RFC 3339 UTC seconds', () => {
    expect(renewTimestamp(new Date('2024-01-01T09:36:00.123Z'))).toBe('2024-01-01T09:36:00Z');
  });

  it('waits until the renew timestamp only while a token is present', () => {
    expect(renewalPendingMs('2024-01-01T01:00:00Z', true, now)).toBe(3600_000);
    expect(renewalPendingMs('2024-01-01T01:00:00Z', false, now)).toBeUndefined();
    expect(renewalPendingMs('2023-12-31T23:00:00Z', true, now)).toBeUndefined();
    expect(renewalPendingMs(undefined, true, now)).toBeUndefined();
    expect(() => renewalPendingMs('yesterday', true, now)).toThrow('could not parse renew timestamp');
  });
});

describe('inject-ca-bundle', () => {
  const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

  it('reads the annotation like strconv.ParseBool', () => {
    for (const v of ['true', 'True', 'TRUE', 't', 'T', '1']) expect(goParseBool(v)).toBe(true);
    for (const v of [undefined, '', 'false', 'yes', 'on', '0']) expect(goParseBool(v)).toBe(false);
    expect(injectsCABundle({ 'serviceaccount.resources.gardener.cloud/inject-ca-bundle': 'true' })).toBe(true);
    expect(injectsCABundle({})).toBe(false);
  });

  it('writes bundle.crt next to the token, and removes it when there is no CA to inject', () => {
    const data = withToken({ other: b64('x') }, 'tok', CA);
    expect(unb64(data.token!)).toBe('tok');
    expect(unb64(data['bundle.crt']!)).toBe(CA);
    expect(data.other).toBe(b64('x'));
    expect(withToken(data, 'tok2')['bundle.crt']).toBeUndefined();
  });

  it("sets the current cluster's certificate-authority-data in a kubeconfig and leaves bundle.crt alone", () => {
    const data = withToken({ kubeconfig: b64(seedKubeconfig) }, 'tok', CA);
    const kc = YAML.parse(unb64(data.kubeconfig!));
    expect(kc.clusters[0].cluster['certificate-authority-data']).toBe(b64(CA));
    expect(kc.clusters[0].cluster.server).toBe('some-server-url');
    expect(kc.users[0].user.token).toBe('tok');
    expect(data['bundle.crt']).toBeUndefined();
    expect(kubeconfigCA(unb64(data.kubeconfig!))).toBe(CA);
    // Without a CA the kubeconfig's CA stays as it was.
    expect(
      YAML.parse(unb64(withToken({ kubeconfig: b64(seedKubeconfig) }, 'tok').kubeconfig!)).clusters[0].cluster[
        'certificate-authority-data'
      ],
    ).toBe('AAAA');
  });

  it('fails like Gardener when the current context names no known cluster', () => {
    const broken = seedKubeconfig.replace('cluster: shoot--foo--bar', 'cluster: other');
    expect(() => setKubeconfigToken(broken, 'tok', CA)).toThrow('did not find cluster of current context named other');
  });

  it('compares the bundle with the current CA (bundle.crt or the kubeconfig)', () => {
    expect(caBundleUpToDate({ token: b64('t'), 'bundle.crt': b64(CA) }, CA)).toBe(true);
    expect(caBundleUpToDate({ token: b64('t'), 'bundle.crt': b64('old') }, CA)).toBe(false);
    expect(caBundleUpToDate({ token: b64('t') }, CA)).toBe(false);
    expect(caBundleUpToDate({ token: b64('t') }, '')).toBe(true);
    expect(caBundleUpToDate({ kubeconfig: b64(seedKubeconfig) }, CA)).toBe(false);
    expect(caBundleUpToDate(withToken({ kubeconfig: b64(seedKubeconfig) }, 'tok', CA), CA)).toBe(true);
  });
});
