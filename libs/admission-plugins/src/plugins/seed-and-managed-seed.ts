// SeedValidator (plugin/pkg/seed/validator) and ShootManagedSeed (plugin/pkg/shoot/managedseed), the deletion
// guards: a Seed that Shoots are scheduled to, and a Shoot a ManagedSeed registers as a seed, cannot be deleted.
import { allow, CORE, forbidden, isKind } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

/** The SeedValidator admission plugin (DELETE of Seeds). */
export const SeedValidator: AdmissionPlugin = {
  name: 'SeedValidator',
  handles: (a) => isKind(a, CORE, 'Seed') && a.operation === 'DELETE' && !a.subresource && Boolean(a.name),
  async validate(a, listers) {
    const shoots = await listers.list('core.gardener.cloud/v1beta1', 'Shoot');
    const using = shoots.filter((s) => s.spec?.seedName === a.name || s.status?.seedName === a.name);
    if (using.length === 0) return allow();
    return forbidden(a, `cannot delete seed '${a.name}' which is still used by shoot(s)`);
  },
};

/** The ShootManagedSeed admission plugin (DELETE of Shoots registered as seeds). */
export const ShootManagedSeed: AdmissionPlugin = {
  name: 'ShootManagedSeed',
  handles: (a) => isKind(a, CORE, 'Shoot') && a.operation === 'DELETE' && !a.subresource && Boolean(a.name),
  async validate(a, listers) {
    const managedSeeds = await listers.list('seedmanagement.gardener.cloud/v1alpha1', 'ManagedSeed', a.namespace);
    const referencing = managedSeeds.find((m) => m.spec?.shoot?.name === a.name);
    if (!referencing) return allow();
    return forbidden(a, `cannot delete shoot ${a.namespace}/${a.name} since it is still referenced by a managed seed`);
  },
};
