// ManagedSeed (gardener-apiserver plugin/pkg/managedseed/validator, the part over references): a ManagedSeed
// registers an existing Shoot of its namespace that has workers, and no Shoot is registered by two ManagedSeeds.
import { FieldPath, invalid } from '@gardener-ts/api';
import { allow, forbiddenFields, isKind, SEEDMANAGEMENT } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

/** The ManagedSeed admission plugin. */
export const ManagedSeedValidator: AdmissionPlugin = {
  name: 'ManagedSeed',
  handles: (a) =>
    isKind(a, SEEDMANAGEMENT, 'ManagedSeed') &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object) &&
    !a.object?.metadata?.deletionTimestamp,
  async validate(a, listers) {
    const shootName: string | undefined = a.object!.spec?.shoot?.name;
    if (!shootName || (a.operation === 'UPDATE' && a.oldObject?.spec?.shoot?.name === shootName)) return allow();
    const path = FieldPath.root('spec', 'shoot', 'name');
    const shoot = await listers.get('core.gardener.cloud/v1beta1', 'Shoot', shootName, a.namespace);
    if (!shoot) return forbiddenFields(a, [invalid(path, shootName, `shoot ${a.namespace}/${shootName} not found`)]);
    if ((shoot.spec?.provider?.workers ?? []).length === 0)
      return forbiddenFields(a, [invalid(path, shootName, 'shoot has no workers')]);
    const others = await listers.list('seedmanagement.gardener.cloud/v1alpha1', 'ManagedSeed', a.namespace);
    const other = others.find(
      (m) => m.metadata?.name !== a.object!.metadata?.name && m.spec?.shoot?.name === shootName,
    );
    if (other)
      return forbiddenFields(a, [
        invalid(path, shootName, `shoot is already registered as seed by ManagedSeed ${other.metadata?.name}`),
      ]);
    return allow();
  },
};
