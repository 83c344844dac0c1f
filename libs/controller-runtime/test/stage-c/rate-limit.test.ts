// Client-side rate limiting against the local API server: qps/burst throttle the client's requests; managers pass
// them to their clusters' clients.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import { ApiClient, Manager, kind, type KubernetesObject } from '../../src/index.js';
import { useTestCluster } from '../fixtures.js';

const env = useTestCluster();
const NamespaceKind = kind<KubernetesObject>('v1', 'Namespace');

describe('client-side rate limiting', () => {
  it('throttles requests to qps after a burst: 20 requests at qps 10, burst 5 take at least 1.4 s', async () => {
    const client = await ApiClient.create(env.cluster.kubeconfigPath, { rateLimit: { qps: 10, burst: 5 } });
    try {
      await client.get(NamespaceKind, { name: 'default' }); // discovery out of the way
      await new Promise((r) => setTimeout(r, 1000)); // the bucket refills to its burst
      const started = performance.now();
      await Promise.all(Array.from({ length: 20 }, () => client.get(NamespaceKind, { name: 'default' })));
      expect(performance.now() - started).toBeGreaterThanOrEqual(1400);
    } finally {
      client.close();
    }
  });

  it('reports a long wait as client-go does: info above 1 s, naming the request, nothing for unthrottled requests', async () => {
    const lines: { level: string; msg: string; waitedMs: number }[] = [];
    const log = createLogger({
      name: 'test',
      level: 'debug',
      destination: new Writable({ write: (chunk, _e, cb) => cb(void lines.push(JSON.parse(String(chunk)))) }),
    });
    const client = await ApiClient.create(env.cluster.kubeconfigPath, { rateLimit: { qps: 0.5, burst: 1 }, log });
    try {
      await client.get(NamespaceKind, { name: 'default' }); // discovery takes the only token, the get waits
      const waited = lines.filter((l) => l.msg.startsWith('Waited for '));
      // The first request found a token and says nothing; the second waited.
      expect(waited).toHaveLength(1);
      const last = waited[0];
      expect(last.msg).toMatch(
        /^Waited for \d+\.\d{3}s due to client-side throttling, not priority and fairness, request: GET:https:\/\/127\.0\.0\.1:\d+\/api\/v1\/namespaces\/default$/,
      );
      expect(last.waitedMs).toBeGreaterThanOrEqual(1000);
      expect(last.level).toBe('info');
    } finally {
      client.close();
    }
  });

  it('does not throttle with a negative qps, and managers hand their rate limit to every cluster client', async () => {
    const unlimited = await ApiClient.create(env.cluster.kubeconfigPath, { rateLimit: { qps: -1, burst: 0 } });
    expect(unlimited.transport.rateLimiter).toBeUndefined();
    unlimited.close();
    const mgr = await Manager.create({
      clusters: {
        garden: env.cluster.kubeconfigPath,
        seed: { kubeConfig: env.cluster.kubeconfigPath, rateLimit: { qps: 20, burst: 30 } },
      },
      rateLimit: { qps: 50, burst: 100 },
    });
    try {
      expect([
        mgr.cluster('garden').api.transport.rateLimiter?.qps,
        mgr.cluster('garden').api.transport.rateLimiter?.burst,
      ]).toEqual([50, 100]);
      expect([
        mgr.cluster('seed').api.transport.rateLimiter?.qps,
        mgr.cluster('seed').api.transport.rateLimiter?.burst,
      ]).toEqual([20, 30]);
    } finally {
      await mgr.stop();
    }
  });
});
