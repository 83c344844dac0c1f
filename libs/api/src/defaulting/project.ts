// defaultProject, defaultSecretBinding: RBAC API groups of subjects, secret reference namespace; and the round trip
// of a Project's members through gardener-apiserver's internal version (pkg/apis/core/v1beta1/conversions.go), which
// Gardener runs on every write: a member's `role` heads its internal role list, and the `owner` role goes to the
// member that is `spec.owner` (and to no one else).
import type { Project, SecretBinding } from '../core/v1beta1/project.js';

const rbacGroup = 'rbac.authorization.k8s.io';

/** The role a Project's owner holds among its members. */
export const ProjectMemberOwnerRole = 'owner';

type Member = NonNullable<NonNullable<Project['spec']>['members']>[number];
type Subject = NonNullable<NonNullable<Project['spec']>['owner']>;

function defaultSubject(subject: { kind: string; apiGroup?: string } | undefined): void {
  if (!subject || subject.apiGroup !== undefined) return;
  subject.apiGroup = subject.kind === 'ServiceAccount' ? '' : rbacGroup;
}

/**
 * A member's roles as gardener-apiserver holds them internally: `role` first, then `roles` without it (the
 * v1beta1 → internal conversion of ProjectMember).
 */
export function projectMemberRoles(member: { role?: string; roles?: readonly string[] }): string[] {
  const roles = [...(member.roles ?? [])];
  return member.role ? [member.role, ...roles.filter((r) => r !== member.role)] : roles;
}

/** Whether `member` is the subject `owner` as the conversion compares them (name, API group and kind). */
function isOwner(member: Subject, owner: Subject): boolean {
  return member.name === owner.name && (member.apiGroup ?? '') === (owner.apiGroup ?? '') && member.kind === owner.kind;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** `member` with its internal roles written back as v1beta1 `role` + `roles` (internal → v1beta1 conversion). */
function withRoles(member: Member, roles: readonly string[]): Member {
  const { roles: _dropped, ...rest } = member;
  return { ...rest, role: roles[0] ?? '', ...(roles.length > 1 ? { roles: roles.slice(1) } : {}) };
}

/**
 * The members of `spec` after Gardener's conversion round trip (v1beta1 → internal → v1beta1): each member's role
 * list without repeats of its main role; with `spec.owner` set, the owner role added to the member that is the owner
 * and taken from every other member. Returns `spec.members` unchanged (same array) when nothing changes.
 */
export function normalizeProjectMembers(spec: NonNullable<Project['spec']>): Member[] | undefined {
  const members = spec.members;
  if (!members) return members;
  const owner = spec.owner;
  let changed = false;
  const next = members.map((member) => {
    let roles = projectMemberRoles(member);
    if (owner) {
      if (!isOwner(member, owner)) roles = roles.filter((r) => r !== ProjectMemberOwnerRole);
      else if (!roles.includes(ProjectMemberOwnerRole)) roles = [...roles, ProjectMemberOwnerRole];
    }
    const same = (member.role ?? '') === (roles[0] ?? '') && sameList(member.roles ?? [], roles.slice(1));
    if (same) return member;
    changed = true;
    return withRoles(member, roles);
  });
  return changed ? next : members;
}

export function defaultProject(input: Project): Project {
  const project = structuredClone(input);
  defaultSubject(project.spec?.owner);
  defaultSubject(project.spec?.createdBy);
  for (const member of project.spec?.members ?? []) defaultSubject(member);
  if (project.spec?.members) project.spec.members = normalizeProjectMembers(project.spec);
  return project;
}

export function defaultSecretBinding(input: SecretBinding): SecretBinding {
  const binding = structuredClone(input);
  if (binding.secretRef && binding.secretRef.namespace === undefined)
    binding.secretRef.namespace = binding.metadata?.namespace;
  return binding;
}
