// A Shoot's networks against its Seed's, as Gardener checks them when scheduling (the scheduler's network filter) and
// when a Shoot is scheduled or moved (ShootValidator; pkg/utils/validation/cidr ValidateNetworkDisjointedness):
// - the shoot's pods and services (nodes optional) come from the shoot, else from the seed's `shootDefaults` of a
//   matching IP family (a workerless shoot takes no pod network);
// - IPv6 shoot networks must not overlap the seed's nodes, pods or services; IPv4 ones may when `allowIPv4Overlap`
//   (the VPN maps overlapping IPv4 ranges with double NAT), which Gardener's local setup relies on;
// - no shoot network may overlap the ranges reserved for the VPN (fd8f:6d53:b97a:1::/96, 240/8 to 244/8);
// - the networks of an existing shoot (`status.networking`) are checked the same way; a shoot without
//   `spec.networking` has nothing to check.
// Pure: callers turn the findings into their own wording (field errors, scheduling reasons).
import { cidrsOverlapping, IPNet } from './cidr.js';
import type { Shoot } from './core/v1beta1/shoot.js';

/** The ranges Gardener's VPN keeps for itself (`v1beta1constants`), with the names its messages use. */
export const VPN_RESERVED_RANGES: readonly { cidr: string; what: string }[] = [
  { cidr: 'fd8f:6d53:b97a:1::/96', what: 'default vpn network' },
  { cidr: '240.0.0.0/8', what: 'reserved kube-apiserver mapping range' },
  { cidr: '241.0.0.0/8', what: 'reserved seed pod network mapping range' },
  { cidr: '242.0.0.0/8', what: 'reserved shoot node network mapping range' },
  { cidr: '243.0.0.0/8', what: 'reserved shoot service network mapping range' },
  { cidr: '244.0.0.0/8', what: 'reserved shoot pod network mapping range' },
];

export type ShootNetworkType = 'node' | 'service' | 'pod';

/** The Seed's `spec.networks` as far as the check reads them. */
export interface SeedNetworksOfShoots {
  nodes?: string;
  pods?: string;
  services?: string;
  shootDefaults?: { pods?: string; services?: string };
}

/** One shoot network that overlaps what it must not: `shoot <type> network intersects with <detail>`. */
export interface NetworkOverlap {
  kind: 'overlap';
  /** Where the network is: the shoot's spec or its status (an existing shoot's networks). */
  source: 'spec' | 'status';
  type: ShootNetworkType;
  network: string;
  /** E.g. `seed pod network`, `reserved kube-apiserver mapping range (240.0.0.0/8)`. */
  detail: string;
}

/** A network the shoot needs that neither it nor the seed's defaults give (services; pods unless workerless). */
export interface MissingNetwork {
  kind: 'missing';
  source: 'spec' | 'status';
  type: ShootNetworkType;
}

/** The findings in Gardener's order: per network type (nodes, services, pods; spec, then status). */
export type NetworkFinding = NetworkOverlap | MissingNetwork;

export interface NetworkDisjointednessOptions {
  /** IPv4 shoot networks may overlap the seed's (no HA VPN); IPv6 ones never may. */
  allowIPv4Overlap: boolean;
  /** How two CIDR texts are compared (a caller may cache parsing); false for text that is not a CIDR. */
  intersects?: (a: string, b: string) => boolean;
}

const familyOf = (cidr: string) => IPNet.tryParse(cidr)?.family;

/** What of the shoot's networks overlaps the seed's or the VPN's ranges, and which required ones are missing. */
export function shootNetworkDisjointedness(
  shoot: Shoot,
  seed: SeedNetworksOfShoots,
  options: NetworkDisjointednessOptions,
): NetworkFinding[] {
  const intersects = options.intersects ?? cidrsOverlapping;
  const result: NetworkFinding[] = [];
  const networking = shoot.spec.networking;
  const workerless = (shoot.spec.provider?.workers ?? []).length === 0;
  // Gardener defaults spec.networking.ipFamilies to [IPv4].
  const families = new Set<string>(networking?.ipFamilies?.length ? networking.ipFamilies : ['IPv4']);
  const fromDefaults = (cidr: string | undefined) => (cidr && families.has(familyOf(cidr) ?? '') ? cidr : undefined);
  const one = (cidr: string | undefined) => (cidr ? [cidr] : []);

  const check = (source: 'spec' | 'status', type: ShootNetworkType, networks: readonly string[], required: boolean) => {
    for (const network of networks) {
      const overlap = (detail: string) => result.push({ kind: 'overlap', source, type, network, detail });
      if (!options.allowIPv4Overlap || familyOf(network) === 'IPv6') {
        if (seed.services && intersects(seed.services, network)) overlap('seed service network');
        if (seed.pods && intersects(seed.pods, network)) overlap('seed pod network');
        if (seed.nodes && intersects(seed.nodes, network)) overlap('seed node network');
      }
      for (const reserved of VPN_RESERVED_RANGES)
        if (intersects(reserved.cidr, network)) overlap(`${reserved.what} (${reserved.cidr})`);
    }
    if (networks.length === 0 && required) result.push({ kind: 'missing', source, type });
  };

  // A shoot without networking (not defaulted yet) has nothing to check, as in Gardener.
  if (!networking) return result;
  {
    check('spec', 'node', one(networking.nodes), false);
    check('spec', 'service', one(networking.services ?? fromDefaults(seed.shootDefaults?.services)), true);
    check(
      'spec',
      'pod',
      one(networking.pods ?? (workerless ? undefined : fromDefaults(seed.shootDefaults?.pods))),
      !workerless,
    );
  }
  const status = shoot.status?.networking;
  if (status) {
    check('status', 'node', status.nodes ?? [], false);
    check('status', 'service', status.services ?? [], true);
    check('status', 'pod', status.pods ?? [], !workerless);
  }
  return result;
}
