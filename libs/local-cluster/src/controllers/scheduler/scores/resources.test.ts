import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../resources.js';
import { boundTo, node, pod, usageOf } from '../testing.js';
import { balancedAllocation, leastAllocated } from './resources.js';

const withRequests = (cpu: string, memory: string) => ({
  ...pod(),
  spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu, memory } } }] },
});

describe('NodeResourcesFit LeastAllocated score', () => {
  it('is the mean free share of cpu and memory once the pod is placed', () => {
    const n = node('n', { cpu: '4', memory: '8Gi' });
    expect(leastAllocated(withRequests('1', '2Gi'), n, emptyUsage())).toBe(75);
    const used = usageOf([boundTo('n', withRequests('2', '4Gi'))]).get('n')!;
    expect(leastAllocated(withRequests('1', '2Gi'), n, used)).toBe(25);
    // Over capacity scores 0 for that resource.
    expect(leastAllocated(withRequests('5', '2Gi'), n, emptyUsage())).toBe(37);
  });

  it('counts 100m cpu and 200Mi memory for a pod that requests nothing', () => {
    expect(leastAllocated(pod(), node('n', { cpu: '1', memory: '2000Mi' }), emptyUsage())).toBe(90);
  });
});

describe('NodeResourcesBalancedAllocation score', () => {
  it('is highest when cpu and memory would be used in equal shares', () => {
    const n = node('n', { cpu: '4', memory: '8Gi' });
    expect(balancedAllocation(withRequests('2', '4Gi'), n, emptyUsage())).toBe(100);
    expect(balancedAllocation(withRequests('4', '0'), n, emptyUsage())).toBe(50);
    const used = usageOf([boundTo('n', withRequests('0', '4Gi'))]).get('n')!;
    expect(balancedAllocation(withRequests('2', '0'), n, used)).toBe(100);
  });

  it('is skipped for a pod requesting neither cpu nor memory', () => {
    expect(balancedAllocation(pod(), node('n'), emptyUsage())).toBeUndefined();
  });
});
