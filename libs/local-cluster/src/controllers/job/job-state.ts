// Reading a Job: its selector and pod labels, its conditions, and whether it has finished.
import type { Job, Pod } from '../shared/kinds.js';
import type { LabelSelector } from '../shared/kinds.js';
import { rfc3339 } from '../shared/time.js';

export const TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
export type JobStatus = NonNullable<Job['status']>;
export type JobConditionType = 'Complete' | 'Failed' | 'SuccessCriteriaMet' | 'FailureTarget' | 'Suspended';

/** The labels every pod of the Job carries (kube's API server puts them on the template; here the controller does). */
export function jobPodLabels(job: Job): Record<string, string> {
  const uid = job.metadata!.uid!;
  const name = job.metadata!.name!;
  return {
    'batch.kubernetes.io/controller-uid': uid,
    'controller-uid': uid,
    'batch.kubernetes.io/job-name': name,
    'job-name': name,
  };
}

/** The Job's selector; without one, its controller-uid label (what kube's API server would have generated). */
export function jobSelector(job: Job): LabelSelector {
  return job.spec?.selector ?? { matchLabels: { 'batch.kubernetes.io/controller-uid': job.metadata!.uid! } };
}

export function hasCondition(status: JobStatus | undefined, type: JobConditionType): boolean {
  return status?.conditions?.some((c) => c.type === type && c.status === 'True') ?? false;
}

export function isFinished(job: Job): boolean {
  return hasCondition(job.status, 'Complete') || hasCondition(job.status, 'Failed');
}

export function setCondition(
  status: JobStatus,
  type: JobConditionType,
  value: 'True' | 'False',
  reason: string,
  message: string,
  now: number,
): void {
  const current = status.conditions?.find((c) => c.type === type);
  if (current?.status === value && current.reason === reason) return;
  const at = rfc3339(now);
  const next = {
    type,
    status: value,
    reason,
    message,
    lastProbeTime: at,
    lastTransitionTime: current?.status === value ? current.lastTransitionTime : at,
  };
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== type), next];
}

export const isPodFinished = (p: Pod) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

/** The time of the latest pod failure, for the back-off before a replacement. */
export function lastFailureTime(pods: Pod[]): number | undefined {
  const times = pods
    .filter((p) => p.status?.phase === 'Failed')
    .map((p) =>
      Date.parse(
        p.status?.containerStatuses?.[0]?.state?.terminated?.finishedAt ??
          p.metadata?.deletionTimestamp ??
          p.metadata?.creationTimestamp ??
          '',
      ),
    )
    .filter((t) => !Number.isNaN(t));
  return times.length ? Math.max(...times) : undefined;
}
