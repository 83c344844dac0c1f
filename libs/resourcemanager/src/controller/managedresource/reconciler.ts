// The ManagedResource reconciler (Gardener's pkg/resourcemanager/controller/managedresource): Get → not found: done →
// ignored: conditions only → deleting or handed to another class: delete branch (delete.ts) → apply branch: read the
// referenced Secrets (source cluster), apply their objects to the target cluster (apply.ts), delete objects no longer
// listed, and record `.status.resources` and the ResourcesApplied condition. Converged ManagedResources cause no write.
import {
  addFinalizer,
  getOrInitCondition,
  hasFinalizer,
  ignoreNotFound,
  isBeingDeleted,
  Kinds,
  mergeConditions,
  removeFinalizer,
  updatedCondition,
  wrapError,
  type Client,
  type Condition,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
  type Secret,
} from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import type { ClassFilter } from '../../class-filter.js';
import { Annotation, ConditionType, isTruthy, Label, Reason } from '../../constants.js';
import type { ManagedResource, StatusWriter } from '../../status.js';
import { ObjectApplier, planObjects } from './apply.js';
import { DecodeCache, decodeSecrets } from './decode.js';
import { ObjectDeleter, type DeletionOutcome } from './delete.js';
import { Equivalences, ObjectIndex } from './equivalences.js';
import { ManagedResourceKind } from './kind.js';
import { LastWrites } from './last-write.js';
import { sameReferences } from './object-refs.js';
import type { TargetAccess } from './target-access.js';
import { originFor } from './origin.js';

export { DEFAULT_APPLY_CONCURRENCY } from './apply.js';
export { describeObject } from './object-refs.js';
export { ManagedResourceKind } from './kind.js';

/** What the ManagedResource reconciler needs. */
export interface ManagedResourceReconcilerOptions {
  source: Client;
  /** The target cluster (`TargetObjects`). */
  target: TargetAccess;
  classFilter: ClassFilter;
  clusterID: string;
  managedByLabelValue: string;
  syncPeriodMs: number;
  /** Write every object on every reconcile, even when nothing changed (Gardener's `alwaysUpdate`). */
  alwaysUpdate?: boolean;
  /** The garbage collector runs: ConfigMaps/Secrets labelled garbage-collectable are left to it. */
  garbageCollectorActivated?: boolean;
  requeueAfterOnDeletionPendingMs?: number;
  /** Objects applied in parallel (default `DEFAULT_APPLY_CONCURRENCY`). */
  applyConcurrency?: number;
  status: StatusWriter;
}

const DEFAULT_REQUEUE_AFTER_DELETION_PENDING_MS = 5000;

/** Reconciles ManagedResources of its class. */
export class ManagedResourceReconciler {
  /** Parsed Secret contents by Secret uid/resourceVersion: resyncs of unchanged Secrets parse nothing. */
  private readonly decodeCache = new DecodeCache();
  private readonly applier: ObjectApplier;
  private readonly deleter: ObjectDeleter;

  constructor(private readonly o: ManagedResourceReconcilerOptions) {
    /** What each object looked like after our last write: reveals manual changes compare-before-writing cannot see. */
    const lastWrites = new LastWrites();
    this.applier = new ObjectApplier({
      target: o.target,
      lastWrites,
      alwaysUpdate: o.alwaysUpdate,
      applyConcurrency: o.applyConcurrency,
    });
    this.deleter = new ObjectDeleter({
      target: o.target,
      lastWrites,
      garbageCollectorActivated: o.garbageCollectorActivated,
    });
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const log = ctx.log;
    const mr = await this.o.source
      .get(ManagedResourceKind, { namespace: req.namespace, name: req.name })
      .catch(ignoreNotFound);
    if (!mr) return;
    const deleting = isBeingDeleted(mr);
    if (isTruthy(mr.metadata?.annotations?.[Annotation.Ignore]) && !deleting) {
      log.info('Skipping reconciliation since ManagedResource is ignored');
      await this.updateConditionsForIgnored(mr);
      return;
    }
    const { classFilter } = this.o;
    if (deleting || classFilter.isTransferringResponsibility(mr)) {
      if (!hasFinalizer(mr, classFilter.finalizer)) return;
      if (!deleting) log.info('Class of ManagedResource changed. Cleaning resources as the responsibility changed');
      return this.delete(mr, log);
    }
    if (!classFilter.responsible(mr)) return;
    if (classFilter.isWaitForCleanupRequired(mr)) {
      log.info('Waiting for previous handler to clean resources created by ManagedResource');
      return { requeueAfter: this.requeueAfterDeletionPending };
    }
    return this.apply(mr, log);
  }

