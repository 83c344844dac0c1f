// The EtcdCopyBackupsTask reconciler (etcd-druid's etcdcopybackupstask controller): Get → not found: done → deletion:
// the Job deleted (foreground: its Pod first), then the finalizer → reconcile: finalizer, the Job created once
// (job.ts; a Local store's host directory read from the `hostPath` of its Secret, as the etcd controller does) and the
// status written from it — observedGeneration, the Job's Complete/Failed as conditions Succeeded/Failed, lastError
// when the reconcile failed (then retried with back-off). The Job's status changes bring the task back (owned Jobs).
import {
  addFinalizer,
  hasFinalizer,
  ignoreNotFound,
  isAlreadyExists,
  isBeingDeleted,
  Kinds,
  messageOf,
  removeFinalizer,
  wrapError,
  type ApiClient,
  type KubernetesObject,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { EtcdStoreSpec } from '../etcd/kinds.js';
import {
  DefaultBackupRestoreImage,
  EtcdBackupSecretHostPathKey,
  LocalProviderDefaultMountPath,
} from '../etcd/objects.js';
import { EtcdFinalizer } from '../etcd/reconciler.js';
import { copyJob, taskConditions } from './job.js';
import { EtcdCopyBackupsTaskKind, jobNameOf, type EtcdCopyBackupsTaskResource } from './kinds.js';

/** Dependencies of {@link EtcdCopyBackupsTaskReconciler}. */
export interface EtcdCopyBackupsTaskReconcilerDeps {
  /** The seed cluster (live reads). */
  client: Pick<ApiClient, 'get' | 'patch' | 'create' | 'delete'>;
  /** The etcd-backup-restore image the Job runs (druid's image vector); druid's release by default. */
  backupRestoreImage?: string;
  now?: () => Date;
}

/** Runs the EtcdCopyBackupsTasks of the seed: task → copy Job → status. */
export class EtcdCopyBackupsTaskReconciler {
  constructor(private readonly deps: EtcdCopyBackupsTaskReconcilerDeps) {}

  async reconcile(req: Request, ctx?: Pick<ReconcileContext, 'log'>): Promise<ReconcileResult | void> {
    const task = await this.deps.client.get(EtcdCopyBackupsTaskKind, req).catch(ignoreNotFound);
    if (!task) return;
    if (isBeingDeleted(task)) return this.delete(task, ctx);
    const current = await addFinalizer(this.deps.client, task, EtcdFinalizer);
    let job: KubernetesObject | undefined;
    try {
      job = await this.job(current);
      if (!job) {
        const created = copyJob(current, this.deps.backupRestoreImage ?? DefaultBackupRestoreImage, {
          source: await this.hostPath(current, current.spec.sourceStore, 'source'),
          target: await this.hostPath(current, current.spec.targetStore, 'target'),
        });
        ctx?.log.info({ job: created.metadata?.name }, 'Creating the copy Job');
        job = await this.deps.client.create(created).catch(async (err: unknown) => {
          if (!isAlreadyExists(err)) throw wrapError(err, `creating Job ${created.metadata?.name}`);
          return this.job(current);
        });
      }
    } catch (err) {
      await this.patchStatus(current, {
        observedGeneration: current.metadata?.generation,
        conditions: nullIfEmpty(taskConditions(job, this.now())),
        lastError: messageOf(err),
      }).catch(() => undefined);
      throw wrapError(err, `reconciling EtcdCopyBackupsTask ${describe(current)}`);
    }
    await this.patchStatus(current, {
      observedGeneration: current.metadata?.generation,
      conditions: nullIfEmpty(taskConditions(job, this.now())),
      lastError: null,
    });
  }

  private now(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }

  private job(task: EtcdCopyBackupsTaskResource): Promise<KubernetesObject | undefined> {
    return this.deps.client
      .get(Kinds.Job, { namespace: task.metadata!.namespace, name: jobNameOf(task) })
      .catch(ignoreNotFound);
  }

  // The host directory of a Local store's buckets: `hostPath` of its Secret, druid's default without one; a missing
  // Secret fails the reconcile, naming it.
  private async hostPath(task: EtcdCopyBackupsTaskResource, store: EtcdStoreSpec, which: string): Promise<string> {
    const ref = store.secretRef;
    if (!ref?.name) return LocalProviderDefaultMountPath;
    const secret = await this.deps.client
      .get(Kinds.Secret, { namespace: ref.namespace ?? task.metadata!.namespace, name: ref.name })
      .catch((err: unknown) => Promise.reject(wrapError(err, `reading the ${which} store Secret ${ref.name}`)));
    const value = (secret as { data?: Record<string, string> }).data?.[EtcdBackupSecretHostPathKey];
    return value ? Buffer.from(value, 'base64').toString('utf8') : LocalProviderDefaultMountPath;
  }

  private async patchStatus(task: EtcdCopyBackupsTaskResource, status: Record<string, unknown>): Promise<void> {
    await this.deps.client.patch(
      EtcdCopyBackupsTaskKind,
      { namespace: task.metadata!.namespace, name: task.metadata!.name! },
      { type: 'merge', patch: { status } },
      { subresource: 'status' },
    );
  }

  private async delete(
    task: EtcdCopyBackupsTaskResource,
    ctx?: Pick<ReconcileContext, 'log'>,
  ): Promise<ReconcileResult | void> {
    if (!hasFinalizer(task, EtcdFinalizer)) return;
    const job = await this.job(task);
    if (!job) {
      await removeFinalizer(this.deps.client, task, EtcdFinalizer);
      return;
    }
    if (!job.metadata?.deletionTimestamp) {
      ctx?.log.info({ job: job.metadata?.name }, 'Deleting the copy Job');
      await this.deps.client
        .delete(
          Kinds.Job,
          { namespace: task.metadata!.namespace, name: jobNameOf(task) },
          { propagationPolicy: 'Foreground' },
        )
        .catch(ignoreNotFound)
        .catch(async (err: unknown) => {
          await this.patchStatus(task, { lastError: messageOf(err) }).catch(() => undefined);
          throw wrapError(err, `deleting Job ${jobNameOf(task)}`);
        });
    }
    return { requeueAfter: 1_000 };
  }
}

const nullIfEmpty = <T>(list: T[]): T[] | null => (list.length > 0 ? list : null);
const describe = (task: KubernetesObject) => `${task.metadata?.namespace}/${task.metadata?.name}`;
