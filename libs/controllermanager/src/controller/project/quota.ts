// The ResourceQuota a Project's namespace gets (Gardener's project reconciler): the first `controllers.project.quotas`
// entry whose `projectSelector` matches the project's labels (an absent one is defaulted to `{}`, as Gardener's
// configuration defaulting does: it matches every project)
// is applied as the ResourceQuota `gardener`, controlled by the project. Merging with an existing quota: its labels
// and annotations are kept with the configured ones laid over them; of `spec.hard`, only the configured resources
// remain, and a resource the quota already limits keeps its current value (an operator's change wins over the config).
// Pure.
import { labelSelectorMatches, type Project } from '@gardener-ts/api';
import type { ControllerManagerConfiguration } from '@gardener-ts/component-config';
import { kind, type KubernetesObject } from '@gardener-ts/controller-runtime';

/** A `controllers.project.quotas` entry. */
export type QuotaConfiguration = NonNullable<
  ControllerManagerConfiguration['controllers']['project']['quotas']
>[number];

/** The name of the ResourceQuota Gardener maintains in a project namespace. */
export const ResourceQuotaName = 'gardener';

/** A core/v1 ResourceQuota as far as the controller reads and writes it. */
export interface ResourceQuota extends KubernetesObject {
  apiVersion: 'v1';
  kind: 'ResourceQuota';
  spec?: { hard?: Record<string, string>; [field: string]: unknown };
}

export const ResourceQuotaKind = kind<ResourceQuota>('v1', 'ResourceQuota');

/** An owner reference as Gardener's `metav1.NewControllerRef` makes it. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** The controller reference of a Project. */
export function projectControllerRef(project: Project): OwnerReference {
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'Project',
    name: project.metadata!.name!,
    uid: project.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * The first quota configuration whose selector matches the project's labels, undefined when none does. Throws
 * `LabelSelectorError` for an invalid selector (Gardener fails the reconciliation then).
 */
export function quotaConfigurationForProject(
  quotas: readonly QuotaConfiguration[] | undefined,
  project: Project,
): QuotaConfiguration | undefined {
  return quotas?.find((q) => labelSelectorMatches(q.projectSelector ?? {}, project.metadata?.labels ?? {}));
}

/** kube's MergeOwnerReferences: a reference with the same uid is replaced, a new one appended. */
export function mergeOwnerReferences(existing: readonly OwnerReference[], ref: OwnerReference): OwnerReference[] {
  const out = existing.map((o) => (o.uid === ref.uid ? ref : o));
  if (!existing.some((o) => o.uid === ref.uid)) out.push(ref);
  return out;
}

/** The hard limits after the merge: the configured resources, each at its existing value if it has one. */
export function mergeHard(
  existing: Readonly<Record<string, string>> | undefined,
  configured: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [resource, quantity] of Object.entries(configured ?? {})) {
    out[resource] = existing && Object.hasOwn(existing, resource) ? existing[resource]! : quantity;
  }
  return out;
}

/** The project namespace's ResourceQuota after merging `config` into `existing` (undefined: it does not exist yet). */
export function desiredResourceQuota(
  existing: ResourceQuota | undefined,
  namespace: string,
  owner: OwnerReference,
  config: QuotaConfiguration,
): ResourceQuota {
  const template = config.config;
  const labels = { ...existing?.metadata?.labels, ...template?.metadata?.labels };
  const annotations = { ...existing?.metadata?.annotations, ...template?.metadata?.annotations };
  return {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: {
      ...existing?.metadata,
      name: ResourceQuotaName,
      namespace,
      ...(Object.keys(labels).length ? { labels } : {}),
      ...(Object.keys(annotations).length ? { annotations } : {}),
      ownerReferences: mergeOwnerReferences((existing?.metadata?.ownerReferences ?? []) as OwnerReference[], owner),
    },
    spec: { ...existing?.spec, hard: mergeHard(existing?.spec?.hard, template?.spec?.hard) },
  };
}

/**
 * The JSON merge patch turning `existing` into `desired` for the fields the controller owns (labels, annotations,
 * owner references, `spec.hard`), undefined when nothing changes. Resources dropped from `spec.hard` are nulled.
 */
export function resourceQuotaPatch(
  existing: ResourceQuota,
  desired: ResourceQuota,
): Record<string, unknown> | undefined {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const metadata: Record<string, unknown> = {};
  for (const field of ['labels', 'annotations', 'ownerReferences'] as const) {
    if (!same(existing.metadata?.[field], desired.metadata?.[field])) metadata[field] = desired.metadata?.[field];
  }
  const before = existing.spec?.hard ?? {};
  const after = desired.spec?.hard ?? {};
  const hard: Record<string, string | null> = {};
  for (const resource of Object.keys(before)) if (!Object.hasOwn(after, resource)) hard[resource] = null;
  for (const [resource, quantity] of Object.entries(after))
    if (before[resource] !== quantity) hard[resource] = quantity;
  const patch: Record<string, unknown> = {};
  if (Object.keys(metadata).length) patch.metadata = metadata;
  if (Object.keys(hard).length) patch.spec = { hard };
  return Object.keys(patch).length ? patch : undefined;
}
