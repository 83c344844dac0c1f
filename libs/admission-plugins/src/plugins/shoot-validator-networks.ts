// The Shoot's networks as Gardener's ShootValidator checks them once the Shoot has a seed (validateShootNetworks):
// - a missing `spec.networking.pods` (unless workerless) or `services` is taken from the Seed's
//   `networks.shootDefaults` when they are of the Shoot's IP family; a Seed without `shootDefaults` makes them
//   required for an IPv4 Shoot (`spec.networking.pods: Required value: pods is required`);
// - an IPv4 Shoot's own networks must be disjoint (pkg/utils/validation/cidr ValidateShootNetworkDisjointedness:
//   `spec.networking.services: Invalid value: "10.0.0.0/16": shoot pod network intersects with shoot service network`,
//   `shoot pod network is required` / `shoot service network is required`); Gardener does this in the admission
//   plugin, not in the static validation of pkg/apis/core/validation;
// - when the Shoot is scheduled or moved to a seed, its networks must stay out of the VPN's ranges and must not
//   overlap the seed's when they are IPv6 or the Shoot has a highly available control plane (HA VPN)
//   (ValidateNetworkDisjointedness; the rule is libs/api's `shootNetworkDisjointedness`, which the scheduler's network
//   filter uses too). Pure.
import {
  cidrsOverlapping,
  FieldPath,
  IPNet,
  invalid,
  required,
  shootNetworkDisjointedness,
  type FieldError,
  type SeedNetworksOfShoots,
  type Shoot,
} from '@gardener-ts/api';
import type { KubeObject } from '../attributes.js';

/** Whether the Shoot runs an HA VPN: Gardener's rule is a highly available control plane. */
function hasHAVPN(shoot: Shoot): boolean {
  return shoot.spec.controlPlane?.highAvailability?.failureTolerance !== undefined;
}

const FIELD: Record<'node' | 'service' | 'pod', string> = { node: 'nodes', service: 'services', pod: 'pods' };

/**
 * The field errors of the Shoot's networks on the Seed: `spec.networking.<nodes|services|pods>` (and
 * `status.networking.<...>`) Invalid, `shoot <type> network intersects with <what>`. Call it only when the seed
 * changes (scheduling or a move).
 */
export function validateNetworksAgainstSeed(shoot: Shoot, seed: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  for (const finding of shootNetworkDisjointedness(shoot, seed.spec?.networks ?? {}, {
    allowIPv4Overlap: !hasHAVPN(shoot),
  })) {
    if (finding.kind !== 'overlap') continue;
    const path = FieldPath.root(finding.source, 'networking').child(FIELD[finding.type]);
    errors.push(invalid(path, finding.network, `shoot ${finding.type} network intersects with ${finding.detail}`));
  }
  return errors;
}

/** Whether a CIDR is of one of the IP families (Gardener's cidrMatchesIPFamily); text that is no CIDR is not. */
const matchesFamily = (cidr: string, families: readonly string[]) => {
  const family = IPNet.tryParse(cidr)?.family;
  return family !== undefined && families.includes(family);
};

/** Gardener's NetworksIntersect (text that is no CIDR intersects nothing; the static validation reports it). */
const intersect = cidrsOverlapping;

/**
 * The Shoot's own networks against each other (Gardener's ValidateShootNetworkDisjointedness): pods and services must
 * not overlap, nor either of them the nodes; a Shoot with workers needs pods, every Shoot services.
 */
export function validateShootNetworkDisjointedness(
  nodes: string | undefined,
  pods: string | undefined,
  services: string | undefined,
  workerless: boolean,
  path = FieldPath.root('spec', 'networking'),
): FieldError[] {
  const errors: FieldError[] = [];
  const podsPath = path.child('pods');
  const servicesPath = path.child('services');
  if (pods && services && intersect(pods, services))
    errors.push(invalid(servicesPath, services, 'shoot pod network intersects with shoot service network'));
  if (pods && nodes && intersect(pods, nodes))
    errors.push(invalid(podsPath, pods, 'shoot pod network intersects with shoot node network'));
  if (services && nodes && intersect(services, nodes))
    errors.push(invalid(servicesPath, services, 'shoot service network intersects with shoot node network'));
  // Gardener lists the missing pod network before the missing service network only when both are missing.
  if (!pods && !workerless && !services) errors.push(required(podsPath, 'shoot pod network is required'));
  if (!services) errors.push(required(servicesPath, 'shoot service network is required'));
  if (!pods && !workerless && services) errors.push(required(podsPath, 'shoot pod network is required'));
  return errors;
}

/**
 * Gardener's validateShootNetworks for a Shoot with a seed (`seed` undefined: nothing to check): the missing pod and
 * service networks are taken from the Seed's `shootDefaults` of the Shoot's IP family, else required (IPv4 Shoots);
 * an IPv4 Shoot's own networks must be disjoint; a Shoot scheduled or moved to the seed (`seedChanged`) must not
 * overlap it (validateNetworksAgainstSeed).
 */
export function validateShootNetworks(shoot: Shoot, seed: KubeObject | undefined, seedChanged: boolean): FieldError[] {
  if (!seed) return [];
  const networking = shoot.spec.networking ?? {};
  const seedNetworks: SeedNetworksOfShoots = seed.spec?.networks ?? {};
  const families: string[] = networking.ipFamilies?.length ? [...networking.ipFamilies] : ['IPv4'];
  const workerless = (shoot.spec.provider?.workers ?? []).length === 0;
  const path = FieldPath.root('spec', 'networking');
  const errors: FieldError[] = [];

  const effective = (own: string | undefined, fromDefaults: string | undefined, type: 'pods' | 'services') => {
    if (own) return own;
    if (seedNetworks.shootDefaults)
      return fromDefaults && matchesFamily(fromDefaults, families) ? fromDefaults : undefined;
    if (families.includes('IPv4')) errors.push(required(path.child(type), `${type} is required`));
    return undefined;
  };
  const pods = workerless ? networking.pods : effective(networking.pods, seedNetworks.shootDefaults?.pods, 'pods');
  const services = effective(networking.services, seedNetworks.shootDefaults?.services, 'services');

  if (families.includes('IPv4'))
    errors.push(...validateShootNetworkDisjointedness(networking.nodes, pods, services, workerless, path));
  // Unlike the Gardener version read (IPv4 Shoots only), IPv6 Shoots are checked against the seed too: an IPv6 overlap
  // is never allowed (the scheduler's filter has the same rule).
  if (seedChanged) errors.push(...validateNetworksAgainstSeed(shoot, seed));
  return errors;
}
