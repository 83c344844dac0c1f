// The Job reconciler: count finished pods exactly once (through the job-tracking finalizer and
// status.uncountedTerminatedPods), keep `parallelism` pods running until `completions` succeeded, stop on the
// backoff limit or the active deadline, and delete finished Jobs after ttlSecondsAfterFinished.
import { ignoreNotFound, isNotFound, type ReconcileResult, type Request } from '@gardener-ts/controller-runtime';
import type { ControllerContext } from '../shared/context.js';
import type { EventRecorder } from '../shared/events.js';
import type { Expectations } from '../shared/expectations.js';
import { canonicalJson } from '../shared/hash.js';
import { type Job, JobKind, type Pod, PodKind } from '../shared/kinds.js';
import { claimObjects } from '../shared/owner.js';
import { podFromTemplate } from '../shared/pod-template.js';
import { isPodReady, podKey } from '../shared/pods.js';
import { selectorMatcher } from '../shared/selectors.js';
import { rfc3339 } from '../shared/time.js';
import { podsToDelete } from '../replicaset/deletion-order.js';
import {
  hasCondition,
  isFinished,
  isPodFinished,
  jobPodLabels,
  jobSelector,
  type JobStatus,
  lastFailureTime,
  setCondition,
  TRACKING_FINALIZER,
} from './job-state.js';

export interface JobControllerOptions {
  /** The first back-off before replacing a failed pod; it doubles per failure up to 6 minutes (kube: 10 s). */
  backoffBaseMs: number;
}

const MAX_BACKOFF_MS = 6 * 60_000;

export class JobReconciler {
  constructor(
    private readonly ctx: ControllerContext,
    private readonly expectations: Expectations,
    private readonly events: EventRecorder,
    private readonly options: JobControllerOptions,
  ) {}

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const key = `${req.namespace}/${req.name}`;
    const job = await this.ctx.client.get(JobKind, req).catch(ignoreNotFound);
    if (!job) {
      this.expectations.forget(key);
      return;
    }
    const now = this.ctx.now();
    const pods = await claimObjects((await this.ctx.client.list(PodKind, { namespace: req.namespace })).items, {
      client: this.ctx.client,
      kind: PodKind,
      owner: job,
      ownerKind: JobKind,
      selector: selectorMatcher(jobSelector(job)),
      ownerIsCurrent: async () =>
        (await this.ctx.api.get(JobKind, req).catch(ignoreNotFound))?.metadata?.uid === job.metadata?.uid,
    });
    if (isFinished(job)) {
      await this.releasePods(pods);
      return this.expireAfterTtl(job, now);
    }

    const counted = await this.countFinishedPods(job, pods);
    const status = counted.status;
    const active = pods.filter((p) => !isPodFinished(p) && !p.metadata?.deletionTimestamp);
    const terminating = pods.filter((p) => !isPodFinished(p) && p.metadata?.deletionTimestamp).length;
    const completions = job.spec?.completions;
    const succeeded = status.succeeded ?? 0;
    const failed = status.failed ?? 0;
    status.startTime ??= job.spec?.suspend ? undefined : rfc3339(now);
    let requeueAfter: number | undefined;

    // Success or failure first becomes a target; the Job finishes once none of its pods is left running.
    if (!hasCondition(status, 'FailureTarget') && !hasCondition(status, 'SuccessCriteriaMet')) {
      const deadline = job.spec?.activeDeadlineSeconds;
      const started = status.startTime ? Date.parse(status.startTime) : now;
      if (
        completions !== undefined && completions !== null
          ? succeeded >= completions
          : succeeded > 0 && active.length === 0
      ) {
        setCondition(
          status,
          'SuccessCriteriaMet',
          'True',
          'CompletionsReached',
          'Reached expected number of succeeded pods',
          now,
        );
      } else if (failed > (job.spec?.backoffLimit ?? 6)) {
        setCondition(
          status,
          'FailureTarget',
          'True',
          'BackoffLimitExceeded',
          'Job has reached the specified backoff limit',
          now,
        );
      } else if (
        deadline !== undefined &&
        deadline !== null &&
        !job.spec?.suspend &&
        now >= started + deadline * 1000
      ) {
        setCondition(
          status,
          'FailureTarget',
          'True',
          'DeadlineExceeded',
          'Job was active longer than specified deadline',
          now,
        );
      } else if (deadline !== undefined && deadline !== null && !job.spec?.suspend) {
        requeueAfter = started + deadline * 1000 - now;
      }
    }

