import { describe, expect, it } from 'vitest';
import type { Pod } from '../../shared/kinds.js';
import { boundTo, labelled, node, scoreInput, ZONE } from '../testing.js';
import { topologySpreadScore } from './topology-spread.js';

const spread = (topologyKey: string, extra: object = {}): Partial<NonNullable<Pod['spec']>> => ({
  topologySpreadConstraints: [
    {
      maxSkew: 1,
      topologyKey,
      whenUnsatisfiable: 'ScheduleAnyway',
      labelSelector: { matchLabels: { app: 'web' } },
      ...extra,
    },
  ],
});
const web = (name: string, spec: Partial<NonNullable<Pod['spec']>> = {}, namespace?: string) =>
  labelled(name, { app: 'web' }, spec, namespace);
const nodes = [
  node('a1', { labels: { [ZONE]: 'a' } }),
  node('a2', { labels: { [ZONE]: 'a' } }),
  node('b1', { labels: { [ZONE]: 'b' } }),
  node('x'),
];

describe('PodTopologySpread score (ScheduleAnyway)', () => {
  it('prefers domains with fewer matching pods; nodes without the key score 0', () => {
    const placed = [
      boundTo('a1', web('w0')),
      boundTo('a2', web('w1')),
      boundTo('b1', web('w2', {}, 'other')),
      boundTo('b1', labelled('db', { app: 'db' })),
    ];
    const [a1, a2, b1, x] = topologySpreadScore(scoreInput(web('new', spread(ZONE)), nodes, placed));
    expect(b1).toBe(100);
    expect(a1).toBe(a2);
    expect(a1).toBeLessThan(b1);
    expect(x).toBe(0);
  });

  it('counts per node for the hostname key', () => {
    const placed = [boundTo('a1', web('w0')), boundTo('a1', web('w1')), boundTo('b1', web('w2'))];
    const scores = topologySpreadScore(scoreInput(web('new', spread('kubernetes.io/hostname')), nodes, placed));
    expect(scores[1]).toBe(100);
    expect(scores[3]).toBe(100);
    expect(scores[0]).toBeLessThan(scores[2]);
    expect(scores[2]).toBeLessThan(scores[1]);
  });

  it('ignores DoNotSchedule constraints and pods without constraints', () => {
    expect(topologySpreadScore(scoreInput(web('new'), nodes, [boundTo('a1', web('w0'))]))).toEqual([0, 0, 0, 0]);
    expect(
      topologySpreadScore(
        scoreInput(web('new', spread(ZONE, { whenUnsatisfiable: 'DoNotSchedule' })), nodes, [boundTo('a1', web('w0'))]),
      ),
    ).toEqual([0, 0, 0, 0]);
  });
});
