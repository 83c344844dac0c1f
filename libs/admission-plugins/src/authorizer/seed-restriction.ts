// SeedRestriction (gardener-admission-controller pkg/admissioncontroller/webhook/admission/seedrestriction): the
// admission half of the SeedAuthorizer. Gardenlets may create objects of kinds the authorizer lets them create for
// any name (the name is not known before), so what they create must belong to their own seed: their Seed itself,
// BackupBuckets and BackupEntries for their seed, ShootStates of Shoots on their seed.
import { allow, CORE, forbidden, type AdmissionAttributes } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { seedOfUser } from './seed-authorizer.js';

const KINDS = ['Seed', 'BackupBucket', 'BackupEntry', 'ShootState'];

/** The SeedRestriction admission plugin. */
export const SeedRestriction: AdmissionPlugin = {
  name: 'SeedRestriction',
  handles: (a: AdmissionAttributes) =>
    a.operation === 'CREATE' &&
    !a.subresource &&
    a.kind.group === CORE &&
    KINDS.includes(a.kind.kind) &&
    seedOfUser(a.userInfo.username, a.userInfo.groups) !== undefined,
  async validate(a, listers) {
    const seed = seedOfUser(a.userInfo.username, a.userInfo.groups)!;
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
