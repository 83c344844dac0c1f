// ProjectMutator and ProjectValidator (gardener-apiserver plugin/pkg/project/{mutator,validator}): a new Project
// records who created it in `spec.createdBy` and gets that user as `spec.owner` unless one is given; its
// `spec.namespace`, when set, must be `garden` or start with `garden-`.
import { allow, CORE, forbidden, isKind, mutated, type KubeObject } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** The Project with `spec.createdBy` (and `spec.owner` when empty) set to `username`. */
export function withCreator(project: KubeObject, username: string): KubeObject {
  const next = structuredClone(project);
  next.spec ??= {};
  const user = { apiGroup: RBAC_GROUP, kind: 'User', name: username };
  next.spec.createdBy ??= user;
  next.spec.owner ??= next.spec.createdBy;
  return next;
}

/** The ProjectMutator admission plugin. */
export const ProjectMutator: AdmissionPlugin = {
  name: 'ProjectMutator',
  handles: (a) => isKind(a, CORE, 'Project') && a.operation === 'CREATE' && Boolean(a.object),
  admit(a) {
    const username = a.userInfo.username;
    if (!username) return allow();
    const project = withCreator(a.object!, username);
    return JSON.stringify(project) === JSON.stringify(a.object) ? allow() : mutated(project);
  },
};

/** The ProjectValidator admission plugin. */
export const ProjectValidator: AdmissionPlugin = {
  name: 'ProjectValidator',
  handles: (a) => isKind(a, CORE, 'Project') && a.operation === 'CREATE' && Boolean(a.object),
  validate(a) {
    const namespace: string | undefined = a.object?.spec?.namespace;
    if (namespace && namespace !== 'garden' && !namespace.startsWith('garden-')) {
      return forbidden(a, `.spec.namespace must start with garden-`);
    }
    return allow();
  },
};
