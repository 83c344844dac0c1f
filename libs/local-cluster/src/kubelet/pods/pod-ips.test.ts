import { describe, expect, it } from 'vitest';
import { PodIPs } from './pod-ips.js';

const pod = (uid: string, extra: { hostNetwork?: boolean; podIP?: string } = {}) => ({
  metadata: { uid },
  spec: { containers: [], hostNetwork: extra.hostNetwork },
  status: extra.podIP ? { podIP: extra.podIP } : undefined,
});

describe('PodIPs', () => {
  it('gives each Pod its own address from the CIDR and the same one when asked again', () => {
    const ips = new PodIPs('127.42.0.0/16');
    const a = ips.assign(pod('a'));
    const b = ips.assign(pod('b'));
    expect(a).toBe('127.42.0.1');
    expect(b).toBe('127.42.0.2');
    expect(ips.assign(pod('a'))).toBe(a);
  });

  it('shares the host address for hostNetwork Pods and when no CIDR is set', () => {
    expect(new PodIPs('127.42.0.0/16').assign(pod('a', { hostNetwork: true }))).toBe('127.0.0.1');
    expect(new PodIPs().assign(pod('a'))).toBe('127.0.0.1');
  });

  it('keeps the address a Pod had before a restart unless another Pod holds it', () => {
    const ips = new PodIPs('127.42.0.0/16');
    expect(ips.assign(pod('a', { podIP: '127.42.3.7' }))).toBe('127.42.3.7');
    expect(ips.assign(pod('b', { podIP: '127.42.3.7' }))).not.toBe('127.42.3.7');
    expect(ips.assign(pod('c', { podIP: '127.43.0.1' }))).toMatch(/^127\.42\./);
  });

  it('frees an address on release and rejects a CIDR outside 127/8', () => {
    const ips = new PodIPs('127.42.0.0/16');
    ips.assign(pod('a'));
    ips.release('a');
    expect(ips.assign(pod('b', { podIP: '127.42.0.1' }))).toBe('127.42.0.1');
    expect(() => new PodIPs('10.0.0.0/16')).toThrow(/loopback/);
  });
});
