// spec.networking of a Shoot: plugin type, CIDRs valid and disjoint, IP families.
import type { Static } from '@sinclair/typebox';
import type { Networking } from '../../core/v1beta1/shoot.js';
import { type FieldError, FieldPath, forbidden, invalid, required } from '../field.js';
import { validateCIDR, validateDisjoint, validateIPFamilies } from '../common.js';

export function validateNetworking(
  networking: Static<typeof Networking> | undefined,
  workerless: boolean,
): FieldError[] {
  const path = FieldPath.root('spec', 'networking');
  const errors: FieldError[] = [];
  if (!networking) {
    return workerless ? [] : [required(path, 'networking should not be nil for a Shoot with workers')];
  }
  if (workerless) {
    if (networking.type !== undefined)
      errors.push(forbidden(path.child('type'), 'networking type is not supported for workerless Shoots'));
    if (networking.providerConfig !== undefined) {
      errors.push(forbidden(path.child('providerConfig'), 'providerConfig is not supported for workerless Shoots'));
    }
    if (networking.pods !== undefined)
      errors.push(forbidden(path.child('pods'), 'pods is not supported for workerless Shoots'));
    if (networking.nodes !== undefined)
      errors.push(forbidden(path.child('nodes'), 'nodes is not supported for workerless Shoots'));
  } else if (!networking.type) {
    errors.push(required(path.child('type'), 'networking type must be provided'));
  }

  errors.push(...validateIPFamilies(networking.ipFamilies, path.child('ipFamilies')));
  const families = networking.ipFamilies ?? ['IPv4'];
  const networks = (['nodes', 'pods', 'services'] as const).map((name) => {
    const network = validateCIDR(networking[name], path.child(name), errors);
    // Single-stack IPv6 shoots need IPv6 ranges, single-stack IPv4 shoots IPv4 ranges.
    if (network && families.length === 1 && network.cidr.family !== families[0]) {
      errors.push(
        invalid(
          network.path,
          network.value,
          `must be a valid ${families[0]} CIDR, the shoot uses ${families[0]} networking`,
        ),
      );
      return undefined;
    }
    return network;
  });
  errors.push(...validateDisjoint(networks));
  return errors;
}
