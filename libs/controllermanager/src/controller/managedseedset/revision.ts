// The template history of a ManagedSeedSet as apps/v1 ControllerRevisions, the way Kubernetes' StatefulSet controller
// keeps one (pkg/controller/history and the StatefulSet's getStatefulSetRevisions/truncateHistory; Gardener's
// ManagedSeedSet controller keeps none): one revision per distinct pair of templates, named `<set>-<hash>` with the
// collision count in the hash, numbered in the order they became the update revision (a template reverted to an
// older revision renumbers that one: a rollback), pruned to `spec.revisionHistoryLimit` (default 10) without touching
// the revisions replicas are at. Also the JSON merge patch between two versions of a replica object. Pure.
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import type { ManagedSeedSet } from './types.js';

/** An apps/v1 ControllerRevision: an immutable snapshot of a set's templates (`data`) with its number. */
export interface ControllerRevision extends KubernetesObject {
  data?: unknown;
  revision: number;
}
export const ControllerRevisionKind = kind<ControllerRevision>('apps/v1', 'ControllerRevision');

/** The label on a ControllerRevision naming its hash (Kubernetes' `controller.kubernetes.io/hash`). */
export const ControllerRevisionHashLabel = 'controller.kubernetes.io/hash';
/** The history kept besides the revisions in use when `spec.revisionHistoryLimit` is unset (Gardener's default). */
export const DefaultRevisionHistoryLimit = 10;

/** What a revision snapshots: both templates of the set. */
export interface RevisionTemplates {
  template: ManagedSeedSet['spec']['template'];
  shootTemplate: ManagedSeedSet['spec']['shootTemplate'];
}

/** The set's current templates (copies). */
export function templatesOf(set: ManagedSeedSet): RevisionTemplates {
  return structuredClone({ template: set.spec.template, shootTemplate: set.spec.shootTemplate });
}

/** The templates a revision holds, undefined when its data is not a pair of templates. */
export function templatesOfRevision(revision: ControllerRevision): RevisionTemplates | undefined {
  const data = revision.data as Partial<RevisionTemplates> | undefined;
  return data && typeof data === 'object' && data.template && data.shootTemplate
    ? structuredClone(data as RevisionTemplates)
    : undefined;
}

/** JSON with object keys sorted, so equal values serialize equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The 10 hex digits naming a pair of templates under a collision count. */
export function templatesHash(templates: RevisionTemplates, collisionCount: number): string {
  return createHash('sha256')
    .update(canonicalJson({ template: templates.template, shootTemplate: templates.shootTemplate }))
    .update(collisionCount ? `/${collisionCount}` : '')
    .digest('hex')
    .slice(0, 10);
}

/** `<set>-<hash>` of the set's current templates under a collision count. */
export function revisionName(set: ManagedSeedSet, collisionCount: number): string {
  return `${set.metadata!.name}-${templatesHash(templatesOf(set), collisionCount)}`;
}

/** Whether two revisions snapshot the same templates (Kubernetes' history.EqualRevision compares the data). */
export function equalRevision(a: ControllerRevision, b: ControllerRevision): boolean {
  return canonicalJson(a.data ?? null) === canonicalJson(b.data ?? null);
}

/** The revisions the set controls, oldest (lowest number) first. */
export function ownedRevisions(set: ManagedSeedSet, revisions: readonly ControllerRevision[]): ControllerRevision[] {
  const uid = set.metadata?.uid;
  return revisions
    .filter((r) =>
      (r.metadata?.ownerReferences ?? []).some(
        (o) =>
          o.controller === true && o.kind === 'ManagedSeedSet' && (uid ? o.uid === uid : o.name === set.metadata?.name),
      ),
    )
    .sort((a, b) => a.revision - b.revision || (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
}

/** The number after the highest one in the history (1 for an empty one). */
export function nextRevisionNumber(history: readonly ControllerRevision[]): number {
  return history.reduce((max, r) => Math.max(max, r.revision), 0) + 1;
}

/** A new revision of the set's current templates, controlled by the set, labelled with the set's selector labels. */
export function newRevision(set: ManagedSeedSet, number: number, collisionCount: number): ControllerRevision {
  const name = revisionName(set, collisionCount);
  const matchLabels = (set.spec.selector as { matchLabels?: Record<string, string> }).matchLabels ?? {};
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      namespace: set.metadata!.namespace!,
      labels: { ...matchLabels, [ControllerRevisionHashLabel]: name.slice(set.metadata!.name!.length + 1) },
      ownerReferences: [
        {
          apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
          kind: 'ManagedSeedSet',
          name: set.metadata!.name!,
          uid: set.metadata!.uid!,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    data: templatesOf(set),
    revision: number,
  };
}

/** How the update revision comes about (Kubernetes' StatefulSet getStatefulSetRevisions). */
export type UpdateRevisionStep =
  /** The newest revision already holds the templates. */
  | { readonly type: 'existing'; readonly revision: ControllerRevision }
  /** An older revision holds them (the templates were reverted): it becomes the newest by its new number. */
  | { readonly type: 'renumber'; readonly revision: ControllerRevision; readonly number: number }
  /** No revision holds them: a new one is created (on a name clash with other data the collision count goes up). */
  | { readonly type: 'create'; readonly revision: ControllerRevision };

/** Finds or makes the revision of the set's current templates among its `history` (owned, oldest first). */
export function updateRevisionStep(
  set: ManagedSeedSet,
  history: readonly ControllerRevision[],
  collisionCount: number,
): UpdateRevisionStep {
  const number = nextRevisionNumber(history);
  const candidate = newRevision(set, number, collisionCount);
  const equal = history.filter((r) => equalRevision(r, candidate));
  const latestEqual = equal.at(-1);
  if (latestEqual && latestEqual === history.at(-1)) return { type: 'existing', revision: latestEqual };
  if (latestEqual) return { type: 'renumber', revision: latestEqual, number };
  return { type: 'create', revision: candidate };
}

/**
 * The revisions to delete (Kubernetes' truncateHistory): those no replica is at and that are neither the current nor
 * the update revision, oldest first, beyond the newest `limit` of them.
 */
export function revisionsToPrune(
  history: readonly ControllerRevision[],
  live: ReadonlySet<string>,
  limit: number,
): ControllerRevision[] {
  const unused = history.filter((r) => !live.has(r.metadata!.name!));
  return unused.slice(0, Math.max(0, unused.length - Math.max(0, limit)));
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The JSON merge patch (RFC 7386) turning `before` into `after`: fields only `before` has become null (removed), changed
 * fields are written, objects are diffed field by field, lists replaced whole. Applied to a live object, it changes
 * exactly what changed between the two versions and leaves fields neither version sets (server defaults, what others
 * wrote) alone. Undefined when nothing changed.
 */
export function mergePatchBetween(before: unknown, after: unknown): unknown {
  if (!isPlainObject(before) || !isPlainObject(after)) {
    return isDeepStrictEqual(before, after) ? undefined : after === undefined ? null : structuredClone(after);
  }
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(before)) {
    if (before[key] !== undefined && after[key] === undefined) patch[key] = null;
  }
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const sub = before[key] === undefined ? structuredClone(value) : mergePatchBetween(before[key], value);
    if (sub !== undefined) patch[key] = sub;
  }
  return Object.keys(patch).length ? patch : undefined;
}
