// The ManagedResource reconciler: reads the objects from the referenced Secrets (source cluster), applies them to the
// target cluster, deletes objects no longer listed, and records `.status.resources` and the ResourcesApplied
// condition. Converged ManagedResources cause no write at all: every object is compared before it is written.
import {
  getOrInitCondition,
  isAlreadyExists,
  isConflict,
  isInvalid,
  ignoreNotFound, isNotFound,
  kind as kindOf,
  mergeConditions,
  NoKindMatchError,
  updatedCondition,
  type Client,
  type Kind,
  type Condition,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
  type Secret,
} from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import type { ClassFilter } from '../../class-filter.js';
import { Annotation, ConditionType, isTruthy, Label, ModeIgnore, Reason } from '../../constants.js';
import { StatusWriter, type ManagedResource } from '../../status.js';
import type { TargetObjects } from '../../target.js';
import { needsUpdate } from './compare.js';
import { DecodeCache, decodeSecrets, type DecodedObject } from './decode.js';
import { Equivalences, ObjectIndex, groupOf, objectKey, refKey } from './equivalences.js';
import { desiredHash, LastWrites, relevantHash } from './last-write.js';
import { injectLabels, merge } from './merge.js';
import { deletionPropagation, deletionWaves, sortForApply } from './order.js';
import { originFor } from './origin.js';
import { deleteStatefulSetPVCs } from './statefulset-pvcs.js';

type Obj = Record<string, any>;
type ObjectReference = NonNullable<NonNullable<ManagedResource['status']>['resources']>[number];

export const ManagedResourceKind: Kind<ManagedResource> = kindOf<ManagedResource>('resources.gardener.cloud/v1alpha1', 'ManagedResource');
export const HorizontalPodAutoscalerKind = kindOf('autoscaling/v2', 'HorizontalPodAutoscaler');

export interface ManagedResourceReconcilerOptions {
  source: Client;
  target: TargetObjects;
  classFilter: ClassFilter;
  clusterID: string;
  managedByLabelValue: string;
  syncPeriodMs: number;
  /** Write every object on every reconcile, even when nothing changed (Gardener's `alwaysUpdate`). */
  alwaysUpdate?: boolean;
  /** The garbage collector runs: ConfigMaps/Secrets labelled garbage-collectable are left to it. */
  garbageCollectorActivated?: boolean;
  requeueAfterOnDeletionPendingMs?: number;
  /**
   * Objects applied in parallel (default 100). Gardener applies all objects of a ManagedResource at once, bounded only
   * by the client's rate limit; 100 keeps a large ManagedResource's first apply short without an unbounded burst.
   */
  applyConcurrency?: number;
  status: StatusWriter;
}

const FIELD_MANAGER = 'gardener-resource-manager';
export const DEFAULT_APPLY_CONCURRENCY = 100;
/** `<apiVersion>/<Kind>/<namespace>/<name>`, how objects are named in messages. */
export function describeObject(o: { apiVersion?: string; kind?: string; namespace?: string; name?: string }): string {
  return `${o.apiVersion}/${o.kind}/${o.namespace ?? ''}/${o.name ?? ''}`.replace(/\/\//g, '/');
}

function sortReferences(refs: ObjectReference[]): ObjectReference[] {
  const key = (r: ObjectReference) => `${r.apiVersion}\u0000${r.kind}\u0000${r.namespace ?? ''}\u0000${r.name}`;
  return refs.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

function sameReferences(a: readonly ObjectReference[] | undefined, b: readonly ObjectReference[]): boolean {
  const norm = (r: ObjectReference) =>
    JSON.stringify({ apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace || undefined, name: r.name, labels: sortedMap(r.labels), annotations: sortedMap(r.annotations) });
  return (a ?? []).length === b.length && (a ?? []).every((r, i) => norm(r) === norm(b[i]));
}

function sortedMap(m: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!m || Object.keys(m).length === 0) return undefined;
  return Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : 1)));
}

const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

interface DesiredObject extends DecodedObject {
  ref: ObjectReference;
  old?: ObjectReference;
}

export class ManagedResourceReconciler {
  /** Parsed Secret contents by Secret uid/resourceVersion: resyncs of unchanged Secrets parse nothing. */
  private readonly decodeCache = new DecodeCache();
  /** What each object looked like after our last write: reveals manual changes compare-before-writing cannot see. */
  private readonly lastWrites = new LastWrites();

