// The CronJob reconciler: keeps status.active to the Jobs still running, starts the Job of the latest due
// schedule time (honouring suspend, startingDeadlineSeconds and concurrencyPolicy), trims finished Jobs to the
// history limits, and comes back at the next schedule time.
import { ignoreNotFound, isAlreadyExists, type ReconcileResult, type Request } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import type { EventRecorder } from '../shared/events.js';
import { canonicalJson } from '../shared/hash.js';
import { type CronJob, CronJobKind, type Job, JobKind } from '../shared/kinds.js';
import { controllerOf, controllerRef } from '../shared/owner.js';
import { rfc3339 } from '../shared/time.js';
import { hasCondition, isFinished } from '../job/job-state.js';
import { mostRecent, nextAfter, parseSchedule, type CronSchedule } from './schedule.js';

export const SCHEDULED_TIMESTAMP = 'batch.kubernetes.io/cronjob-scheduled-timestamp';
type CronJobStatus = NonNullable<CronJob['status']>;
/** A CronJob as the API server stores it: spec is required. */
type CronJobWithSpec = CronJob & { spec: NonNullable<CronJob['spec']> };

export class CronJobReconciler {
  constructor(
    private readonly ctx: ControllerContext,
    private readonly events: EventRecorder,
  ) {}

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const cj = (await this.ctx.client.get(CronJobKind, req).catch(ignoreNotFound)) as CronJobWithSpec | undefined;
    if (!cj?.spec || cj.metadata?.deletionTimestamp) return;
    const now = this.ctx.now();
    const jobs = (await this.ctx.client.list(JobKind, { namespace: req.namespace })).items.filter(
      (j) => controllerOf(j)?.uid === cj.metadata?.uid,
    );
    const status: CronJobStatus = structuredClone(cj.status ?? {});
    this.syncActive(cj, status, jobs);

