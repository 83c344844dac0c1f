// Applying a ManagedResource's objects to the target cluster (Gardener's managedresource reconciler, apply part):
// which objects are desired (namespace defaulting, duplicates, `mode: Ignore`), creating or updating each one with
// compare-before-writing, HPA-scaled replicas preserved, and releasing objects no longer managed.
import {
  isAlreadyExists,
  isConflict,
  isInvalid,
  isNotFound,
  Kinds,
  messageOf,
  NoKindMatchError,
} from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import { Annotation, isTruthy, Label, ModeIgnore } from '../../constants.js';
import type { ManagedResource } from '../../status.js';
import type { TargetAccess } from './target-access.js';
import { needsUpdate } from './compare.js';
import type { DecodedObject } from './decode.js';
import { groupOf, objectKey, refKey, type Equivalences, type ObjectIndex } from './equivalences.js';
import { desiredHash, relevantHash, type LastWrites } from './last-write.js';
import { injectLabels, merge } from './merge.js';
import { describeObject, mapLimit, sortReferences, type ObjectReference } from './object-refs.js';
import { sortForApply } from './order.js';

type Obj = Record<string, any>;

/** The field manager of every write to the target cluster. */
export const FIELD_MANAGER = 'gardener-resource-manager';
/**
 * Objects applied in parallel by default. Gardener applies all objects of a ManagedResource at once, bounded only by
 * the client's rate limit; 100 keeps a large ManagedResource's first apply short without an unbounded burst.
 */
export const DEFAULT_APPLY_CONCURRENCY = 100;

/** A decoded object to apply, with its reference and the reference recorded for it last time (if any). */
export interface DesiredObject extends DecodedObject {
  ref: ObjectReference;
  old?: ObjectReference;
}

/** What a ManagedResource asks for now. */
export interface ObjectPlan {
  /** Objects to create or update. */
  desired: DesiredObject[];
  /** Objects managed before and now marked `resources.gardener.cloud/mode: Ignore`: to be released. */
  orphaned: ObjectReference[];
  /** The new `status.resources`, sorted. */
  references: ObjectReference[];
  /** Duplicate objects, as messages. */
  errors: string[];
}

/**
 * Plans the objects of a ManagedResource from its decoded Secrets: namespaced kinds default to `default`,
 * cluster-scoped ones lose a namespace (unknown kinds, e.g. of a CRD applied in the same pass, are defaulted on a
 * best-effort basis); references carry the injected and managed-by labels; duplicates and ignored objects are left out.
 */
export async function planObjects(
  mr: ManagedResource,
  objects: readonly DecodedObject[],
  existing: ObjectIndex<ObjectReference>,
  target: Pick<TargetAccess, 'kindInfo'>,
  managedByLabelValue: string,
  log: Logger,
): Promise<ObjectPlan> {
  const desired: DesiredObject[] = [];
  const orphaned: ObjectReference[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const d of objects) {
    const obj = d.obj;
    try {
      const info = await target.kindInfo(obj.apiVersion, obj.kind);
      if (info.namespaced) obj.metadata.namespace ||= 'default';
      else delete obj.metadata.namespace;
    } catch (err) {
      if (!(err instanceof NoKindMatchError)) throw err;
      if (obj.kind !== 'Namespace' && !obj.metadata.namespace) obj.metadata.namespace = 'default';
    }
    const ref: ObjectReference = {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      name: obj.metadata.name,
      ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
      labels: { ...obj.metadata.labels, ...mr.spec?.injectLabels, [Label.ManagedBy]: managedByLabelValue },
      ...(obj.metadata.annotations && Object.keys(obj.metadata.annotations).length > 0
        ? { annotations: { ...obj.metadata.annotations } }
        : {}),
    };
    const key = refKey(ref);
    const old = existing.lookup(ref);
    if (seen.has(key)) {
      errors.push(`duplicate object ${describeObject(ref)} in secret '${d.secret}' key '${d.key}'`);
      continue;
    }
    seen.add(key);
    if (obj.metadata.annotations?.[Annotation.Mode] === ModeIgnore) {
      if (old) orphaned.push(ref);
      log.info({ object: describeObject(ref) }, 'Skipping object because it is marked to be ignored');
      continue;
    }
    desired.push({ ...d, ref, old });
  }
  return { desired, orphaned, references: sortReferences(desired.map((d) => d.ref)), errors };
}

/** What the applier needs. */
export interface ObjectApplierOptions {
  target: TargetAccess;
  /** Shared with the deleter: what each object looked like after our last write. */
  lastWrites: LastWrites;
  /** Write every object on every reconcile, even when nothing changed (Gardener's `alwaysUpdate`). */
  alwaysUpdate?: boolean;
  /** Objects applied in parallel (default `DEFAULT_APPLY_CONCURRENCY`). */
  applyConcurrency?: number;
}

