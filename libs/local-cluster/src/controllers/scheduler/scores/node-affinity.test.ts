import { describe, expect, it } from 'vitest';
import { node, pod, scoreInput } from '../testing.js';
import { nodeAffinityScore, preferredNodeAffinityWeight } from './node-affinity.js';

const preferring = pod({
  affinity: {
    nodeAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 80, preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] } },
        { weight: 20, preference: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] } },
        { weight: 50, preference: {} },
      ],
    },
  },
});

describe('NodeAffinity score', () => {
  it('sums the weights of the matching preferred terms (an empty term matches nothing)', () => {
    expect(preferredNodeAffinityWeight(preferring, node('n', { labels: { disk: 'ssd', zone: 'a' } }))).toBe(100);
    expect(preferredNodeAffinityWeight(preferring, node('n', { labels: { zone: 'a' } }))).toBe(20);
    expect(preferredNodeAffinityWeight(preferring, node('n'))).toBe(0);
    expect(preferredNodeAffinityWeight(pod(), node('n', { labels: { disk: 'ssd' } }))).toBe(0);
  });

  it('scales to the best node', () => {
    const nodes = [node('ssd', { labels: { disk: 'ssd' } }), node('zoned', { labels: { zone: 'a' } }), node('plain')];
    expect(nodeAffinityScore(scoreInput(preferring, nodes))).toEqual([100, 25, 0]);
  });
});
