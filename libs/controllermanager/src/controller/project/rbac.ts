// The RBAC objects of a Project, as Gardener's projectrbac component renders them: per-project ClusterRoles and
// ClusterRoleBindings for admins (`gardener.cloud:system:project:<name>`), members, user access managers and viewers,
// RoleBindings in the project namespace to Gardener's shared member/viewer/serviceaccountmanager ClusterRoles, and one
// aggregated ClusterRole + RoleBinding per extension role (`extension:<role>`). Pure: a Project in, objects out.
import { Labels, type Project } from '@gardener-ts/api';

export const NamePrefixProjectAdmin = 'gardener.cloud:system:project:';
export const NamePrefixProjectMember = 'gardener.cloud:system:project-member:';
export const NamePrefixProjectUAM = 'gardener.cloud:system:project-uam:';
export const NamePrefixProjectViewer = 'gardener.cloud:system:project-viewer:';
export const NamePrefixProjectExtensions = 'gardener.cloud:extension:project:';
export const NameProjectMember = 'gardener.cloud:system:project-member';
export const NameProjectViewer = 'gardener.cloud:system:project-viewer';
export const NameProjectServiceAccountManager = 'gardener.cloud:system:project-serviceaccountmanager';
/** Member roles with a meaning of their own; `extension:<name>` roles are extension roles. */
export const ProjectRole = {
  Owner: 'owner',
  Admin: 'admin',
  Viewer: 'viewer',
  UserAccessManager: 'uam',
  ServiceAccountManager: 'serviceaccountmanager',
} as const;
export const ProjectMemberExtensionPrefix = 'extension:';
/** The label selecting ClusterRoles that aggregate into an extension role. */
export const AggregateToExtensionRole = 'rbac.gardener.cloud/aggregate-to-extension-role';
/** The `gardener.cloud/role` value of extension role objects. */
export const LabelExtensionProjectRole = 'extension-project-role';

/** An RBAC subject. */
export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

/** A rendered RBAC object (ClusterRole, ClusterRoleBinding or RoleBinding), owned by the Project. */
export interface RBACObject {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'ClusterRole' | 'ClusterRoleBinding' | 'RoleBinding';
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    ownerReferences: {
      apiVersion: string;
      kind: string;
      name: string;
      uid: string;
      controller: boolean;
      blockOwnerDeletion: boolean;
    }[];
  };
  rules?: { apiGroups: string[]; resources: string[]; resourceNames?: string[]; verbs: string[] }[];
  aggregationRule?: { clusterRoleSelectors: { matchLabels: Record<string, string> }[] };
  roleRef?: { apiGroup: string; kind: 'ClusterRole'; name: string };
  subjects?: Subject[];
}

const subjectKey = (s: Subject) => `${s.apiGroup ?? ''}_${s.kind}_${s.namespace ?? ''}_${s.name}`;

/** Subjects without duplicates, first occurrence first. */
export function uniqueSubjects(subjects: readonly Subject[]): Subject[] {
  const seen = new Set<string>();
  const out: Subject[] = [];
  for (const s of subjects) {
    const k = subjectKey(s);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({
      kind: s.kind,
      name: s.name,
      ...(s.apiGroup ? { apiGroup: s.apiGroup } : {}),
      ...(s.namespace ? { namespace: s.namespace } : {}),
    });
  }
  return out;
}

/** The subjects of each role of a Project (the owner is admin and service account manager). */
export function projectSubjects(project: Project): {
  admins: Subject[];
  members: Subject[];
  uams: Subject[];
  viewers: Subject[];
  serviceAccountManagers: Subject[];
  extensionRoles: Map<string, Subject[]>;
} {
  const out = {
    admins: [] as Subject[],
    members: [] as Subject[],
    uams: [] as Subject[],
    viewers: [] as Subject[],
    serviceAccountManagers: [] as Subject[],
    extensionRoles: new Map<string, Subject[]>(),
  };
  const owner = project.spec?.owner;
  if (owner) {
    out.admins.push(owner);
    out.serviceAccountManagers.push(owner);
  }
  for (const member of project.spec?.members ?? []) {
    const subject: Subject = {
      kind: member.kind,
      name: member.name,
      apiGroup: member.apiGroup,
      namespace: member.namespace,
    };
    for (const role of [member.role, ...(member.roles ?? [])]) {
      if (role === ProjectRole.Admin || role === ProjectRole.Owner) out.members.push(subject);
      if (role === ProjectRole.UserAccessManager) out.uams.push(subject);
      if (role === ProjectRole.ServiceAccountManager || role === ProjectRole.Owner)
        out.serviceAccountManagers.push(subject);
      if (role === ProjectRole.Viewer) out.viewers.push(subject);
      if (role.startsWith(ProjectMemberExtensionPrefix)) {
        const name = role.slice(ProjectMemberExtensionPrefix.length);
        out.extensionRoles.set(name, [...(out.extensionRoles.get(name) ?? []), subject]);
      }
    }
  }
  return out;
}

