import { describe, expect, it } from 'vitest';
import { SPREAD_SKEW, topologySpreadFilter } from './topology-spread.js';
import { boundTo, labelled, node, ZONE } from './testing.js';

describe('topology spread filter', () => {
  it('counts a tainted node’s domain only with nodeTaintsPolicy Honor when the pod does not tolerate the taint', () => {
    const nodes = [
      node('a1', { labels: { [ZONE]: 'a' } }),
      node('b1', { labels: { [ZONE]: 'b' }, taints: [{ key: 'dedicated', effect: 'NoSchedule' }] }),
    ];
    const constraint = {
      maxSkew: 1,
      topologyKey: ZONE,
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: { app: 'web' } },
    };
    const web = (nodeTaintsPolicy?: string) =>
      labelled('w', { app: 'web' }, { topologySpreadConstraints: [{ ...constraint, nodeTaintsPolicy }] });
    const placed = [boundTo('a1', labelled('w0', { app: 'web' }))];
    // Ignore (default): zone b counts with 0 pods, so a second pod in zone a would skew by 2.
    expect(Object.fromEntries(topologySpreadFilter(web(), nodes, placed))).toEqual({ a1: SPREAD_SKEW });
    // Honor: zone b is not a domain the pod could use, so zone a is the minimum.
    expect(Object.fromEntries(topologySpreadFilter(web('Honor'), nodes, placed))).toEqual({});
  });
});