    let schedule: CronSchedule;
    try {
      schedule = parseSchedule(cj.spec.schedule, cj.spec.timeZone ?? 'UTC');
    } catch (err) {
      this.events.event(
        cj,
        'Warning',
        'UnparseableSchedule',
        `unparseable schedule: ${JSON.stringify(cj.spec.schedule)} : ${(err as Error).message}`,
      );
      await this.writeStatus(cj, status);
      return;
    }
    if (!cj.spec.suspend) await this.startDueJob(cj, status, schedule, jobs, now);
    await this.writeStatus(cj, status);
    await this.trimHistory(cj, jobs);
    if (cj.spec.suspend) return;
    const next = nextAfter(schedule, now);
    return next !== undefined ? { requeueAfter: next - now + 100 } : undefined;
  }

  /** Drops finished or vanished Jobs from status.active; a Job that completed moves lastSuccessfulTime. */
  private syncActive(cj: CronJob, status: CronJobStatus, jobs: Job[]): void {
    const byUid = new Map(jobs.map((j) => [j.metadata?.uid, j]));
    status.active = (status.active ?? []).filter((ref) => {
      const job = byUid.get(ref.uid);
      if (!job) {
        this.events.event(cj, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
        return false;
      }
      if (!isFinished(job)) return true;
      this.events.event(
        cj,
        'Normal',
        'SawCompletedJob',
        `Saw completed job: ${job.metadata?.name}, condition: ${hasCondition(job.status, 'Complete') ? 'Complete' : 'Failed'}`,
      );
      return false;
    });
    for (const job of jobs) {
      const completed = job.status?.completionTime;
      if (
        hasCondition(job.status, 'Complete') &&
        completed &&
        (!status.lastSuccessfulTime || Date.parse(completed) > Date.parse(status.lastSuccessfulTime))
      ) {
        status.lastSuccessfulTime = completed;
      }
    }
    if (status.active.length === 0) delete status.active;
  }

  private async startDueJob(
    cj: CronJobWithSpec,
    status: CronJobStatus,
    schedule: CronSchedule,
    jobs: Job[],
    now: number,
  ): Promise<void> {
    let earliest = Date.parse(status.lastScheduleTime ?? cj.metadata!.creationTimestamp!);
    const deadline = cj.spec.startingDeadlineSeconds;
    if (deadline !== undefined && deadline !== null) earliest = Math.max(earliest, now - deadline * 1000);
    const { time, missed } = mostRecent(schedule, earliest, now);
    if (time === undefined) return;
    if (missed > 100)
      this.events.event(
        cj,
        'Warning',
        'TooManyMissedTimes',
        'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
      );

    const active = status.active ?? [];
    const policy = cj.spec.concurrencyPolicy ?? 'Allow';
    if (policy === 'Forbid' && active.length > 0) {
      this.events.event(
        cj,
        'Normal',
        'JobAlreadyActive',
        'Not starting job because prior execution is running and concurrency policy is Forbid',
      );
      return;
    }
    if (policy === 'Replace') {
      for (const ref of active) {
        await this.ctx.client
          .delete(JobKind, { namespace: cj.metadata?.namespace, name: ref.name! }, { propagationPolicy: 'Background' })
          .catch(ignoreNotFound);
        this.events.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${ref.name}`);
      }
      status.active = [];
    }

    const job = jobFor(cj, time);
    let created: Job;
    try {
      created = await this.ctx.client.create(job);
      this.events.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${created.metadata?.name}`);
    } catch (err) {
      if (!isAlreadyExists(err)) {
        this.events.event(cj, 'Warning', 'FailedCreate', `Error creating job: ${(err as Error).message}`);
        throw err;
      }
      // Created before (the status write was lost): adopt what is there.
      created =
        jobs.find((j) => j.metadata?.name === job.metadata?.name) ??
        (await this.ctx.api.get(JobKind, { namespace: cj.metadata?.namespace, name: job.metadata!.name! }));
    }
    if (!isFinished(created) && !(status.active ?? []).some((r) => r.uid === created.metadata?.uid)) {
      status.active = [
        ...(status.active ?? []),
        {
          apiVersion: 'batch/v1',
          kind: 'Job',
          name: created.metadata?.name,
          namespace: created.metadata?.namespace,
          uid: created.metadata?.uid,
          resourceVersion: created.metadata?.resourceVersion,
        },
      ];
    }
    status.lastScheduleTime = rfc3339(time);
  }

  /** Deletes the oldest finished Jobs beyond successfulJobsHistoryLimit and failedJobsHistoryLimit. */
  private async trimHistory(cj: CronJobWithSpec, jobs: Job[]): Promise<void> {
    const started = (j: Job) => Date.parse(j.status?.startTime ?? j.metadata?.creationTimestamp ?? '');
    const trim = async (finished: Job[], limit: number) => {
      const oldestFirst = finished.sort((a, b) => started(a) - started(b));
      for (const job of oldestFirst.slice(0, Math.max(0, oldestFirst.length - limit))) {
        await this.ctx.client
          .delete(
            JobKind,
            { namespace: job.metadata?.namespace, name: job.metadata!.name! },
            { propagationPolicy: 'Background' },
          )
          .catch(ignoreNotFound);
        this.events.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata?.name}`);
      }
    };
    await trim(
      jobs.filter((j) => hasCondition(j.status, 'Complete')),
      cj.spec.successfulJobsHistoryLimit ?? 3,
    );
    await trim(
      jobs.filter((j) => hasCondition(j.status, 'Failed')),
      cj.spec.failedJobsHistoryLimit ?? 1,
    );
  }

  private async writeStatus(cj: CronJob, status: CronJobStatus): Promise<void> {
    if (canonicalJson(status) !== canonicalJson(cj.status ?? {}))
      await this.ctx.client.updateStatus({ ...structuredClone(cj), status });
  }
}

/** The Job of one schedule time: `<cronjob>-<minutes since the epoch>`, from the job template. */
export function jobFor(cj: CronJobWithSpec, scheduledTime: number): Job {
  const template = cj.spec.jobTemplate;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: `${cj.metadata!.name}-${Math.floor(scheduledTime / 60_000)}`,
      namespace: cj.metadata?.namespace,
      labels: { ...template.metadata?.labels },
      annotations: { ...template.metadata?.annotations, [SCHEDULED_TIMESTAMP]: rfc3339(scheduledTime) },
      ownerReferences: [controllerRef(cj, CronJobKind)],
    },
    spec: structuredClone(template.spec),
  };
}
