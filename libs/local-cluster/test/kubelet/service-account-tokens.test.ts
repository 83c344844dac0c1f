// Projected service-account tokens: requested bound to the Pod, reused while fresh, renewed at 80% of their lifetime.
import * as k8s from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestCluster, type TestCluster } from '@gardener-ts/testing';
import { ServiceAccountTokens } from '../../src/kubelet/volumes/service-account-tokens.js';

let cluster: TestCluster;
let core: k8s.CoreV1Api;
let pod: k8s.V1Pod;

beforeAll(async () => {
  cluster = await startTestCluster();
  const config = new k8s.KubeConfig();
  config.loadFromString(cluster.server.kubeconfig);
  core = config.makeApiClient(k8s.CoreV1Api);
  await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'app' } } });
  pod = await core.createNamespacedPod({
    namespace: 'default',
    body: {
      metadata: { name: 'holder' },
      spec: { serviceAccountName: 'app', containers: [{ name: 'c', image: 'x' }] },
    },
  });
});
afterAll(async () => cluster?.stop());
afterEach(() => vi.useRealTimers());

function claims(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

describe('ServiceAccountTokens', () => {
  it("requests a token for the Pod's service account, bound to the Pod, with the audience and lifetime asked for", async () => {
    const token = await new ServiceAccountTokens(core).token(pod, {
      path: 'token',
      audience: 'vault',
      expirationSeconds: 3600,
    });
    const c = claims(token);
    expect(c.aud).toEqual(['vault']);
    expect(c.exp - c.iat).toBe(3600);
    expect(c.sub).toBe('system:serviceaccount:default:app');
    expect(JSON.stringify(c)).toContain(pod.metadata!.uid!);
  });

  it('reuses a token until 80% of its lifetime has passed, then requests a new one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tokens = new ServiceAccountTokens(core);
    const source = { path: 'token', expirationSeconds: 3600 };
    const first = await tokens.token(pod, source);
    vi.setSystemTime(Date.now() + 47 * 60 * 1000);
    expect(await tokens.token(pod, source)).toBe(first);
    vi.setSystemTime(Date.now() + 2 * 60 * 1000);
    const renewed = await tokens.token(pod, source);
    expect(renewed).not.toBe(first);
    expect(claims(renewed).iat).toBeGreaterThan(claims(first).iat);
  });
});