  constructor(private readonly o: ManagedResourceReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const log = ctx.log;
    const mr: ManagedResource | undefined = await this.o.source.get(ManagedResourceKind, { namespace: req.namespace, name: req.name }).catch(ignoreNotFound);
    if (!mr) return;
    const deleting = !!mr.metadata?.deletionTimestamp;
    if (isTruthy(mr.metadata?.annotations?.[Annotation.Ignore]) && !deleting) {
      log.info('Skipping reconciliation since ManagedResource is ignored');
      await this.updateConditionsForIgnored(mr);
      return;
    }
    const { classFilter } = this.o;
    if (deleting || classFilter.isTransferringResponsibility(mr)) {
      if (!(mr.metadata?.finalizers ?? []).includes(classFilter.finalizer)) return;
      if (!deleting) log.info('Class of ManagedResource changed. Cleaning resources as the responsibility changed');
      return this.delete(mr, log);
    }
    if (!classFilter.responsible(mr)) return;
    if (classFilter.isWaitForCleanupRequired(mr)) {
      log.info('Waiting for previous handler to clean resources created by ManagedResource');
      return { requeueAfter: this.o.requeueAfterOnDeletionPendingMs ?? 5000 };
    }
    return this.apply(mr, log);
  }

  private async apply(mr: ManagedResource, log: Logger): Promise<ReconcileResult> {
    const { source, classFilter } = this.o;
    const namespace = mr.metadata!.namespace!;
    if (!(mr.metadata?.finalizers ?? []).includes(classFilter.finalizer)) {
      log.info('Adding finalizer');
      mr = await source.patch(ManagedResourceKind, { namespace, name: mr.metadata!.name! }, {
        type: 'merge',
        patch: { metadata: { finalizers: [...(mr.metadata?.finalizers ?? []), classFilter.finalizer], resourceVersion: mr.metadata?.resourceVersion } },
      });
    }

    let applied = getOrInitCondition(mr.status?.conditions as Condition[] | undefined, ConditionType.ResourcesApplied);

    // Read the Secrets.
    const secrets: Secret[] = [];
    for (const ref of mr.spec?.secretRefs ?? []) {
      try {
        secrets.push(await source.get(kindOf<Secret>('v1', 'Secret'), { namespace, name: ref.name ?? '' }));
      } catch (err) {
        applied = updatedCondition(applied, 'False', Reason.CannotReadSecret, errorMessage(err));
        await this.o.status.update(mr, { conditions: this.merged(mr, applied) });
        throw new Error(`could not read secret '${ref.name}': ${errorMessage(err)}`);
      }
    }
    const decoded = decodeSecrets(secrets, this.decodeCache);
    for (const e of decoded.errors) log.error({ err: e }, 'Could not decode resource');

    const forceOverwriteLabels = mr.spec?.forceOverwriteLabels ?? false;
    const forceOverwriteAnnotations = mr.spec?.forceOverwriteAnnotations ?? false;
    const equivalences = new Equivalences(mr.spec?.equivalences);
    const existing = new ObjectIndex(mr.status?.resources ?? [], equivalences);
    const desired: DesiredObject[] = [];
    const orphaned: ObjectReference[] = [];
    const seen = new Set<string>();
    for (const d of decoded.objects) {
      const obj = d.obj;
      // Namespaced kinds default to `default`, cluster-scoped ones lose a namespace; unknown kinds (e.g. of a CRD
      // applied in the same pass) are defaulted on a best-effort basis.
      try {
        const info = await this.o.target.kindInfo(obj.apiVersion, obj.kind);
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
        labels: { ...obj.metadata.labels, ...mr.spec?.injectLabels, [Label.ManagedBy]: this.o.managedByLabelValue },
        ...(obj.metadata.annotations && Object.keys(obj.metadata.annotations).length > 0 ? { annotations: { ...obj.metadata.annotations } } : {}),
      };
      const key = refKey(ref);
      const old = existing.lookup(ref);
      if (seen.has(key)) {
        decoded.errors.push(`duplicate object ${describeObject(ref)} in secret '${d.secret}' key '${d.key}'`);
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
    const references = sortReferences(desired.map((d) => d.ref));

    // A new set of objects or new content: health checks have to run again.
    if (!sameReferences(mr.status?.resources, references) || mr.status?.secretsDataChecksum !== decoded.checksum) {
      const healthy = updatedCondition(
        getOrInitCondition(mr.status?.conditions as Condition[] | undefined, ConditionType.ResourcesHealthy),
        'Unknown',
        Reason.ChecksPending,
        'The health checks have not yet been executed for the current set of resources.',
      );
      const progressing = updatedCondition(
        getOrInitCondition(mr.status?.conditions as Condition[] | undefined, ConditionType.ResourcesProgressing),
        'Unknown',
        Reason.ChecksPending,
        'Checks have not yet been executed for the current set of resources.',
      );
      const keep = ([Reason.ApplyFailed, Reason.DeletionFailed, Reason.DeletionPending] as string[]).includes(applied.reason);
      applied = updatedCondition(applied, 'Progressing', keep ? applied.reason : Reason.ApplyProgressing, keep ? applied.message : 'The resources are currently being reconciled.');
      mr = await this.o.status.update(mr, { conditions: this.merged(mr, healthy, progressing, applied) });
    }

    // Delete what is no longer listed, neither under its own GroupKind nor under an equivalent one.
    const stale = existing.notFound();
    const deletion = await this.deleteObjects(mr, stale, log);
    if (deletion.error) {
      applied = updatedCondition(applied, deletion.pending ? 'Progressing' : 'False', deletion.pending ? Reason.DeletionPending : Reason.DeletionFailed, deletion.error);
      await this.o.status.update(mr, { conditions: this.merged(mr, applied) });
      if (deletion.pending) return { requeueAfter: this.o.requeueAfterOnDeletionPendingMs ?? 5000 };
      throw new Error(deletion.error);
    }

    const origin = originFor(this.o.clusterID, namespace, mr.metadata!.name!);
    const releaseErrors = await this.releaseOrphans(orphaned, origin, log);
    if (releaseErrors.length > 0) {
      const message = `Could not release all orphaned resources:\n${releaseErrors.map((e) => `* ${e}`).join('\n')}`;
      applied = updatedCondition(applied, 'False', Reason.ReleaseOfOrphanedResourcesFailed, message);
      await this.o.status.update(mr, { conditions: this.merged(mr, applied) });
      throw new Error(message);
    }

    const injected = { ...mr.spec?.injectLabels, [Label.ManagedBy]: this.o.managedByLabelValue };
    const applyErrors = await this.applyObjects(desired, origin, injected, { forceOverwriteLabels, forceOverwriteAnnotations }, equivalences, log);
    if (applyErrors.length > 0) {
      const message = `Could not apply all new resources:\n${applyErrors.map((e) => `* ${e}`).join('\n')}`;
      applied = updatedCondition(applied, 'False', Reason.ApplyFailed, message);
      await this.o.status.update(mr, { conditions: this.merged(mr, applied) });
      throw new Error(message);
    }

    if (decoded.errors.length > 0) {
      applied = updatedCondition(applied, 'False', Reason.DecodingFailed, `Could not decode all new resources:\n${decoded.errors.map((e) => `* ${e}`).join('\n')}`);
    } else {
      applied = updatedCondition(applied, 'True', Reason.ApplySucceeded, 'All resources are applied.');
    }
    await this.o.status.update(mr, {
      conditions: this.merged(mr, applied),
      resources: references,
      secretsDataChecksum: decoded.checksum,
      observedGeneration: mr.metadata?.generation,
    });
    log.debug('Finished to reconcile ManagedResource');
    return { requeueAfter: this.o.syncPeriodMs };
  }

  private merged(mr: ManagedResource, ...conditions: Condition[]): NonNullable<ManagedResource['status']>['conditions'] {
    return mergeConditions(mr.status?.conditions as Condition[] | undefined, ...conditions);
  }

  /** Keys of the objects HPAs scale, under the GroupKind the HPA names. */
  private async horizontallyScaled(): Promise<Set<string>> {
    const out = new Set<string>();
    let hpas: Obj[];
    try {
      await this.o.target.watch(HorizontalPodAutoscalerKind);
      hpas = (await this.o.target.cluster.cache.list(HorizontalPodAutoscalerKind)).items as Obj[];
    } catch (err) {
      if (err instanceof NoKindMatchError || isNotFound(err)) return out;
      throw new Error(`failed to compute all HPA target ref object keys: ${errorMessage(err)}`);
    }
    for (const hpa of hpas) {
      const t = hpa.spec?.scaleTargetRef;
      if (t?.kind && t.name) out.add(objectKey(groupOf(t.apiVersion), t.kind, hpa.metadata?.namespace, t.name));
    }
    return out;
  }

  private async applyObjects(
    desired: DesiredObject[],
    origin: string,
    labels: Record<string, string>,
    opts: { forceOverwriteLabels: boolean; forceOverwriteAnnotations: boolean },
    equivalences: Equivalences,
    log: Logger,
  ): Promise<string[]> {
    if (desired.length === 0) return [];
    let scaled: Set<string>;
    try {
      scaled = await this.horizontallyScaled();
    } catch (err) {
      return [errorMessage(err)];
    }
    const errors: string[] = [];
    const sorted = sortForApply(desired.map((d) => ({ ...d, apiVersion: d.obj.apiVersion as string, kind: d.obj.kind as string })));
    // CRDs and Namespaces first, then everything else; within a batch in parallel.
    const first = sorted.filter((d) => d.kind === 'CustomResourceDefinition' || (d.kind === 'Namespace' && groupOf(d.apiVersion) === ''));
    const rest = sorted.filter((d) => !first.includes(d));
    for (const batch of [first, rest]) {
      const results = await mapLimit(batch, this.o.applyConcurrency ?? DEFAULT_APPLY_CONCURRENCY, (d) =>
        this.applyOne(d, origin, labels, { ...opts, preserveReplicas: isScaled(d.ref, scaled, equivalences) }, log).catch((err: unknown) => errorMessage(err)),
      );
      for (const r of results) if (r) errors.push(r);
    }
    return errors;
  }

  /** Creates or updates one object; returns an error message, or undefined. */
  private async applyOne(
    d: DesiredObject,
    origin: string,
    labels: Record<string, string>,
    opts: { forceOverwriteLabels: boolean; forceOverwriteAnnotations: boolean; preserveReplicas: boolean },
    log: Logger,
  ): Promise<string | undefined> {
    const resource = describeObject(d.ref);
    const { target } = this.o;
    let info;
    try {
      info = await target.kindInfo(d.obj.apiVersion, d.obj.kind);
    } catch (err) {
      return `error during apply of object "${resource}": ${errorMessage(err)}`;
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
          this.lastWrites.remember(key, wanted, await target.cluster.api.create(created, { fieldManager: FIELD_MANAGER }));
          log.info({ resource }, 'Created resource because it was not existing before');
          return undefined;
        }
        // Objects with the ignore annotation are created once and left alone afterwards.
        if (ignored) return undefined;
        const merged = merge(origin, desiredObj, current, mergeOptions);
        if (!this.o.alwaysUpdate && !needsUpdate(merged, current)) {
          const verdict = this.lastWrites.check(key, wanted, current);
          if (verdict === 'unchanged') return undefined;
          // The cache may lag behind our own last write: judge a drift on the live object.
          if (verdict === 'drifted' && attempt === 0) continue;
          // Drifted, or nothing remembered (restart, new desired object): would a write change anything?
          if (!(await this.writeWouldChange(merged, current))) {
            log.debug({ resource }, 'A dry run changes nothing: the resource is as desired');
            this.lastWrites.remember(key, wanted, current);
            return undefined;
          }
        }
        this.lastWrites.remember(key, wanted, await target.cluster.api.update(merged, { fieldManager: FIELD_MANAGER }));
        log.info({ resource }, 'Updated resource because its actual state differed from the desired state');
        return undefined;
      } catch (err) {
        // The cache may lag behind a write that just happened: read the live object and try once more.
        if ((isConflict(err) || (!current && isAlreadyExists(err))) && attempt < 2) continue;
        if (current && isInvalid(err) && deleteOnInvalidUpdate(desiredObj, err)) {
          await target.cluster.api.delete(info.kind, { namespace: desiredObj.metadata.namespace || undefined, name: desiredObj.metadata.name }).catch((e: unknown) => {
            if (!isNotFound(e)) throw e;
          });
          return `deleted object "${resource}" because of 'invalid' update error, and 'delete-on-invalid-update' annotation on object or the resource is an immutable ConfigMap/Secret: ${errorMessage(err)}`;
        }
        return `error during apply of object "${resource}": ${errorMessage(err)}`;
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

  private async releaseOrphans(refs: ObjectReference[], origin: string, log: Logger): Promise<string[]> {
    const errors: string[] = [];
    for (const ref of refs) {
      this.lastWrites.forget(refKey(ref));
      try {
        const info = await this.o.target.kindInfo(ref.apiVersion!, ref.kind!);
        const obj = await this.o.target.getLive(info.kind, ref.namespace, ref.name!);
        if (!obj || obj.metadata?.annotations?.[Annotation.Origin] !== origin) continue;
        log.info({ resource: describeObject(ref) }, 'Releasing orphan resource');
        await this.o.target.cluster.api.patch(info.kind, { namespace: ref.namespace || undefined, name: ref.name! }, {
          type: 'merge',
          patch: { metadata: { annotations: { [Annotation.Origin]: null, [Annotation.Description]: null } } },
        });
      } catch (err) {
        if (err instanceof NoKindMatchError || isNotFound(err)) continue;
        errors.push(`error releasing object "${describeObject(ref)}": ${errorMessage(err)}`);
      }
    }
    return errors;
  }

  /**
   * Deletes objects in waves (everything else, then Namespaces, then CRDs); a wave starts once the previous one is
   * gone. Returns an error message, with `pending` when deletion just has not finished yet.
   */
  async deleteObjects(mr: ManagedResource, refs: readonly ObjectReference[], log: Logger): Promise<{ error?: string; pending?: boolean }> {
    const deletePVCs = mr.spec?.deletePersistentVolumeClaims ?? false;
    for (const wave of deletionWaves(refs)) {
      const outcomes = await mapLimit(wave, 20, (ref) => this.deleteOne(ref, deletePVCs, log));
      const pending = outcomes.filter((o) => o.pending);
      const failed = outcomes.filter((o) => o.error && !o.pending);
      if (pending.length > 0 || failed.length > 0) {
        const lines = [
          ...pending.map((o) => `deletion of old resource "${o.resource}" is still pending${o.error ? `: ${o.error}` : ''}`),
          ...failed.map((o) => `error during deletion of old resource "${o.resource}": ${o.error}`),
        ];
        return { pending: pending.length > 0, error: `Could not clean all old resources:\n${lines.map((l) => `* ${l}`).join('\n')}` };
      }
    }
    return {};
  }

  private async deleteOne(ref: ObjectReference, deletePVCs: boolean, log: Logger): Promise<{ resource: string; pending?: boolean; error?: string }> {
    const resource = describeObject(ref);
    const { target } = this.o;
    this.lastWrites.forget(refKey(ref));
    let info;
    try {
      info = await target.kindInfo(ref.apiVersion!, ref.kind!);
    } catch (err) {
      if (err instanceof NoKindMatchError) return { resource }; // the kind is gone, so is the object
      return { resource, pending: true, error: errorMessage(err) };
    }
    const key = { namespace: info.namespaced ? ref.namespace || undefined : undefined, name: ref.name! };
    try {
      const obj = await target.getLive(info.kind, key.namespace, key.name);
      if (!obj) return { resource };
      if (isTruthy(obj.metadata?.annotations?.[Annotation.KeepObject])) {
        log.info({ resource }, `Keeping object in the system as ${Annotation.KeepObject} annotation found`);
        return { resource };
      }
      if (this.o.garbageCollectorActivated && groupOf(ref.apiVersion) === '' && (ref.kind === 'ConfigMap' || ref.kind === 'Secret') && isTruthy(obj.metadata?.labels?.[Label.GarbageCollectable])) {
        log.info({ resource }, "Keeping object in the system as it is marked as 'garbage-collectable'");
        return { resource };
      }
      if (deletePVCs) {
        try {
          await deleteStatefulSetPVCs(target.cluster.api, obj);
        } catch (err) {
          log.error({ err, resource }, 'Error during cleanup');
          return { resource, pending: true, error: errorMessage(err) };
        }
      }
      if (!obj.metadata?.deletionTimestamp) {
        log.info({ resource }, 'Deleting');
        const propagationPolicy = deletionPropagation(ref);
        await target.cluster.api.delete(info.kind, key, propagationPolicy ? { propagationPolicy } : undefined);
      }
      // Gone at once (no finalizers) or still terminating?
      const after = await target.getLive(info.kind, key.namespace, key.name);
      return after ? { resource, pending: true } : { resource };
    } catch (err) {
      if (isNotFound(err)) return { resource };
      return { resource, pending: true, error: errorMessage(err) };
    }
  }

  private async delete(mr: ManagedResource, log: Logger): Promise<ReconcileResult | void> {
    log.info('Started deleting resources created by ManagedResource');
    const message = 'The resources are currently being deleted.';
    const conds = mr.status?.conditions as Condition[] | undefined;
    const healthy = updatedCondition(getOrInitCondition(conds, ConditionType.ResourcesHealthy), 'False', Reason.DeletionPending, message);
    const progressing = updatedCondition(getOrInitCondition(conds, ConditionType.ResourcesProgressing), 'True', Reason.DeletionPending, message);
    mr = await this.o.status.update(mr, { conditions: this.merged(mr, healthy, progressing) });

    if (!mr.spec?.keepObjects) {
      let applied = getOrInitCondition(mr.status?.conditions as Condition[] | undefined, ConditionType.ResourcesApplied);
      const keepMessage = ([Reason.DeletionPending, Reason.DeletionFailed] as string[]).includes(applied.reason);
      applied = updatedCondition(applied, 'Progressing', Reason.DeletionPending, keepMessage ? applied.message : message);
      mr = await this.o.status.update(mr, { conditions: this.merged(mr, applied) });
      const deletion = await this.deleteObjects(mr, mr.status?.resources ?? [], log);
      if (deletion.error) {
        applied = updatedCondition(applied, deletion.pending ? 'Progressing' : 'False', deletion.pending ? Reason.DeletionPending : Reason.DeletionFailed, deletion.error);
        await this.o.status.update(mr, { conditions: this.merged(mr, applied) });
        if (deletion.pending) return { requeueAfter: this.o.requeueAfterOnDeletionPendingMs ?? 5000 };
        throw new Error(deletion.error);
      }
    } else {
      log.info('Skipping deletion of objects as ManagedResource is marked to keep objects');
      for (const ref of mr.status?.resources ?? []) this.lastWrites.forget(refKey(ref));
    }
    log.info('All resources have been deleted, removing finalizer');
    const finalizers = (mr.metadata?.finalizers ?? []).filter((f) => f !== this.o.classFilter.finalizer);
    try {
      await this.o.source.patch(ManagedResourceKind, { namespace: mr.metadata!.namespace!, name: mr.metadata!.name! }, {
        type: 'merge',
        patch: { metadata: { finalizers: finalizers.length > 0 ? finalizers : null, resourceVersion: mr.metadata?.resourceVersion } },
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  private async updateConditionsForIgnored(mr: ManagedResource): Promise<void> {
    const message = 'ManagedResource is marked to be ignored.';
    const conds = mr.status?.conditions as Condition[] | undefined;
    await this.o.status.update(mr, {
      conditions: this.merged(
        mr,
        updatedCondition(getOrInitCondition(conds, ConditionType.ResourcesApplied), 'True', Reason.ManagedResourceIgnored, message),
        updatedCondition(getOrInitCondition(conds, ConditionType.ResourcesHealthy), 'True', Reason.ManagedResourceIgnored, message),
        updatedCondition(getOrInitCondition(conds, ConditionType.ResourcesProgressing), 'False', Reason.ManagedResourceIgnored, message),
      ),
    });
  }
}

/** Whether an HPA scales the object, under its own GroupKind or an equivalent one (e.g. extensions vs apps). */
function isScaled(ref: ObjectReference, scaled: ReadonlySet<string>, equivalences: Equivalences): boolean {
  return scaled.has(refKey(ref)) || equivalences.equivalentKeys(ref).some((k) => scaled.has(k));
}

function deleteOnInvalidUpdate(obj: Obj, err: unknown): boolean {
  const immutable =
    groupOf(obj.apiVersion) === '' &&
    (obj.kind === 'ConfigMap' || obj.kind === 'Secret') &&
    errorMessage(err).includes('field is immutable when `immutable` is set');
  return isTruthy(obj.metadata?.annotations?.[Annotation.DeleteOnInvalidUpdate]) || immutable;
}
