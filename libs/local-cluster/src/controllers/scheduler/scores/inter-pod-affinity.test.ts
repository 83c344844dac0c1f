import { describe, expect, it } from 'vitest';
import { appTerm, boundTo, HOSTNAME, labelled, node, podAffinity, scoreInput, ZONE } from '../testing.js';
import { interPodAffinityRaw, interPodAffinityScore } from './inter-pod-affinity.js';

const nodes = [
  node('a1', { labels: { [ZONE]: 'a' } }),
  node('b1', { labels: { [ZONE]: 'b' } }),
  node('c1', { labels: { [ZONE]: 'c' } }),
];

describe('InterPodAffinity score', () => {
  it('adds the weights of preferred affinity and subtracts those of preferred anti-affinity, per domain', () => {
    const p = labelled(
      'p',
      { app: 'web' },
      podAffinity({ preferred: [[30, appTerm('cache', ZONE)]], antiPreferred: [[50, appTerm('web', ZONE)]] }),
    );
    const placed = [
      boundTo('a1', labelled('cache', { app: 'cache' })),
      boundTo('b1', labelled('web-0', { app: 'web' })),
      boundTo('b1', labelled('cache-2', { app: 'cache' })),
    ];
    expect(interPodAffinityRaw(scoreInput(p, nodes, placed))).toEqual([30, -20, 0]);
    expect(interPodAffinityScore(scoreInput(p, nodes, placed))).toEqual([100, 0, 40]);
  });

  it('counts bound pods’ terms that select the pod: preferred with their weights, required with weight 1', () => {
    const p = labelled('p', { app: 'web' });
    const placed = [
      boundTo('a1', labelled('likes-web', { app: 'x' }, podAffinity({ preferred: [[10, appTerm('web', HOSTNAME)]] }))),
      boundTo('b1', labelled('needs-web', { app: 'y' }, podAffinity({ required: [appTerm('web', ZONE)] }))),
      boundTo('c1', labelled('avoids-web', { app: 'z' }, podAffinity({ antiPreferred: [[5, appTerm('web', ZONE)]] }))),
    ];
    expect(interPodAffinityRaw(scoreInput(p, nodes, placed))).toEqual([10, 1, -5]);
  });

  it('leaves every node at 0 when no term applies', () => {
    const p = labelled('p', { app: 'web' }, podAffinity({ preferred: [[30, appTerm('cache', ZONE)]] }));
    expect(interPodAffinityRaw(scoreInput(p, nodes, [boundTo('a1', labelled('db', { app: 'db' }))]))).toBeUndefined();
    expect(interPodAffinityScore(scoreInput(p, nodes, []))).toEqual([0, 0, 0]);
  });
});