/** How one apply pass writes its objects. */
export interface ApplyOptions {
  forceOverwriteLabels: boolean;
  forceOverwriteAnnotations: boolean;
}

/** Creates and updates the objects of ManagedResources in the target cluster. */
export class ObjectApplier {
  constructor(private readonly o: ObjectApplierOptions) {}

  /**
   * Applies the desired objects: CRDs and Namespaces first, then everything else, each batch in parallel. Returns the
   * error messages of the objects that could not be applied (empty when all were).
   */
  async applyObjects(
    desired: DesiredObject[],
    origin: string,
    labels: Record<string, string>,
    opts: ApplyOptions,
    equivalences: Equivalences,
    log: Logger,
  ): Promise<string[]> {
    if (desired.length === 0) return [];
    let scaled: Set<string>;
    try {
      scaled = await this.horizontallyScaled();
    } catch (err) {
      return [messageOf(err)];
    }
    const errors: string[] = [];
    const sorted = sortForApply(
      desired.map((d) => ({ ...d, apiVersion: d.obj.apiVersion as string, kind: d.obj.kind as string })),
    );
    const first = sorted.filter(
      (d) => d.kind === 'CustomResourceDefinition' || (d.kind === 'Namespace' && groupOf(d.apiVersion) === ''),
    );
    const rest = sorted.filter((d) => !first.includes(d));
    for (const batch of [first, rest]) {
      const results = await mapLimit(batch, this.o.applyConcurrency ?? DEFAULT_APPLY_CONCURRENCY, (d) =>
        this.applyOne(
          d,
          origin,
          labels,
          { ...opts, preserveReplicas: isScaled(d.ref, scaled, equivalences) },
          log,
        ).catch((err: unknown) => messageOf(err)),
      );
      for (const r of results) if (r) errors.push(r);
    }
    return errors;
  }

  /**
   * Removes the origin and description annotations from objects this ManagedResource no longer manages (still there,
   * still ours). Returns error messages.
   */
  async releaseOrphans(refs: ObjectReference[], origin: string, log: Logger): Promise<string[]> {
    const errors: string[] = [];
    for (const ref of refs) {
      this.o.lastWrites.forget(refKey(ref));
      try {
        const info = await this.o.target.kindInfo(ref.apiVersion!, ref.kind!);
        const obj = await this.o.target.getLive(info.kind, ref.namespace, ref.name!);
        if (!obj || obj.metadata?.annotations?.[Annotation.Origin] !== origin) continue;
        log.info({ resource: describeObject(ref) }, 'Releasing orphan resource');
        await this.o.target.cluster.api.patch(
          info.kind,
          { namespace: ref.namespace || undefined, name: ref.name! },
          {
            type: 'merge',
            patch: { metadata: { annotations: { [Annotation.Origin]: null, [Annotation.Description]: null } } },
          },
        );
      } catch (err) {
        if (err instanceof NoKindMatchError || isNotFound(err)) continue;
        errors.push(`error releasing object "${describeObject(ref)}": ${messageOf(err)}`);
      }
    }
    return errors;
  }

  /** Keys of the objects HPAs scale, under the GroupKind the HPA names. */
  private async horizontallyScaled(): Promise<Set<string>> {
    const out = new Set<string>();
    let hpas: Obj[];
    try {
      await this.o.target.watch(Kinds.HorizontalPodAutoscaler);
      hpas = (await this.o.target.cluster.cache.list(Kinds.HorizontalPodAutoscaler)).items as Obj[];
    } catch (err) {
      if (err instanceof NoKindMatchError || isNotFound(err)) return out;
      throw new Error(`failed to compute all HPA target ref object keys: ${messageOf(err)}`, { cause: err });
    }
    for (const hpa of hpas) {
      const t = hpa.spec?.scaleTargetRef;
      if (t?.kind && t.name) out.add(objectKey(groupOf(t.apiVersion), t.kind, hpa.metadata?.namespace, t.name));
    }
    return out;
  }

