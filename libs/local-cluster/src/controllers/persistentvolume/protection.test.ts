import { describe, expect, it } from 'vitest';
import type { PersistentVolumeClaim, Pod } from '../shared/kinds.js';
import { podUsesClaim } from './protection.js';

const claim: PersistentVolumeClaim = { metadata: { name: 'data', namespace: 'default' } };
const pod = (phase: string, claimName = 'data', namespace = 'default'): Pod => ({
  metadata: { name: 'p', namespace },
  spec: {
    containers: [{ name: 'c', image: 'i' }],
    volumes: [{ name: 'v', persistentVolumeClaim: { claimName } }],
  },
  status: { phase },
});

describe('podUsesClaim', () => {
  it('counts pods that may still run and mount the claim', () => {
    expect(podUsesClaim(pod('Pending'), claim)).toBe(true);
    expect(podUsesClaim(pod('Running'), claim)).toBe(true);
    expect(podUsesClaim(pod('Unknown'), claim)).toBe(true);
  });

  it('ignores terminated pods, other claims and other namespaces', () => {
    expect(podUsesClaim(pod('Succeeded'), claim)).toBe(false);
    expect(podUsesClaim(pod('Failed'), claim)).toBe(false);
    expect(podUsesClaim(pod('Running', 'other'), claim)).toBe(false);
    expect(podUsesClaim(pod('Running', 'data', 'kube-system'), claim)).toBe(false);
  });
});
