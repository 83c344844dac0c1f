// ControllerRegistrationResources (gardener-apiserver plugin/pkg/controllerregistration/resources): for every kind and
// type only one ControllerRegistration may be primarily responsible (`primary`, default true), so two extensions never
// reconcile the same resource.
import { FieldPath, forbidden as forbiddenField, type FieldError } from '@gardener-ts/api';
import { allow, CORE, forbiddenFields, isKind } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

interface Resource {
  kind: string;
  type: string;
  primary?: boolean;
}

/** The errors for `resources` of registration `name` given the other registrations. */
export function primaryConflicts(
  name: string,
  resources: readonly Resource[],
  others: readonly { metadata?: { name?: string }; spec?: { resources?: Resource[] } }[],
): FieldError[] {
  const errors: FieldError[] = [];
  resources.forEach((resource, i) => {
    if (resource.primary === false) return;
    const owner = others.find(
      (o) =>
        o.metadata?.name !== name &&
        (o.spec?.resources ?? []).some(
          (r) => r.kind === resource.kind && r.type === resource.type && r.primary !== false,
        ),
    );
    if (owner) {
      errors.push(
        forbiddenField(
          FieldPath.root('spec', 'resources').index(i),
          `another ControllerRegistration "${owner.metadata?.name ?? ''}" is already primarily responsible for kind "${resource.kind}" and type "${resource.type}"`,
        ),
      );
    }
  });
  return errors;
}

/** The ControllerRegistrationResources admission plugin. */
export const ControllerRegistrationResources: AdmissionPlugin = {
  name: 'ControllerRegistrationResources',
  handles: (a) =>
    isKind(a, CORE, 'ControllerRegistration') &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object),
  async validate(a, listers) {
    const others = await listers.list('core.gardener.cloud/v1beta1', 'ControllerRegistration');
    const errors = primaryConflicts(a.object!.metadata?.name ?? '', a.object!.spec?.resources ?? [], others);
    return errors.length > 0 ? forbiddenFields(a, errors) : allow();
  },
};
