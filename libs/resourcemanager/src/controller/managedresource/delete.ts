// Deleting objects a ManagedResource no longer lists, or all of them when it is deleted (Gardener's managedresource
// reconciler, cleanup part): in waves (everything else, then Namespaces, then CRDs), honouring `keep-object`, the
// garbage collector's `garbage-collectable-reference`, and `deletePersistentVolumeClaims` for StatefulSets.
import { isNotFound, messageOf, NoKindMatchError } from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import { Annotation, isTruthy, Label } from '../../constants.js';
import type { ManagedResource } from '../../status.js';
import type { TargetAccess } from './target-access.js';
import { groupOf, refKey } from './equivalences.js';
import type { LastWrites } from './last-write.js';
import { describeObject, mapLimit, type ObjectReference } from './object-refs.js';
import { deletionPropagation, deletionWaves } from './order.js';
import { deleteStatefulSetPVCs } from './statefulset-pvcs.js';

/** Objects deleted in parallel within one wave. */
export const DELETE_CONCURRENCY = 20;

/** What the deleter needs. */
export interface ObjectDeleterOptions {
  target: TargetAccess;
  /** Shared with the applier: forgotten for every deleted object. */
  lastWrites: LastWrites;
  /** The garbage collector runs: ConfigMaps/Secrets labelled garbage-collectable are left to it. */
  garbageCollectorActivated?: boolean;
}

/** The outcome of a deletion: nothing when everything is gone; an error message, `pending` when it just is not finished. */
export interface DeletionOutcome {
  error?: string;
  pending?: boolean;
}

/** Deletes the objects of ManagedResources from the target cluster. */
export class ObjectDeleter {
  constructor(private readonly o: ObjectDeleterOptions) {}

  /**
   * Deletes `refs` in waves; a wave starts once the previous one is gone. Returns an error message, with `pending` when
   * deletion just has not finished yet.
   */
  async deleteObjects(mr: ManagedResource, refs: readonly ObjectReference[], log: Logger): Promise<DeletionOutcome> {
    const deletePVCs = mr.spec?.deletePersistentVolumeClaims ?? false;
    for (const wave of deletionWaves(refs)) {
      const outcomes = await mapLimit(wave, DELETE_CONCURRENCY, (ref) => this.deleteOne(ref, deletePVCs, log));
      const pending = outcomes.filter((o) => o.pending);
      const failed = outcomes.filter((o) => o.error && !o.pending);
      if (pending.length > 0 || failed.length > 0) {
        const lines = [
          ...pending.map(
            (o) => `deletion of old resource "${o.resource}" is still pending${o.error ? `: ${o.error}` : ''}`,
          ),
          ...failed.map((o) => `error during deletion of old resource "${o.resource}": ${o.error}`),
        ];
        return {
          pending: pending.length > 0,
          error: `Could not clean all old resources:\n${lines.map((l) => `* ${l}`).join('\n')}`,
        };
      }
    }
    return {};
  }

  /** Forgets what was written for `refs` (objects kept on purpose). */
  forget(refs: readonly ObjectReference[]): void {
    for (const ref of refs) this.o.lastWrites.forget(refKey(ref));
  }

  private async deleteOne(
    ref: ObjectReference,
    deletePVCs: boolean,
    log: Logger,
  ): Promise<{ resource: string; pending?: boolean; error?: string }> {
    const resource = describeObject(ref);
    const { target } = this.o;
    this.o.lastWrites.forget(refKey(ref));
    let info;
    try {
      info = await target.kindInfo(ref.apiVersion!, ref.kind!);
    } catch (err) {
      if (err instanceof NoKindMatchError) return { resource }; // the kind is gone, so is the object
      return { resource, pending: true, error: messageOf(err) };
    }
    const key = { namespace: info.namespaced ? ref.namespace || undefined : undefined, name: ref.name! };
    try {
      const obj = await target.getLive(info.kind, key.namespace, key.name);
      if (!obj) return { resource };
      if (isTruthy(obj.metadata?.annotations?.[Annotation.KeepObject])) {
        log.info({ resource }, `Keeping object in the system as ${Annotation.KeepObject} annotation found`);
        return { resource };
      }
      if (
        this.o.garbageCollectorActivated &&
        groupOf(ref.apiVersion) === '' &&
        (ref.kind === 'ConfigMap' || ref.kind === 'Secret') &&
        isTruthy(obj.metadata?.labels?.[Label.GarbageCollectable])
      ) {
        log.info({ resource }, "Keeping object in the system as it is marked as 'garbage-collectable'");
        return { resource };
      }
      if (deletePVCs) {
        try {
          await deleteStatefulSetPVCs(target.cluster.api, obj);
        } catch (err) {
          log.error({ err, resource }, 'Error during cleanup');
          return { resource, pending: true, error: messageOf(err) };
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
      return { resource, pending: true, error: messageOf(err) };
    }
  }
}
