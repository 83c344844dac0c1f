import { describe, expect, it, vi } from 'vitest';
import type { Request } from '@gardener-ts/controller-runtime';
import { apiServerHostOf, HostnameResolver } from './hostname-resolver.js';

describe('apiServerHostOf (Gardener CreateForCluster)', () => {
  it('takes the hostname of the server URL, its port or 443', () => {
    expect(apiServerHostOf('https://api.seed.example.com:6443', {})).toEqual({
      hostname: 'api.seed.example.com',
      port: 6443,
    });
    expect(apiServerHostOf('https://localhost', {})).toEqual({ hostname: 'localhost', port: 443 });
  });

  it('needs no resolver for IP addresses, unless the service environment names a host', () => {
    expect(apiServerHostOf('https://10.0.0.1:6443', {})).toBeUndefined();
    expect(apiServerHostOf('https://[fd00::1]:6443', {})).toBeUndefined();
    expect(apiServerHostOf(undefined, {})).toBeUndefined();
    const env = { KUBERNETES_SERVICE_HOST: 'kubernetes.default.svc', KUBERNETES_SERVICE_PORT: '443' };
    expect(apiServerHostOf('https://10.0.0.1:6443', env)).toEqual({ hostname: 'kubernetes.default.svc', port: 443 });
    expect(
      apiServerHostOf('https://10.0.0.1', { KUBERNETES_SERVICE_HOST: '10.2.0.1', KUBERNETES_SERVICE_PORT: '443' }),
    ).toBeUndefined();
  });
});

describe('HostnameResolver', () => {
  it('exposes the sorted addresses with the port, reports changes and keeps them when a lookup fails', async () => {
    let answer: string[] | Error = ['10.0.0.2', '10.0.0.1'];
    const resolver = new HostnameResolver(
      { hostname: 'api.example.com', port: 6443 },
      { lookup: async () => (answer instanceof Error ? Promise.reject(answer) : answer) },
    );
    expect(resolver.subsets()).toEqual([]);
    expect(await resolver.refresh()).toBe(true);
    expect(resolver.subsets()).toEqual([
      { addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ port: 6443, protocol: 'TCP' }] },
    ]);
    answer = ['10.0.0.1', '10.0.0.2'];
    expect(await resolver.refresh()).toBe(false);
    answer = new Error('no such host');
    expect(await resolver.refresh()).toBe(false);
    expect(resolver.subsets()[0]!.addresses).toHaveLength(2);
    answer = ['10.0.0.3'];
    expect(await resolver.refresh()).toBe(true);
    expect(resolver.subsets()[0]!.addresses).toEqual([{ ip: '10.0.0.3' }]);
  });

  it('as a source, resolves at start and every interval, and wakes the namespaces only on a change', async () => {
    vi.useFakeTimers();
    try {
      let answer = ['10.0.0.1'];
      const resolver = new HostnameResolver(
        { hostname: 'api.example.com', port: 443 },
        { lookup: async () => answer, intervalMs: 1_000 },
      );
      const enqueued: Request[] = [];
      const abort = new AbortController();
      await resolver.source(() => [{ namespace: '', name: 'garden' }]).start((r) => enqueued.push(r), abort.signal);
      expect(enqueued).toEqual([{ namespace: '', name: 'garden' }]);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(enqueued).toHaveLength(1);
      answer = ['10.0.0.9'];
      await vi.advanceTimersByTimeAsync(1_000);
      expect(enqueued).toHaveLength(2);
      abort.abort();
      answer = ['10.0.0.10'];
      await vi.advanceTimersByTimeAsync(5_000);
      expect(enqueued).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
