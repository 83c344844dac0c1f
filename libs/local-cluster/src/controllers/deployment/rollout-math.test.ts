import { describe, expect, it } from 'vitest';
import type { Deployment, ReplicaSet } from '../shared/kinds.js';
import { maxScaledDown, newReplicaSetReplicas, resolveFenceposts } from './rollout-math.js';

const deployment = (replicas: number, maxSurge: number | string, maxUnavailable: number | string): Deployment => ({
  spec: {
    replicas,
    selector: {},
    template: {},
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } },
  },
});
const rs = (replicas: number, available = replicas): ReplicaSet => ({
  spec: { replicas, selector: {} },
  status: { replicas, availableReplicas: available },
});

describe('rolling update arithmetic', () => {
  it('rounds maxSurge up and maxUnavailable down', () => {
    expect(resolveFenceposts(deployment(10, '25%', '25%'))).toEqual({ maxSurge: 3, maxUnavailable: 2 });
    expect(resolveFenceposts(deployment(3, '25%', '25%'))).toEqual({ maxSurge: 1, maxUnavailable: 0 });
    expect(resolveFenceposts(deployment(5, 2, '50%'))).toEqual({ maxSurge: 2, maxUnavailable: 2 });
  });

  it('allows one unavailable pod when both come to zero', () => {
    expect(resolveFenceposts(deployment(3, 0, '10%'))).toEqual({ maxSurge: 0, maxUnavailable: 1 });
  });

  it('rejects values that are neither integers nor percentages', () => {
    expect(() => resolveFenceposts(deployment(3, 'lots', 1))).toThrow(/must be an integer or a percentage/);
  });

  it('grows the new ReplicaSet only within replicas + maxSurge', () => {
    const d = deployment(4, 1, 1);
    expect(newReplicaSetReplicas(d, rs(0), 4)).toBe(1);
    expect(newReplicaSetReplicas(d, rs(1), 5)).toBe(1);
    expect(newReplicaSetReplicas(d, rs(1), 3)).toBe(3);
    expect(newReplicaSetReplicas(d, rs(6), 6)).toBe(4);
  });

  it('scales old ReplicaSets down only as far as availability allows', () => {
    const d = deployment(4, 1, 1);
    const newRS = rs(1, 0);
    // 5 pods, minimum 3 available, the new pod not yet available: 1 old pod may go.
    expect(maxScaledDown(d, [newRS, rs(4)], newRS)).toBe(1);
    const ready = rs(2, 2);
    expect(maxScaledDown(d, [ready, rs(3)], ready)).toBe(2);
  });
});
