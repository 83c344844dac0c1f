import { describe, expect, it } from 'vitest';
import type { Seed, Shoot } from '@gardener-ts/api';
import { seed, shoot } from '../../test/fixtures.js';
import { networkProblems, networksNotDisjoint } from './networks.js';

// The seed: nodes 10.240.0.0/16, pods 10.241.128.0/17, services 10.241.0.0/17.
const net = (n: Partial<NonNullable<Shoot['spec']['networking']>>) => (s: Shoot) =>
  (s.spec.networking = { type: 'calico', ...n });
const defaults = (pods?: string, services?: string) => (s: Seed) =>
  (s.spec.networks.shootDefaults = { pods, services });

describe('network disjointedness', () => {
  const cases: [string, Shoot, Seed, { strict?: boolean }, boolean][] = [
    ['disjoint IPv4 networks fit', shoot('s'), seed('a'), {}, true],
    ['no networking section fits', shoot('s', (x) => delete x.spec.networking), seed('a'), {}, true],
    [
      'overlapping IPv4 networks fit (double NAT)',
      shoot('s', net({ nodes: '10.240.0.0/16', pods: '10.241.128.0/17', services: '10.241.0.0/17' })),
      seed('a'),
      {},
      true,
    ],
    [
      'overlapping IPv4 nodes are rejected in strict mode',
      shoot('s', net({ nodes: '10.240.0.0/16', pods: '100.96.0.0/11', services: '100.64.0.0/13' })),
      seed('a'),
      { strict: true },
      false,
    ],
    [
      'overlapping IPv4 pods are rejected in strict mode',
      shoot('s', net({ nodes: '10.250.0.0/16', pods: '10.241.0.0/16', services: '100.64.0.0/13' })),
      seed('a'),
      { strict: true },
      false,
    ],
    [
      'overlapping IPv4 services are rejected in strict mode',
      shoot('s', net({ nodes: '10.250.0.0/16', pods: '100.96.0.0/11', services: '10.0.0.0/8' })),
      seed('a'),
      { strict: true },
      false,
    ],
    [
      'overlapping IPv6 networks are rejected',
      shoot(
        's',
        net({ ipFamilies: ['IPv6'], nodes: '2001:db8:1::/48', pods: 'fd00:10::/56', services: 'fd00:20::/112' }),
      ),
      seed('a', (s) => (s.spec.networks = { nodes: '2001:db8::/32', pods: 'fd00:30::/56', services: 'fd00:40::/112' })),
      {},
      false,
    ],
    [
      'disjoint IPv6 networks fit',
      shoot(
        's',
        net({ ipFamilies: ['IPv6'], nodes: '2001:db9::/48', pods: 'fd00:10::/56', services: 'fd00:20::/112' }),
      ),
      seed('a', (s) => (s.spec.networks = { nodes: '2001:db8::/32', pods: 'fd00:30::/56', services: 'fd00:40::/112' })),
      {},
      true,
    ],
    [
      'a network in a reserved range is rejected',
      shoot('s', net({ nodes: '10.250.0.0/16', pods: '240.0.0.0/11', services: '100.64.0.0/13' })),
      seed('a'),
      {},
      false,
    ],
    [
      'a network in the IPv6 VPN range is rejected',
      shoot('s', net({ nodes: 'fd8f:6d53:b97a:1::/100', pods: '100.96.0.0/11', services: '100.64.0.0/13' })),
      seed('a'),
      {},
      false,
    ],
    [
      'missing services are rejected without seed defaults',
      shoot('s', net({ nodes: '10.250.0.0/16', pods: '100.96.0.0/11' })),
      seed('a'),
      {},
      false,
    ],
    [
      'missing pods and services come from the seed defaults',
      shoot('s', net({ nodes: '10.250.0.0/16' })),
      seed('a', defaults('100.96.0.0/11', '100.64.0.0/13')),
      {},
      true,
    ],
    [
      'seed defaults of another IP family do not count',
      shoot('s', net({ nodes: '10.250.0.0/16' })),
      seed('a', defaults('fd00:10::/56', 'fd00:20::/112')),
      {},
      false,
    ],
    [
      'a workerless shoot needs no pods',
      shoot('s', (x) => (net({ services: '100.64.0.0/13' })(x), (x.spec.provider.workers = []))),
      seed('a'),
      {},
      true,
    ],
    [
      'status networks are checked too',
      shoot(
        's',
        (x) => (x.status = { networking: { pods: ['100.96.0.0/11'], services: ['243.0.0.0/13'], nodes: [] } } as never),
      ),
      seed('a'),
      {},
      false,
    ],
  ];
  it.each(cases)('%s', (_name, s, candidate, { strict }, fits) => {
    expect(networkProblems(candidate, s, { allowIPv4Overlap: !strict })).toEqual(
      fits ? [] : expect.arrayContaining([expect.any(String)]),
    );
  });

  it("reports in Gardener's words", () => {
    const s = shoot('s', net({ nodes: '10.240.0.0/16', pods: '100.96.0.0/11' }));
    expect(networksNotDisjoint(seed('a'), s, { allowIPv4Overlap: false })).toBe(
      'invalid networks: [Invalid value: "10.240.0.0/16": shoot node network intersects with seed node network Required value: services is required]',
    );
    expect(
      networkProblems(
        seed('a'),
        shoot('s', net({ nodes: '242.1.0.0/16', pods: '100.96.0.0/11', services: '100.64.0.0/13' })),
      ),
    ).toEqual([
      'Invalid value: "242.1.0.0/16": shoot node network intersects with reserved shoot node network mapping range (242.0.0.0/8)',
    ]);
  });
});
