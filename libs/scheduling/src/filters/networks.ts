// Network disjointedness of shoot and seed, as Gardener checks it when scheduling:
// - the shoot's pods and services (nodes optional) must be known: the shoot's own, else the seed's shootDefaults of a
//   matching IP family; a missing required network rules the seed out;
// - IPv6 shoot networks must not overlap the seed's nodes, pods or services. IPv4 ones may: the VPN maps overlapping
//   IPv4 ranges with double NAT (set allowIPv4Overlap false for strict disjointedness of every family);
// - no shoot network may overlap the ranges reserved for the VPN (fd8f:6d53:b97a:1::/96, 240/8 to 244/8).
// The networks in shoot.status.networking (of an existing shoot) are checked the same way.
import type { Seed, Shoot } from '@gardener-ts/api';
import { cidrFamily, cidrsIntersect, isIPv6Cidr } from '../networks/cidr.js';

const RESERVED: readonly { cidr: string; what: string }[] = [
  { cidr: 'fd8f:6d53:b97a:1::/96', what: 'default vpn network' },
  { cidr: '240.0.0.0/8', what: 'reserved kube-apiserver mapping range' },
  { cidr: '241.0.0.0/8', what: 'reserved seed pod network mapping range' },
  { cidr: '242.0.0.0/8', what: 'reserved shoot node network mapping range' },
  { cidr: '243.0.0.0/8', what: 'reserved shoot service network mapping range' },
  { cidr: '244.0.0.0/8', what: 'reserved shoot pod network mapping range' },
];

type NetworkType = 'node' | 'service' | 'pod';

interface SeedNetworks {
  nodes?: string;
  pods: string;
  services: string;
}

function isWorkerless(shoot: Shoot): boolean {
  return (shoot.spec.provider.workers ?? []).length === 0;
}

function overlapProblems(
  type: NetworkType,
  networks: readonly string[],
  required: boolean,
  seed: SeedNetworks,
  allowIPv4Overlap: boolean,
): string[] {
  const problems: string[] = [];
  for (const network of networks) {
    const invalid = (detail: string) =>
      problems.push(`Invalid value: "${network}": shoot ${type} network intersects with ${detail}`);
    if (!allowIPv4Overlap || isIPv6Cidr(network)) {
      if (cidrsIntersect(seed.services, network)) invalid('seed service network');
      if (cidrsIntersect(seed.pods, network)) invalid('seed pod network');
      if (seed.nodes && cidrsIntersect(seed.nodes, network)) invalid('seed node network');
    }
    for (const reserved of RESERVED)
      if (cidrsIntersect(reserved.cidr, network)) invalid(`${reserved.what} (${reserved.cidr})`);
  }
  if (networks.length === 0 && required) problems.push(`Required value: ${type}s is required`);
  return problems;
}

/** The shoot's network problems on this seed, in Gardener's wording; empty when the networks fit. */
export function networkProblems(seed: Seed, shoot: Shoot, { allowIPv4Overlap = true } = {}): string[] {
  const networking = shoot.spec.networking;
  if (!networking) return [];
  const workerless = isWorkerless(shoot);
  // Gardener defaults spec.networking.ipFamilies to [IPv4].
  const families = new Set<string>(
    networking.ipFamilies && networking.ipFamilies.length > 0 ? networking.ipFamilies : ['IPv4'],
  );
  const defaults = seed.spec.networks.shootDefaults;
  const fromDefaults = (cidr: string | undefined) => (cidr && families.has(cidrFamily(cidr) ?? '') ? cidr : undefined);
  const pods = networking.pods ?? (workerless ? undefined : fromDefaults(defaults?.pods));
  const services = networking.services ?? fromDefaults(defaults?.services);
  const seedNetworks = seed.spec.networks;
  const one = (cidr: string | undefined) => (cidr ? [cidr] : []);

  const problems = [
    ...overlapProblems('node', one(networking.nodes), false, seedNetworks, allowIPv4Overlap),
    ...overlapProblems('service', one(services), true, seedNetworks, allowIPv4Overlap),
    ...overlapProblems('pod', one(pods), !workerless, seedNetworks, allowIPv4Overlap),
  ];
  const status = shoot.status?.networking;
  if (status) {
    problems.push(
      ...overlapProblems('node', status.nodes ?? [], false, seedNetworks, allowIPv4Overlap),
      ...overlapProblems('service', status.services ?? [], true, seedNetworks, allowIPv4Overlap),
      ...overlapProblems('pod', status.pods ?? [], !workerless, seedNetworks, allowIPv4Overlap),
    );
  }
  return problems;
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
