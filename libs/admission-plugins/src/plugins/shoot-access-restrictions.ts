// The access restrictions of a Shoot (`spec.accessRestrictions`), as Gardener's ShootValidator checks them
// (plugin/pkg/shoot/validator, validateAccessRestrictions): when the set of names changes, each must be offered by the
// CloudProfile for the Shoot's region and supported by the Seed the Shoot is scheduled to.
import {
  FieldPath,
  forbidden,
  invalid,
  notSupported,
  type corev1beta1,
  type FieldError,
  type Shoot,
} from '@gardener-ts/api';
import type { KubeObject } from '../attributes.js';

const names = (restrictions: readonly { name: string }[] | undefined) =>
  new Set((restrictions ?? []).map((r) => r.name));

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((x) => b.has(x));

/** The checks of `spec.accessRestrictions` against the profile's region and the Seed (when the Shoot has one). */
export function validateAccessRestrictions(
  shoot: Shoot,
  old: Shoot | undefined,
  profile: corev1beta1.CloudProfileSpec,
  seed: KubeObject | undefined,
): FieldError[] {
  const restrictions = shoot.spec.accessRestrictions ?? [];
  if (sameSet(names(restrictions), names(old?.spec.accessRestrictions))) return [];
  const region = profile.regions.find((r) => r.name === shoot.spec.region);
  if (!region)
    return [invalid(FieldPath.root('spec', 'region'), shoot.spec.region, 'region not present in CloudProfile')];
  const path = FieldPath.root('spec', 'accessRestrictions');
  const offered = [...names(region.accessRestrictions)];
  const errors: FieldError[] = [];
  restrictions.forEach((r, i) => {
    if (!offered.includes(r.name)) errors.push(notSupported(path.index(i), r.name, offered));
  });
  if (seed) {
    const supported = names(seed.spec?.accessRestrictions);
    restrictions.forEach((r, i) => {
      if (!supported.has(r.name))
        errors.push(forbidden(path.index(i), `access restriction "${r.name}" is not supported by the seed`));
    });
  }
  return errors;
}
