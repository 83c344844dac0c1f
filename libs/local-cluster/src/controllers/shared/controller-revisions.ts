// ControllerRevisions: each pod template a StatefulSet or DaemonSet has had, numbered, so a rollout knows which
// pods run which template (and StatefulSet pods below the partition keep the current revision's).
import {
  ignoreNotFound,
  isAlreadyExists,
  type GroupVersionKind,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import type { ControllerContext } from './context.js';
import { canonicalJson, objectHash } from './hash.js';
import { type ControllerRevision, ControllerRevisionKind, type PodTemplateSpec } from './kinds.js';
import { controllerRef } from './owner.js';

export const REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

interface RevisionData {
  spec: { template: PodTemplateSpec & { $patch?: string } };
}

export function templateOf(revision: ControllerRevision): PodTemplateSpec {
  const { $patch: _replace, ...template } = (revision.data as RevisionData).spec.template;
  return template;
}

export function sameTemplate(revision: ControllerRevision, template: PodTemplateSpec | undefined): boolean {
  return canonicalJson(templateOf(revision)) === canonicalJson(template ?? {});
}

type Owner = KubernetesObject & { spec?: { template: PodTemplateSpec }; status?: { collisionCount?: number } };

/** A new revision object of the owner's current template, named `<owner>-<hash>`. */
export function newRevision(owner: Owner, ownerKind: GroupVersionKind, revision: number): ControllerRevision {
  const template = owner.spec!.template;
  const hash = objectHash(template, owner.status?.collisionCount ?? 0);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${owner.metadata!.name}-${hash}`,
      namespace: owner.metadata?.namespace,
      labels: { ...template.metadata?.labels, [REVISION_HASH_LABEL]: hash },
      ownerReferences: [controllerRef(owner, ownerKind)],
    },
    data: { spec: { template: { ...structuredClone(template), $patch: 'replace' } } } satisfies RevisionData,
    revision,
  };
}

export const byRevision = (a: ControllerRevision, b: ControllerRevision) => a.revision - b.revision;

/**
 * The revision of the owner's current template, given its revisions sorted by number: an existing one (renumbered
 * to the newest if it was older, as after a rollback) or a new one. A name taken by another template bumps the
 * owner's collisionCount so the next attempt hashes differently.
 */
export async function syncUpdateRevision(
  ctx: ControllerContext,
  owner: Owner,
  ownerKind: GroupVersionKind,
  revisions: ControllerRevision[],
): Promise<ControllerRevision> {
  const next = (revisions.at(-1)?.revision ?? 0) + 1;
  const existing = revisions.find((r) => sameTemplate(r, owner.spec?.template));
  if (existing) {
    if (existing === revisions.at(-1)) return existing;
    return ctx.client.update({ ...structuredClone(existing), revision: next });
  }
  const revision = newRevision(owner, ownerKind, next);
  try {
    return await ctx.client.create(revision);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    const taken = await ctx.api.get(ControllerRevisionKind, {
      namespace: owner.metadata?.namespace,
      name: revision.metadata!.name!,
    });
    if (
      sameTemplate(taken, owner.spec?.template) &&
      taken.metadata?.ownerReferences?.some((r) => r.uid === owner.metadata?.uid)
    )
      return taken;
    await ctx.client.updateStatus({
      ...structuredClone(owner),
      status: { ...owner.status, collisionCount: (owner.status?.collisionCount ?? 0) + 1 },
    });
    throw new Error(
      `controller revision ${revision.metadata?.name} exists with another template; trying the next name`,
    );
  }
}

/** Deletes the oldest revisions beyond `limit` (default 10) that are not live (no pod runs them, not current or update). */
export async function truncateRevisionHistory(
  ctx: ControllerContext,
  revisions: ControllerRevision[],
  isLive: (r: ControllerRevision) => boolean,
  limit = 10,
): Promise<void> {
  const history = revisions.filter((r) => !isLive(r));
  for (const r of history.slice(0, Math.max(0, history.length - limit))) {
    await ctx.client
      .delete(ControllerRevisionKind, { namespace: r.metadata?.namespace, name: r.metadata!.name! })
      .catch(ignoreNotFound);
  }
}