  private get requeueAfterDeletionPending(): number {
    return this.o.requeueAfterOnDeletionPendingMs ?? DEFAULT_REQUEUE_AFTER_DELETION_PENDING_MS;
  }

  private async apply(mr: ManagedResource, log: Logger): Promise<ReconcileResult> {
    const { source, classFilter } = this.o;
    const namespace = mr.metadata!.namespace!;
    if (!hasFinalizer(mr, classFilter.finalizer)) {
      log.info('Adding finalizer');
      mr = await addFinalizer(source, withKind(mr), classFilter.finalizer);
    }

    let applied = getOrInitCondition(conditionsOf(mr), ConditionType.ResourcesApplied);

    // Read the Secrets.
    const secrets: Secret[] = [];
    for (const ref of mr.spec?.secretRefs ?? []) {
      try {
        secrets.push(await source.get(Kinds.Secret, { namespace, name: ref.name ?? '' }));
      } catch (err) {
        applied = updatedCondition(
          applied,
          'False',
          Reason.CannotReadSecret,
          err instanceof Error ? err.message : String(err),
        );
        await this.o.status.update(mr, { conditions: this.merged(mr, applied) });
        throw wrapError(err, `could not read secret '${ref.name}'`);
      }
    }
    const decoded = decodeSecrets(secrets, this.decodeCache);
    for (const e of decoded.errors) log.error({ err: e }, 'Could not decode resource');

    const equivalences = new Equivalences(mr.spec?.equivalences);
    const existing = new ObjectIndex(mr.status?.resources ?? [], equivalences);
    const plan = await planObjects(mr, decoded.objects, existing, this.o.target, this.o.managedByLabelValue, log);
    const decodeErrors = [...decoded.errors, ...plan.errors];

    // A new set of objects or new content: health checks have to run again.
    if (!sameReferences(mr.status?.resources, plan.references) || mr.status?.secretsDataChecksum !== decoded.checksum) {
      const healthy = updatedCondition(
        getOrInitCondition(conditionsOf(mr), ConditionType.ResourcesHealthy),
        'Unknown',
        Reason.ChecksPending,
        'The health checks have not yet been executed for the current set of resources.',
      );
      const progressing = updatedCondition(
        getOrInitCondition(conditionsOf(mr), ConditionType.ResourcesProgressing),
        'Unknown',
        Reason.ChecksPending,
        'Checks have not yet been executed for the current set of resources.',
      );
      const keep = ([Reason.ApplyFailed, Reason.DeletionFailed, Reason.DeletionPending] as string[]).includes(
        applied.reason,
      );
      applied = updatedCondition(
        applied,
        'Progressing',
        keep ? applied.reason : Reason.ApplyProgressing,
        keep ? applied.message : 'The resources are currently being reconciled.',
      );
      mr = await this.o.status.update(mr, { conditions: this.merged(mr, healthy, progressing, applied) });
    }

    // Delete what is no longer listed, neither under its own GroupKind nor under an equivalent one.
    const deletion = await this.deleter.deleteObjects(mr, existing.notFound(), log);
    if (deletion.error) return this.deletionUnfinished(mr, applied, deletion);

    const origin = originFor(this.o.clusterID, namespace, mr.metadata!.name!);
    const releaseErrors = await this.applier.releaseOrphans(plan.orphaned, origin, log);
    if (releaseErrors.length > 0) {
      const message = `Could not release all orphaned resources:\n${bullets(releaseErrors)}`;
      applied = updatedCondition(applied, 'False', Reason.ReleaseOfOrphanedResourcesFailed, message);
      await this.o.status.update(mr, { conditions: this.merged(mr, applied) });
      throw new Error(message);
    }

    const injected = { ...mr.spec?.injectLabels, [Label.ManagedBy]: this.o.managedByLabelValue };
    const applyOptions = {
      forceOverwriteLabels: mr.spec?.forceOverwriteLabels ?? false,
      forceOverwriteAnnotations: mr.spec?.forceOverwriteAnnotations ?? false,
    };
    const applyErrors = await this.applier.applyObjects(
      plan.desired,
      origin,
      injected,
      applyOptions,
      equivalences,
      log,
    );
    if (applyErrors.length > 0) {
      const message = `Could not apply all new resources:\n${bullets(applyErrors)}`;
      applied = updatedCondition(applied, 'False', Reason.ApplyFailed, message);
      await this.o.status.update(mr, { conditions: this.merged(mr, applied) });
      throw new Error(message);
    }

    applied =
      decodeErrors.length > 0
        ? updatedCondition(
            applied,
            'False',
            Reason.DecodingFailed,
            `Could not decode all new resources:\n${bullets(decodeErrors)}`,
          )
        : updatedCondition(applied, 'True', Reason.ApplySucceeded, 'All resources are applied.');
    await this.o.status.update(mr, {
      conditions: this.merged(mr, applied),
      resources: plan.references,
      secretsDataChecksum: decoded.checksum,
      observedGeneration: mr.metadata?.generation,
    });
    log.debug('Finished to reconcile ManagedResource');
    return { requeueAfter: this.o.syncPeriodMs };
  }

