// ProjectMutator and ProjectValidator (gardener-apiserver plugin/pkg/project/{mutator,validator}): a new Project
// records who created it in `spec.createdBy` and gets an owner unless one is given (the first member holding the
// `owner` role, else its creator); on CREATE and UPDATE the owner is made a member (roles admin and owner) when no
// member is that subject. `spec.namespace`, when set, must be `garden` or start with `garden-`. The members are
// written the way Gardener's conversion round trip stores them (`normalizeProjectMembers` of @gardener-ts/api).
import { normalizeProjectMembers, projectMemberRoles, ProjectMemberOwnerRole, type Project } from '@gardener-ts/api';
import { allow, CORE, forbidden, isKind, mutated, type AdmissionAttributes, type KubeObject } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

type Subject = { kind?: string; apiGroup?: string; name?: string; namespace?: string };

const subjectOf = ({ kind, apiGroup, name, namespace }: Subject): Subject => ({
  ...(kind !== undefined ? { kind } : {}),
  ...(apiGroup !== undefined ? { apiGroup } : {}),
  ...(name !== undefined ? { name } : {}),
  ...(namespace !== undefined ? { namespace } : {}),
});

/** Go's `member.Subject == owner`: kind, API group, name and namespace all equal. */
const sameSubject = (a: Subject, b: Subject) =>
  (a.kind ?? '') === (b.kind ?? '') &&
  (a.apiGroup ?? '') === (b.apiGroup ?? '') &&
  (a.name ?? '') === (b.name ?? '') &&
  (a.namespace ?? '') === (b.namespace ?? '');

/**
 * The new Project with `spec.createdBy` set to `username` and, without `spec.owner`, the first member holding the
 * owner role (else the creator) as owner (Gardener's ensureProjectOwner).
 */
export function withCreator(project: KubeObject, username: string): KubeObject {
  const next = structuredClone(project);
  next.spec ??= {};
  next.spec.createdBy = { apiGroup: RBAC_GROUP, kind: 'User', name: username };
  if (!next.spec.owner) {
    const holder = (next.spec.members ?? []).find((m: Subject & { role?: string; roles?: string[] }) =>
      projectMemberRoles(m).includes(ProjectMemberOwnerRole),
    );
    next.spec.owner = holder ? subjectOf(holder) : { ...next.spec.createdBy };
  }
  return next;
}

/**
 * The Project with its owner among the members (Gardener's ensureOwnerIsMember: a new member with the roles admin
 * and owner when no member is that subject), its members stored as Gardener's conversion writes them back. When more
 * than one member holds the owner role the members are left as they are: validation refuses them, as Gardener's
 * validation of its internal object does.
 */
export function withOwnerAsMember(project: KubeObject): KubeObject {
  const owner: Subject | undefined = project.spec?.owner;
  if (!owner) return project;
  const next = structuredClone(project);
  const members: (Subject & { role?: string; roles?: string[] })[] = next.spec.members ?? [];
  if (!members.some((m) => sameSubject(m, owner)))
    next.spec.members = [...members, { ...subjectOf(owner), role: 'admin', roles: [ProjectMemberOwnerRole] }];
  const holders = (next.spec.members ?? []).filter((m: Subject & { role?: string; roles?: string[] }) =>
    projectMemberRoles(m).includes(ProjectMemberOwnerRole),
  );
  if (holders.length <= 1) next.spec.members = normalizeProjectMembers(next.spec as NonNullable<Project['spec']>);
  return next;
}

/** Gardener's SkipVerification: an UPDATE of an object in deletion is not checked. */
const inDeletion = (a: AdmissionAttributes) =>
  a.operation === 'UPDATE' && Boolean(a.object?.metadata?.deletionTimestamp);

/** The ProjectMutator admission plugin. */
export const ProjectMutator: AdmissionPlugin = {
  name: 'ProjectMutator',
  handles: (a) =>
    isKind(a, CORE, 'Project') &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object) &&
    !inDeletion(a),
  admit(a) {
    const username = a.userInfo.username;
    let project = a.object!;
    if (a.operation === 'CREATE' && username) project = withCreator(project, username);
    project = withOwnerAsMember(project);
    return JSON.stringify(project) === JSON.stringify(a.object) ? allow() : mutated(project);
  },
};

/** The ProjectValidator admission plugin. */
export const ProjectValidator: AdmissionPlugin = {
  name: 'ProjectValidator',
  handles: (a) =>
    isKind(a, CORE, 'Project') &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object),
  validate(a) {
    const namespace: string | undefined = a.object?.spec?.namespace;
    if (namespace && namespace !== 'garden' && !namespace.startsWith('garden-')) {
      return forbidden(a, `.spec.namespace must start with garden-`);
    }
    return allow();
  },
};