/** The extension role names a Project's members ask for. */
export function wantedExtensionRoles(project: Project): Set<string> {
  return new Set(projectSubjects(project).extensionRoles.keys());
}

/** The labels of extension role objects of a project. */
export function extensionRoleLabels(projectName: string): Record<string, string> {
  return { [Labels.GardenRole]: LabelExtensionProjectRole, [Labels.ProjectName]: projectName };
}

/** Every RBAC object of the Project (`spec.namespace` must be set). */
export function desiredProjectRBAC(project: Project): RBACObject[] {
  const name = project.metadata!.name!;
  const namespace = project.spec?.namespace;
  if (!namespace) throw new Error('cannot render RBAC for a project with `.spec.namespace=nil`');
  const ownerReferences = [
    {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'Project',
      name,
      uid: project.metadata!.uid ?? '',
      controller: true,
      blockOwnerDeletion: false,
    },
  ];
  const who = projectSubjects(project);
  const roleRef = (ref: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole' as const, name: ref });
  const namespaceGet = { apiGroups: [''], resources: ['namespaces'], resourceNames: [namespace], verbs: ['get'] };
  const projectVerbs = (verbs: string[]) => ({
    apiGroups: ['core.gardener.cloud'],
    resources: ['projects'],
    resourceNames: [name],
    verbs,
  });
  const out: RBACObject[] = [];
  const clusterScoped = (roleName: string, subjects: Subject[], rules: RBACObject['rules'], roleBinding?: string) => {
    out.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: roleName, ownerReferences },
      rules,
    });
    out.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: roleName, ownerReferences },
      roleRef: roleRef(roleName),
      subjects: uniqueSubjects(subjects),
    });
    if (roleBinding) {
      out.push({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: roleBinding, namespace, ownerReferences },
        roleRef: roleRef(roleBinding),
        subjects: uniqueSubjects(subjects),
      });
    }
  };
  clusterScoped(NamePrefixProjectAdmin + name, who.admins, [
    namespaceGet,
    projectVerbs(['get', 'patch', 'manage-members', 'update', 'delete']),
  ]);
  clusterScoped(NamePrefixProjectUAM + name, who.uams, [projectVerbs(['get', 'manage-members', 'patch', 'update'])]);
  out.push({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: NameProjectServiceAccountManager, namespace, ownerReferences },
    roleRef: roleRef(NameProjectServiceAccountManager),
    subjects: uniqueSubjects(who.serviceAccountManagers),
  });
  clusterScoped(
    NamePrefixProjectMember + name,
    who.members,
    [namespaceGet, projectVerbs(['get', 'patch', 'update', 'delete'])],
    NameProjectMember,
  );
  clusterScoped(NamePrefixProjectViewer + name, who.viewers, [namespaceGet, projectVerbs(['get'])], NameProjectViewer);

  const labels = extensionRoleLabels(name);
  for (const role of [...who.extensionRoles.keys()].sort()) {
    const roleName = `${NamePrefixProjectExtensions}${name}:${role}`;
    out.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: roleName, labels, ownerReferences },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [AggregateToExtensionRole]: role } }] },
    });
    out.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: roleName, namespace, labels, ownerReferences },
      roleRef: roleRef(roleName),
      subjects: uniqueSubjects(who.extensionRoles.get(role)!),
    });
  }
  return out;
}

/** The extension role an extension role object is for (its name minus the project's prefix). */
export function extensionRoleOf(objectName: string, projectName: string): string {
  const prefix = `${NamePrefixProjectExtensions}${projectName}:`;
  return objectName.startsWith(prefix) ? objectName.slice(prefix.length) : objectName;
}
