import { describe, expect, it } from 'vitest';
import type { Deployment, ReplicaSet } from '../shared/kinds.js';
import { isScalingEvent, proportionalSizes } from './proportional-scaling.js';

const d = (replicas: number): Deployment => ({
  spec: {
    replicas,
    selector: {},
    template: {},
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } },
  },
});
const rs = (name: string, replicas: number, createdSec: number, maxReplicas: number, desired = 10): ReplicaSet => ({
  metadata: {
    name,
    creationTimestamp: new Date(createdSec * 1000).toISOString(),
    annotations: {
      'deployment.kubernetes.io/max-replicas': String(maxReplicas),
      'deployment.kubernetes.io/desired-replicas': String(desired),
    },
  },
  spec: { replicas, selector: {} },
});

describe('proportional scaling', () => {
  it('notices a replica count the active ReplicaSets were not sized for', () => {
    expect(isScalingEvent(d(10), [rs('a', 5, 1, 13)])).toBe(false);
    expect(isScalingEvent(d(15), [rs('a', 5, 1, 13)])).toBe(true);
  });

  it('shares added replicas in proportion to size', () => {
    // 10 → 30 replicas mid-rollout (kube's documented example: 8 old, 5 new, maxSurge 3).
    const sizes = proportionalSizes(d(30), [rs('old', 8, 1, 13), rs('new', 5, 2, 13)]);
    expect(sizes.get('old')! + sizes.get('new')!).toBe(33);
    expect(sizes.get('old')).toBe(20);
    expect(sizes.get('new')).toBe(13);
  });

  it('shares removed replicas in proportion to size', () => {
    const sizes = proportionalSizes(d(5), [rs('old', 8, 1, 13), rs('new', 5, 2, 13)]);
    expect(sizes.get('old')! + sizes.get('new')!).toBe(8);
    expect(sizes.get('old')).toBe(5);
  });
});