  private async delete(mr: ManagedResource, log: Logger): Promise<ReconcileResult | void> {
    log.info('Started deleting resources created by ManagedResource');
    const message = 'The resources are currently being deleted.';
    const healthy = updatedCondition(
      getOrInitCondition(conditionsOf(mr), ConditionType.ResourcesHealthy),
      'False',
      Reason.DeletionPending,
      message,
    );
    const progressing = updatedCondition(
      getOrInitCondition(conditionsOf(mr), ConditionType.ResourcesProgressing),
      'True',
      Reason.DeletionPending,
      message,
    );
    mr = await this.o.status.update(mr, { conditions: this.merged(mr, healthy, progressing) });

    if (!mr.spec?.keepObjects) {
      let applied = getOrInitCondition(conditionsOf(mr), ConditionType.ResourcesApplied);
      const keepMessage = ([Reason.DeletionPending, Reason.DeletionFailed] as string[]).includes(applied.reason);
      applied = updatedCondition(
        applied,
        'Progressing',
        Reason.DeletionPending,
        keepMessage ? applied.message : message,
      );
      mr = await this.o.status.update(mr, { conditions: this.merged(mr, applied) });
      const deletion = await this.deleter.deleteObjects(mr, mr.status?.resources ?? [], log);
      if (deletion.error) return this.deletionUnfinished(mr, applied, deletion);
    } else {
      log.info('Skipping deletion of objects as ManagedResource is marked to keep objects');
      this.deleter.forget(mr.status?.resources ?? []);
    }
    log.info('All resources have been deleted, removing finalizer');
    await removeFinalizer(this.o.source, withKind(mr), this.o.classFilter.finalizer);
  }

  /**
   * Deletion is not finished: ResourcesApplied says why (Progressing/DeletionPending while objects terminate,
   * False/DeletionFailed otherwise); pending → poll again, failed → throw for back-off.
   */
  private async deletionUnfinished(
    mr: ManagedResource,
    applied: Condition,
    deletion: DeletionOutcome,
  ): Promise<ReconcileResult> {
    const message = deletion.error ?? '';
    const condition = deletion.pending
      ? updatedCondition(applied, 'Progressing', Reason.DeletionPending, message)
      : updatedCondition(applied, 'False', Reason.DeletionFailed, message);
    await this.o.status.update(mr, { conditions: this.merged(mr, condition) });
    if (deletion.pending) return { requeueAfter: this.requeueAfterDeletionPending };
    throw new Error(message);
  }

  private merged(
    mr: ManagedResource,
    ...conditions: Condition[]
  ): NonNullable<ManagedResource['status']>['conditions'] {
    return mergeConditions(conditionsOf(mr), ...conditions);
  }

  private async updateConditionsForIgnored(mr: ManagedResource): Promise<void> {
    const message = 'ManagedResource is marked to be ignored.';
    const conds = conditionsOf(mr);
    await this.o.status.update(mr, {
      conditions: this.merged(
        mr,
        updatedCondition(
          getOrInitCondition(conds, ConditionType.ResourcesApplied),
          'True',
          Reason.ManagedResourceIgnored,
          message,
        ),
        updatedCondition(
          getOrInitCondition(conds, ConditionType.ResourcesHealthy),
          'True',
          Reason.ManagedResourceIgnored,
          message,
        ),
        updatedCondition(
          getOrInitCondition(conds, ConditionType.ResourcesProgressing),
          'False',
          Reason.ManagedResourceIgnored,
          message,
        ),
      ),
    });
  }
}

const conditionsOf = (mr: ManagedResource) => mr.status?.conditions as Condition[] | undefined;
const bullets = (lines: readonly string[]) => lines.map((e) => `* ${e}`).join('\n');

/** The ManagedResource with apiVersion/kind set (objects from a list or a cache may lack them). */
function withKind(mr: ManagedResource): ManagedResource {
  return mr.apiVersion && mr.kind
    ? mr
    : { ...mr, apiVersion: 'resources.gardener.cloud/v1alpha1', kind: 'ManagedResource' };
}
