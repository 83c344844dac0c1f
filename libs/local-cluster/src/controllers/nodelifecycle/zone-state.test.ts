import { describe, expect, it } from 'vitest';
import type { Node } from '../shared/kinds.js';
import { computeZoneState, DEFAULT_ZONE_RATES, zoneKeyOf, zoneName, zoneTaintRate } from './zone-state.js';

const node = (labels: Record<string, string>): Node => ({ metadata: { name: 'n', labels } });

describe('zoneKeyOf', () => {
  it('joins region and zone as kube does, preferring the GA labels, and is empty without both', () => {
    expect(zoneKeyOf(node({}))).toBe('');
    expect(zoneKeyOf(node({ 'topology.kubernetes.io/zone': 'a' }))).toBe(':\x00:a');
    expect(
      zoneKeyOf(
        node({
          'topology.kubernetes.io/region': 'r',
          'topology.kubernetes.io/zone': 'a',
          'failure-domain.beta.kubernetes.io/zone': 'b',
        }),
      ),
    ).toBe('r:\x00:a');
    expect(zoneKeyOf(node({ 'failure-domain.beta.kubernetes.io/zone': 'b' }))).toBe(':\x00:b');
    expect(zoneName('r:\x00:a')).toBe('r/a');
    expect(zoneName(':\x00:a')).toBe('a');
    expect(zoneName('')).toBe('');
  });
});

describe('computeZoneState', () => {
  const T = 'True';
  const F = 'False';
  const U = 'Unknown';
  it.each([
    [[T, T, T], 0, 'Normal'],
    [[T, F], 1, 'Normal'],
    [[F], 1, 'FullDisruption'],
    [[U, F, U], 3, 'FullDisruption'],
    // Two not ready are never more than Normal, whatever their share.
    [[T, F, U], 2, 'Normal'],
    [[T, U, U, U], 3, 'PartialDisruption'],
    [[T, T, U, U, U], 3, 'PartialDisruption'],
    [[T, T, T, U, U, U], 3, 'Normal'],
    // A node whose Ready condition has no status counts as not ready.
    [[T, undefined, U, U], 3, 'PartialDisruption'],
    [[], 0, 'Normal'],
  ])('%j → %i not ready, %s', (statuses, notReady, state) => {
    expect(computeZoneState(statuses, 0.55)).toEqual({ notReady, state });
  });

  it('applies the threshold as at least that share', () => {
    expect(computeZoneState(['True', 'False', 'False', 'False'], 0.75).state).toBe('PartialDisruption');
    expect(computeZoneState(['True', 'False', 'False', 'False'], 0.76).state).toBe('Normal');
  });
});

describe('zoneTaintRate', () => {
  it('taints at the eviction rate when Normal or fully disrupted, at the secondary rate or not at all when partially disrupted', () => {
    expect(zoneTaintRate('Normal', 3, DEFAULT_ZONE_RATES)).toBe(0.1);
    expect(zoneTaintRate('FullDisruption', 3, DEFAULT_ZONE_RATES)).toBe(0.1);
    expect(zoneTaintRate('PartialDisruption', 50, DEFAULT_ZONE_RATES)).toBe(0);
    expect(zoneTaintRate('PartialDisruption', 51, DEFAULT_ZONE_RATES)).toBe(0.01);
  });
});
