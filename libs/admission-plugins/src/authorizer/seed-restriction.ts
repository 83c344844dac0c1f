// SeedRestriction (gardener-admission-controller pkg/admissioncontroller/webhook/admission/seedrestriction): the
// admission half of the SeedAuthorizer. Gardenlets may create objects of kinds the authorizer lets them create for
// any name (the name is not known before), so what they create must belong to their own seed: their Seed itself,
// BackupBuckets and BackupEntries for their seed, ShootStates of Shoots on their seed. The only BackupBucket a
// gardenlet may delete is its seed's own, named after the seed's UID (the one it creates for `spec.backup`). A Seed
// other than its own a gardenlet may delete only as the parent of a ManagedSeed being deleted: the ManagedSeed
// `garden/<seed>` has a deletion timestamp and its Shoot is on the gardenlet's seed.
import { allow, CORE, forbidden, type AdmissionAttributes } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { seedOfUser } from './seed-authorizer.js';

const KINDS = ['Seed', 'BackupBucket', 'BackupEntry', 'ShootState'];

/** The SeedRestriction admission plugin. */
export const SeedRestriction: AdmissionPlugin = {
  name: 'SeedRestriction',
  handles: (a: AdmissionAttributes) =>
    ((a.operation === 'CREATE' && KINDS.includes(a.kind.kind)) ||
      (a.operation === 'DELETE' && (a.kind.kind === 'BackupBucket' || a.kind.kind === 'Seed'))) &&
    !a.subresource &&
    a.kind.group === CORE &&
    seedOfUser(a.userInfo.username, a.userInfo.groups) !== undefined,
  async validate(a, listers) {
    const seed = seedOfUser(a.userInfo.username, a.userInfo.groups)!;
    if (a.operation === 'DELETE' && a.kind.kind === 'Seed') {
      const refuse = () => forbidden(a, `object does not belong to seed "${seed}"`);
      if (a.name === seed) return allow();
      const managedSeed = await listers.get(
        'seedmanagement.gardener.cloud/v1alpha1',
        'ManagedSeed',
        a.name ?? '',
        'garden',
      );
      if (!managedSeed) return refuse();
      // Gardenlets may not delete ManagedSeeds, so a deletion timestamp means somebody else asked for it.
      if (!managedSeed.metadata?.deletionTimestamp)
        return forbidden(a, 'object can only be deleted if corresponding ManagedSeed has a deletion timestamp');
      const shootName = managedSeed.spec?.shoot?.name;
      if (!shootName) return refuse();
      const shoot = await listers.get(
        'core.gardener.cloud/v1beta1',
        'Shoot',
        shootName,
        managedSeed.metadata?.namespace,
      );
      return shoot?.spec?.seedName === seed ? allow() : refuse();
    }
    if (a.operation === 'DELETE') {
      const seedObject = await listers.get('core.gardener.cloud/v1beta1', 'Seed', seed);
      const uid = seedObject?.metadata?.uid;
      return uid && a.name === uid ? allow() : forbidden(a, 'cannot delete unrelated BackupBucket');
    }
    const object = a.object!;
    const refuse = () => forbidden(a, `object does not belong to seed "${seed}"`);
    switch (a.kind.kind) {
      case 'Seed':
        return object.metadata?.name === seed ? allow() : refuse();
      case 'BackupBucket':
      case 'BackupEntry':
        return object.spec?.seedName === seed ? allow() : refuse();
      default: {
        const shoot = await listers.get(
          'core.gardener.cloud/v1beta1',
          'Shoot',
          object.metadata?.name ?? '',
          a.namespace,
        );
        return shoot && (shoot.spec?.seedName === seed || shoot.status?.seedName === seed) ? allow() : refuse();
      }
    }
  },
};