  /** Creates or updates one object; returns an error message, or undefined. */
  private async applyOne(
    d: DesiredObject,
    origin: string,
    labels: Record<string, string>,
    opts: ApplyOptions & { preserveReplicas: boolean },
    log: Logger,
  ): Promise<string | undefined> {
    const resource = describeObject(d.ref);
    const { target } = this.o;
    let info;
    try {
      info = await target.kindInfo(d.obj.apiVersion, d.obj.kind);
    } catch (err) {
      return `error during apply of object "${resource}": ${messageOf(err)}`;
    }
    const desiredObj: Obj = structuredClone(d.obj);
    const ignored = isTruthy(desiredObj.metadata?.annotations?.[Annotation.Ignore]);
    injectLabels(desiredObj, labels);
    const mergeOptions = {
      forceOverwriteLabels: opts.forceOverwriteLabels,
      existingLabels: d.old?.labels,
      forceOverwriteAnnotations: opts.forceOverwriteAnnotations,
      existingAnnotations: d.old?.annotations,
      preserveReplicas: opts.preserveReplicas,
    };
    const key = refKey(d.ref);
    // Everything the written object depends on (labels to remove only matter when present, which needsUpdate sees).
    const wanted = desiredHash({ origin, obj: desiredObj, ...opts });
    for (let attempt = 0; ; attempt++) {
      const current =
        attempt === 0
          ? await target.get(info.kind, desiredObj.metadata.namespace, desiredObj.metadata.name)
          : await target.getLive(info.kind, desiredObj.metadata.namespace, desiredObj.metadata.name);
      try {
        if (!current) {
          const created = merge(origin, desiredObj, {}, mergeOptions);
          delete created.metadata.resourceVersion;
          this.o.lastWrites.remember(
            key,
            wanted,
            await target.cluster.api.create(created, { fieldManager: FIELD_MANAGER }),
          );
          log.info({ resource }, 'Created resource because it was not existing before');
          return undefined;
        }
        // Objects with the ignore annotation are created once and left alone afterwards.
        if (ignored) return undefined;
        const merged = merge(origin, desiredObj, current, mergeOptions);
        if (!this.o.alwaysUpdate && !needsUpdate(merged, current)) {
          const verdict = this.o.lastWrites.check(key, wanted, current);
          if (verdict === 'unchanged') return undefined;
          // The cache may lag behind our own last write: judge a drift on the live object.
          if (verdict === 'drifted' && attempt === 0) continue;
          // Drifted, or nothing remembered (restart, new desired object): would a write change anything?
          if (!(await this.writeWouldChange(merged, current))) {
            log.debug({ resource }, 'A dry run changes nothing: the resource is as desired');
            this.o.lastWrites.remember(key, wanted, current);
            return undefined;
          }
        }
        this.o.lastWrites.remember(
          key,
          wanted,
          await target.cluster.api.update(merged, { fieldManager: FIELD_MANAGER }),
        );
        log.info({ resource }, 'Updated resource because its actual state differed from the desired state');
        return undefined;
      } catch (err) {
        // The cache may lag behind a write that just happened: read the live object and try once more.
        if ((isConflict(err) || (!current && isAlreadyExists(err))) && attempt < 2) continue;
        if (current && isInvalid(err) && deleteOnInvalidUpdate(desiredObj, err)) {
          await target.cluster.api
            .delete(info.kind, {
              namespace: desiredObj.metadata.namespace || undefined,
              name: desiredObj.metadata.name,
            })
            .catch((e: unknown) => {
              if (!isNotFound(e)) throw e;
            });
          return `deleted object "${resource}" because of 'invalid' update error, and 'delete-on-invalid-update' annotation on object or the resource is an immutable ConfigMap/Secret: ${messageOf(err)}`;
        }
        return `error during apply of object "${resource}": ${messageOf(err)}`;
      }
    }
  }

  /**
   * Asks the API server with a dry-run update. When the dry run itself is refused (e.g. by a webhook that does not
   * support dry runs), the answer is yes: the real write follows, as Gardener would always write.
   */
  private async writeWouldChange(merged: Obj, current: Obj): Promise<boolean> {
    try {
      const probe = await this.o.target.cluster.api.update(merged, { fieldManager: FIELD_MANAGER, dryRun: true });
      return relevantHash(probe) !== relevantHash(current);
    } catch (err) {
      if (isConflict(err)) throw err;
      return true;
    }
  }
}

/** Whether an HPA scales the object, under its own GroupKind or an equivalent one (e.g. extensions vs apps). */
function isScaled(ref: ObjectReference, scaled: ReadonlySet<string>, equivalences: Equivalences): boolean {
  return scaled.has(refKey(ref)) || equivalences.equivalentKeys(ref).some((k) => scaled.has(k));
}

/** An invalid update is answered by deleting the object when it asks for it, or when it is an immutable ConfigMap/Secret. */
function deleteOnInvalidUpdate(obj: Obj, err: unknown): boolean {
  const immutable =
    groupOf(obj.apiVersion) === '' &&
    (obj.kind === 'ConfigMap' || obj.kind === 'Secret') &&
    messageOf(err).includes('field is immutable when `immutable` is set');
  return isTruthy(obj.metadata?.annotations?.[Annotation.DeleteOnInvalidUpdate]) || immutable;
}
