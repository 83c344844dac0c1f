// Network disjointedness of shoot and seed, as Gardener checks it when scheduling:
// - the shoot's pods and services (nodes optional) must be known: the shoot's own, else the seed's shootDefaults of a
//   matching IP family; a missing required network rules the seed out;
// - IPv6 shoot networks must not overlap the seed's nodes, pods or services. IPv4 ones may: the VPN maps overlapping
//   IPv4 ranges with double NAT (set allowIPv4Overlap false for strict disjointedness of every family);
// - no shoot network may overlap the ranges reserved for the VPN (fd8f:6d53:b97a:1::/96, 240/8 to 244/8).
// The networks in shoot.status.networking (of an existing shoot) are checked the same way.
import { shootNetworkDisjointedness, type Seed, type Shoot } from '@gardener-ts/api';
import { cidrsIntersect } from '../networks/cidr.js';

/** The shoot's network problems on this seed, in Gardener's wording; empty when the networks fit. */
export function networkProblems(seed: Seed, shoot: Shoot, { allowIPv4Overlap = true } = {}): string[] {
  // The shared rule of libs/api, with this package's cached CIDR parsing (a decision compares many seeds).
  return shootNetworkDisjointedness(shoot, seed.spec.networks, { allowIPv4Overlap, intersects: cidrsIntersect }).map(
    (f) =>
      f.kind === 'missing'
        ? `Required value: ${f.type}s is required`
        : `Invalid value: "${f.network}": shoot ${f.type} network intersects with ${f.detail}`,
  );
}

/** Gardener's reason when the networks do not fit this seed, or undefined. */
export function networksNotDisjoint(
  seed: Seed,
  shoot: Shoot,
  options?: { allowIPv4Overlap?: boolean },
): string | undefined {
  const problems = networkProblems(seed, shoot, options);
  return problems.length === 0 ? undefined : `invalid networks: [${problems.join(' ')}]`;
}

/**
 * networksNotDisjoint for one shoot against many seeds. The answer depends on the seed only through its networks,
 * which most seeds of a landscape share, so each distinct set of seed networks is checked once.
 */
export function networkCheck(
  shoot: Shoot,
  options?: { allowIPv4Overlap?: boolean },
): (seed: Seed) => string | undefined {
  const known = new Map<string, string | undefined>();
  return (seed) => {
    const key = networksKey(seed);
    if (!known.has(key)) known.set(key, networksNotDisjoint(seed, shoot, options));
    return known.get(key);
  };
}

// One key string per seed object (cached seeds are immutable; an update brings a new object).
const keys = new WeakMap<object, string>();

function networksKey(seed: Seed): string {
  const n = seed.spec.networks;
  let key = keys.get(n);
  if (key === undefined) {
    key = `${n.nodes ?? ''}|${n.pods}|${n.services}|${n.shootDefaults?.pods ?? ''}|${n.shootDefaults?.services ?? ''}`;
    keys.set(n, key);
  }
  return key;
}