    const finishing =
      hasCondition(status, 'FailureTarget') || hasCondition(status, 'SuccessCriteriaMet') || !!job.spec?.suspend;
    if (this.expectations.satisfied(key)) {
      const want = finishing ? 0 : this.wantActive(job, succeeded, active.length);
      const backoff = this.backoffRemaining(failed, pods, now);
      if (want > active.length && backoff > 0) requeueAfter = Math.min(requeueAfter ?? Infinity, backoff);
      else await this.manageActive(key, job, active, want);
    }

    if (finishing && active.length === 0 && terminating === 0) this.finish(job, status, now);
    if (job.spec?.suspend) setCondition(status, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now);
    else if (hasCondition(status, 'Suspended'))
      setCondition(status, 'Suspended', 'False', 'JobResumed', 'Job resumed', now);
    status.active = active.length;
    status.ready = active.filter(isPodReady).length;
    status.terminating = terminating;
    if (canonicalJson(status) !== canonicalJson(counted.job.status ?? {}))
      await this.ctx.client.updateStatus({ ...structuredClone(counted.job), status });
    return requeueAfter !== undefined ? { requeueAfter: requeueAfter + 50 } : undefined;
  }

  /** Pods to keep running: up to parallelism, no more than the completions still missing. */
  private wantActive(job: Job, succeeded: number, active: number): number {
    const parallelism = job.spec?.parallelism ?? 1;
    const completions = job.spec?.completions;
    if (completions === undefined || completions === null)
      return succeeded > 0 ? Math.min(active, parallelism) : parallelism;
    return Math.max(0, Math.min(parallelism, completions - succeeded));
  }

  private backoffRemaining(failed: number, pods: Pod[], now: number): number {
    const last = lastFailureTime(pods);
    if (failed === 0 || last === undefined) return 0;
    const delay = Math.min(this.options.backoffBaseMs * 2 ** (failed - 1), MAX_BACKOFF_MS);
    return Math.max(0, last + delay - now);
  }

  private async manageActive(key: string, job: Job, active: Pod[], want: number): Promise<void> {
    if (want > active.length) {
      const count = want - active.length;
      this.expectations.expect(key, count);
      const results = await Promise.allSettled(Array.from({ length: count }, () => this.createPod(job)));
      const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      for (let i = 0; i < failures.length; i++) this.expectations.creationObserved(key);
      if (failures.length) throw failures[0].reason;
    } else if (want < active.length) {
      const victims = podsToDelete(active, active.length - want);
      this.expectations.expect(key, 0, victims.map(podKey));
      for (const pod of victims) {
        await this.ctx.client
          .delete(PodKind, { namespace: pod.metadata?.namespace, name: pod.metadata!.name! })
          .catch((err: unknown) => {
            this.expectations.deletionObserved(key, podKey(pod));
            if (!isNotFound(err)) throw err;
          });
      }
    }
  }

  private async createPod(job: Job): Promise<void> {
    const pod = podFromTemplate(job.spec?.template, job, JobKind, { generateName: `${job.metadata!.name}-` });
    pod.metadata!.labels = { ...pod.metadata!.labels, ...jobPodLabels(job) };
    pod.metadata!.finalizers = [...(pod.metadata!.finalizers ?? []), TRACKING_FINALIZER];
    const created = await this.ctx.client.create(pod);
    this.events.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata?.name}`);
  }

  /**
   * Finished pods (and pods deleted before finishing, which count as failed) still holding the tracking
   * finalizer: recorded as uncounted first, then released, then counted — so a crash in between never counts a
   * pod twice or loses it.
   */
  private async countFinishedPods(job: Job, pods: Pod[]): Promise<{ job: Job; status: JobStatus }> {
    const status: JobStatus = structuredClone(job.status ?? {});
    const uncounted = {
      succeeded: [...(status.uncountedTerminatedPods?.succeeded ?? [])],
      failed: [...(status.uncountedTerminatedPods?.failed ?? [])],
    };
    const known = new Set([...uncounted.succeeded, ...uncounted.failed]);
    const done = pods.filter(
      (p) =>
        p.metadata?.finalizers?.includes(TRACKING_FINALIZER) && (isPodFinished(p) || p.metadata?.deletionTimestamp),
    );
    for (const pod of done) {
      const uid = pod.metadata!.uid!;
      if (known.has(uid)) continue;
      (pod.status?.phase === 'Succeeded' ? uncounted.succeeded : uncounted.failed).push(uid);
    }
    if (uncounted.succeeded.length + uncounted.failed.length === 0) return { job, status };
    const recorded = await this.ctx.client.updateStatus({
      ...structuredClone(job),
      status: { ...status, uncountedTerminatedPods: uncounted },
    });
    await this.releasePods(done);
    const counted: JobStatus = {
      ...structuredClone(recorded.status ?? {}),
      succeeded: (status.succeeded ?? 0) + uncounted.succeeded.length,
      failed: (status.failed ?? 0) + uncounted.failed.length,
      uncountedTerminatedPods: {},
    };
    return { job: recorded, status: counted };
  }

  private async releasePods(pods: Pod[]): Promise<void> {
    for (const pod of pods.filter((p) => p.metadata?.finalizers?.includes(TRACKING_FINALIZER))) {
      const finalizers = pod.metadata!.finalizers!.filter((f) => f !== TRACKING_FINALIZER);
      await this.ctx.client
        .patch(
          PodKind,
          { namespace: pod.metadata?.namespace, name: pod.metadata!.name! },
          { type: 'merge', patch: { metadata: { finalizers, resourceVersion: pod.metadata?.resourceVersion } } },
        )
        .catch(ignoreNotFound);
    }
  }

  private finish(job: Job, status: JobStatus, now: number): void {
    const failure = status.conditions?.find((c) => c.type === 'FailureTarget' && c.status === 'True');
    if (failure) {
      setCondition(status, 'Failed', 'True', failure.reason!, failure.message!, now);
      this.events.event(job, 'Warning', failure.reason!, failure.message!);
    } else if (hasCondition(status, 'SuccessCriteriaMet')) {
      setCondition(status, 'Complete', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods', now);
      status.completionTime = rfc3339(now);
      this.events.event(job, 'Normal', 'Completed', 'Job completed');
    }
  }

  private async expireAfterTtl(job: Job, now: number): Promise<ReconcileResult | void> {
    const ttl = job.spec?.ttlSecondsAfterFinished;
    if (ttl === undefined || ttl === null) return;
    const finished = job.status?.conditions?.find(
      (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
    )?.lastTransitionTime;
    const expiresAt = Date.parse(finished ?? job.status?.completionTime ?? '') + ttl * 1000;
    if (Number.isNaN(expiresAt)) return;
    if (now < expiresAt) return { requeueAfter: expiresAt - now + 50 };
    await this.ctx.client
      .delete(
        JobKind,
        { namespace: job.metadata?.namespace, name: job.metadata!.name! },
        { propagationPolicy: 'Foreground', preconditions: { uid: job.metadata?.uid } },
      )
      .catch(ignoreNotFound);
  }
}
