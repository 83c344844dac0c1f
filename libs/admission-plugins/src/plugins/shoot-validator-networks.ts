// The Shoot's networks against its Seed's (Gardener's ShootValidator validateShootNetworks with
// pkg/utils/validation/cidr ValidateNetworkDisjointedness): when a Shoot is scheduled or moved to a seed, its networks
// must stay out of the VPN's ranges and must not overlap the seed's when they are IPv6 or the Shoot has a highly
// available control plane (HA VPN). The rule is libs/api's `shootNetworkDisjointedness`, which the scheduler's network
// filter uses too; here its findings become field errors. Missing networks are not reported here (Gardener's
// `pods is required` comes from the scheduler). Pure.
import { FieldPath, invalid, shootNetworkDisjointedness, type FieldError, type Shoot } from '@gardener-ts/api';
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
