// Bastion (gardener-apiserver plugin/pkg/bastion/validator): a Bastion is created for an existing, scheduled Shoot
// with workers that is not being deleted; it takes the Shoot's seed and provider type and records its creator in
// `gardener.cloud/created-by`.
import { Annotations, FieldPath, invalid, required } from '@gardener-ts/api';
import { allow, forbidden, forbiddenFields, isKind, mutated, OPERATIONS } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

/** The Bastion admission plugin. */
export const BastionValidator: AdmissionPlugin = {
  name: 'Bastion',
  handles: (a) => isKind(a, OPERATIONS, 'Bastion') && a.operation === 'CREATE' && !a.subresource && Boolean(a.object),
  async admit(a, listers) {
    const bastion = a.object!;
    const shootName: string | undefined = bastion.spec?.shootRef?.name;
    if (!shootName)
      return forbiddenFields(a, [required(FieldPath.root('spec', 'shootRef', 'name'), 'shoot is required')]);
    const shoot = await listers.get('core.gardener.cloud/v1beta1', 'Shoot', shootName, a.namespace);
    if (!shoot)
      return forbiddenFields(a, [invalid(FieldPath.root('spec', 'shootRef', 'name'), shootName, 'shoot not found')]);
    if (shoot.metadata?.deletionTimestamp) return forbidden(a, 'shoot is in deletion');
    const seedName: string | undefined = shoot.spec?.seedName;
    if (!seedName) return forbidden(a, 'shoot is not yet scheduled to a seed');
    if ((shoot.spec?.provider?.workers ?? []).length === 0)
      return forbidden(a, 'bastions are only supported for shoots with workers');
    return mutated({
      ...bastion,
      metadata: {
        ...bastion.metadata,
        annotations: {
          ...bastion.metadata?.annotations,
          ...(a.userInfo.username ? { [Annotations.GardenerCreatedBy]: a.userInfo.username } : {}),
        },
      },
      spec: { ...bastion.spec, seedName, providerType: shoot.spec?.provider?.type },
    });
  },
  validate: () => allow(),
};
