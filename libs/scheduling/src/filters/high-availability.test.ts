import { describe, expect, it } from 'vitest';
import type { Shoot } from '@gardener-ts/api';
import { seed, shoot } from '../../test/fixtures.js';
import { tooFewZones } from './high-availability.js';

const ha = (type: 'node' | 'zone') => (s: Shoot) =>
  (s.spec.controlPlane = { highAvailability: { failureTolerance: { type } } });
const zones = (n: number) => seed('s', (s) => (s.spec.provider.zones = ['a', 'b', 'c', 'd'].slice(0, n)));

describe('high availability: failure tolerance zone needs three zones', () => {
  it.each([
    ['a zone-tolerant control plane fits a seed with 3 zones', shoot('s', ha('zone')), zones(3), true],
    ['a zone-tolerant control plane fits a seed with 4 zones', shoot('s', ha('zone')), zones(4), true],
    ['a zone-tolerant control plane is rejected by a seed with 2 zones', shoot('s', ha('zone')), zones(2), false],
    ['a node-tolerant control plane fits one zone', shoot('s', ha('node')), zones(1), true],
    ['a non-HA control plane fits a seed without zones', shoot('s'), zones(0), true],
  ])('%s', (_name, s, candidate, fits) => {
    expect(tooFewZones(candidate, s) === undefined).toBe(fits);
  });
});
