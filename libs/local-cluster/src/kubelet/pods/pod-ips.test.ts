import { describe, expect, it } from 'vitest';
import { PodIPs, PodRangePrefixAnnotation } from './pod-ips.js';

const pod = (uid: string, extra: { hostNetwork?: boolean; podIP?: string; range?: string } = {}) => ({
  metadata: { uid, ...(extra.range ? { annotations: { [PodRangePrefixAnnotation]: extra.range } } : {}) },
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

  it('gives a Pod that runs a node a whole free /24 for its own Pods, its address the first of it', () => {
    const ips = new PodIPs('127.42.0.0/16');
    ips.assign(pod('a'));
    const machine = ips.assign(pod('m', { range: '24' }));
    expect(machine).toBe('127.42.255.1');
    expect(ips.rangeOf('m')).toBe('127.42.255.0/24');
    expect(ips.rangeOf('a')).toBeUndefined();
    // A second machine gets another block; single addresses never come from a machine's block.
    expect(ips.assign(pod('m2', { range: '24' }))).toBe('127.42.254.1');
    // Every other address of the /16 (256 blocks of 254, less the two blocks and Pod a's) goes to single Pods.
    for (let k = 0; k < 254 * 254 - 1; k++) expect(ips.assign(pod(`p${k}`))).not.toMatch(/^127\.42\.25[45]\./);
    expect(() => ips.assign(pod('full'))).toThrow(/no free address/);
    // Released, the block is free for single addresses again.
    ips.release('m');
    expect(ips.assign(pod('after'))).toMatch(/^127\.42\.255\./);
  });

  it("keeps a node Pod's block over a kubelet restart, and gives a single address where no block is free", () => {
    const ips = new PodIPs('127.42.0.0/16');
    expect(ips.assign(pod('m', { range: '24', podIP: '127.42.7.1' }))).toBe('127.42.7.1');
    expect(ips.rangeOf('m')).toBe('127.42.7.0/24');
    const one = new PodIPs('127.42.3.0/24');
    expect(one.assign(pod('m', { range: '24' }))).toBe('127.42.3.1');
    expect(one.rangeOf('m')).toBeUndefined();
  });

  it("never hands out a reserved address (the kubelet's own inside its machine's Pod)", () => {
    const ips = new PodIPs('127.42.255.0/24', ['127.42.255.1']);
    expect(ips.assign(pod('a'))).toBe('127.42.255.2');
  });
});
