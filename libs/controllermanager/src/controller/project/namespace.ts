// How a Project gets its namespace (Gardener's project reconciler): `spec.namespace` if set, else a name derived from
// the project's name and UID (`garden-<name>-<first 5 hex of sha256(uid)>`, so a retry yields the same name). A missing
// namespace is created with the project labels; an existing one is adopted only if it carries the project labels and
// is not bound to another project, and an adopted namespace is kept when the project goes. Pure.
import { createHash } from 'node:crypto';
import { Labels, ProjectNamespacePrefix, type Project } from '@gardener-ts/api';

/** Annotation on a project namespace: the uid of its project. */
export const NamespaceProject = 'namespace.gardener.cloud/project';
/** Annotation: the namespace stays when the project is deleted. */
export const NamespaceKeepAfterProjectDeletion = 'namespace.gardener.cloud/keep-after-project-deletion';
/** Annotation: the project controller created the namespace. */
export const NamespaceCreatedByProjectController = 'namespace.gardener.cloud/created-by-project-controller';

/** The labels a project namespace carries. */
export function projectNamespaceLabels(project: Project): Record<string, string> {
  return { [Labels.GardenRole]: Labels.GardenRoleValue.Project, [Labels.ProjectName]: project.metadata!.name! };
}

/** The namespace name of a Project: `spec.namespace`, else the deterministic generated one. */
export function projectNamespaceName(project: Project): string {
  if (project.spec?.namespace) return project.spec?.namespace;
  const hash = createHash('sha256')
    .update(project.metadata?.uid ?? '')
    .digest('hex')
    .slice(0, 5);
  return `${ProjectNamespacePrefix}${project.metadata!.name!}-${hash}`;
}

/** A namespace as far as the project controller reads it. */
export interface NamespaceLike {
  metadata?: {
    name?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: {
      apiVersion: string;
      kind: string;
      name: string;
      uid: string;
      controller?: boolean;
      blockOwnerDeletion?: boolean;
    }[];
    deletionTimestamp?: string;
  };
}

/** What to do with the project namespace. */
export type NamespacePlan =
  | { action: 'create'; namespace: Required<Pick<NamespaceLike, 'metadata'>> & { apiVersion: 'v1'; kind: 'Namespace' } }
  | { action: 'adopt'; metadata: NonNullable<NamespaceLike['metadata']> }
  | { action: 'none' }
  | { action: 'refuse'; error: string };

const contains = (have: Record<string, string> | undefined, want: Record<string, string>) =>
  Object.entries(want).every(([k, v]) => have?.[k] === v);

/** Decides between creating, adopting, leaving and refusing the namespace. */
export function planProjectNamespace(project: Project, existing: NamespaceLike | undefined): NamespacePlan {
  const name = projectNamespaceName(project);
  const labels = projectNamespaceLabels(project);
  const annotations = { [NamespaceProject]: project.metadata?.uid ?? '' };
  const ownerReference = {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Project',
    name: project.metadata!.name!,
    uid: project.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
  if (!existing) {
    return {
      action: 'create',
      namespace: {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: {
          name,
          labels,
          annotations: { ...annotations, [NamespaceCreatedByProjectController]: 'true' },
          ownerReferences: [ownerReference],
        },
      },
    };
  }
  const meta = existing.metadata ?? {};
  if (!contains(meta.labels, labels)) {
    return {
      action: 'refuse',
      error: `namespace cannot be used as it needs the project labels ${JSON.stringify(labels)}`,
    };
  }
  if (meta.annotations?.[NamespaceProject] !== undefined && !contains(meta.annotations, annotations)) {
    return { action: 'refuse', error: 'namespace is already in-use by another project' };
  }
  const owners = [...(meta.ownerReferences ?? [])];
  if (!owners.some((o) => o.uid === ownerReference.uid)) owners.push(ownerReference);
  const mergedAnnotations: Record<string, string> = { ...meta.annotations, ...annotations };
  if (meta.annotations?.[NamespaceCreatedByProjectController] === undefined) {
    mergedAnnotations[NamespaceKeepAfterProjectDeletion] = 'true';
  }
  const adopted = {
    ...meta,
    labels: { ...meta.labels, ...labels },
    annotations: mergedAnnotations,
    ownerReferences: owners,
  };
  if (JSON.stringify(adopted) === JSON.stringify(meta)) return { action: 'none' };
  return { action: 'adopt', metadata: adopted };
}

/** On project deletion: delete the namespace, keep it (stripped of the project's marks), or leave a foreign one alone. */
export type ReleasePlan =
  | { action: 'gone' }
  | { action: 'wait' }
  | { action: 'foreign' }
  | { action: 'keep'; metadata: NonNullable<NamespaceLike['metadata']> }
  | { action: 'delete' };

/** Gardener's releaseNamespace decision. */
export function planNamespaceRelease(project: Project, existing: NamespaceLike | undefined): ReleasePlan {
  if (!existing) return { action: 'gone' };
  const meta = existing.metadata ?? {};
  if (meta.deletionTimestamp) return { action: 'wait' };
  if (!contains(meta.labels, projectNamespaceLabels(project))) return { action: 'foreign' };
  if (meta.annotations?.[NamespaceKeepAfterProjectDeletion] === 'true') {
    const annotations = { ...meta.annotations };
    for (const k of [NamespaceProject, NamespaceKeepAfterProjectDeletion, NamespaceCreatedByProjectController])
      delete annotations[k];
    const labels = { ...meta.labels };
    delete labels[Labels.ProjectName];
    delete labels[Labels.GardenRole];
    const ownerReferences = (meta.ownerReferences ?? []).filter(
      (o) => !(o.kind === 'Project' && o.name === project.metadata?.name && o.uid === project.metadata?.uid),
    );
    return { action: 'keep', metadata: { ...meta, labels, annotations, ownerReferences } };
  }
  return { action: 'delete' };
}
