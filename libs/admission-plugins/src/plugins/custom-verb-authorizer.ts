// CustomVerbAuthorizer (gardener-apiserver plugin/pkg/project/customverbauthorizer): changing a Project's toleration
// whitelist (`spec.tolerations.whitelist`) needs the custom verb `modify-spec-tolerations-whitelist` on projects, so
// project members cannot grant themselves tolerations for special seeds; adding or changing members with roles
// beyond the defaults needs `manage-members` (held by project owners and admins).
import { allow, CORE, forbidden, isKind, type AdmissionAttributes, type Listers } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

export const ModifySpecTolerationsWhitelist = 'modify-spec-tolerations-whitelist';
export const ManageMembers = 'manage-members';

const same = (x: unknown, y: unknown) => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);

async function may(a: AdmissionAttributes, listers: Listers, verb: string): Promise<boolean> {
  if (!listers.authorize) return false;
  return listers.authorize(a.userInfo, {
    verb,
    group: CORE,
    resource: 'projects',
    name: a.object?.metadata?.name ?? a.name,
  });
}

/** The CustomVerbAuthorizer admission plugin. */
export const CustomVerbAuthorizer: AdmissionPlugin = {
  name: 'CustomVerbAuthorizer',
  handles: (a) =>
    isKind(a, CORE, 'Project') &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object),
  async validate(a, listers) {
    const old = a.operation === 'UPDATE' ? a.oldObject : undefined;
    const whitelist = a.object!.spec?.tolerations?.whitelist;
    if (
      !same(whitelist, old?.spec?.tolerations?.whitelist) &&
      (whitelist?.length || old) &&
      !(await may(a, listers, ModifySpecTolerationsWhitelist))
    ) {
      return forbidden(
        a,
        `user "${a.userInfo.username ?? ''}" is not allowed to modify spec.tolerations.whitelist: it needs the "${ModifySpecTolerationsWhitelist}" verb on projects`,
      );
    }
    // Members on UPDATE only: the creator of a Project becomes its owner anyway.
    if (old && !same(a.object!.spec?.members, old.spec?.members) && !(await may(a, listers, ManageMembers))) {
      return forbidden(
        a,
        `user "${a.userInfo.username ?? ''}" is not allowed to manage members: it needs the "${ManageMembers}" verb on projects`,
      );
    }
    return allow();
  },
};
