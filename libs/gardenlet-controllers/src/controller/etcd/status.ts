// An Etcd's status as etcd-druid writes it, as pure functions of the StatefulSet and its Pods: the members (one per
// Pod; without backup-restore's member leases a member's status is its Pod's readiness), the `Ready` (quorum) and
// `AllMembersReady` conditions with druid's reasons and its condition builder's rules, replicas, `ready`, the selector
// of the scale subresource, and `lastOperation`/`lastErrors`.
import { labelSelectorAsSelector } from '@gardener-ts/api';
import type { PodObject, Workload } from '@gardener-ts/controller-runtime';
import type {
  EtcdCondition,
  EtcdLastError,
  EtcdLastOperation,
  EtcdMemberStatus,
  EtcdResource,
  EtcdStatus,
} from './kinds.js';
import { selectorLabels } from './objects.js';

/** druid's condition types. */
export const EtcdConditionTypes = { Ready: 'Ready', AllMembersReady: 'AllMembersReady' } as const;

/** The outcome of one condition check. */
export interface ConditionResult {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

const isPodReady = (pod: PodObject) =>
  pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/**
 * The members of the Etcd: its Pods `<name>-<ordinal>` in ordinal order, `Ready` when the Pod is ready, `NotReady`
 * when it has a status and is not, `Unknown` without one. A member keeps its `lastTransitionTime` while its status
 * stays the same.
 */
export function membersOf(
  etcd: EtcdResource,
  pods: readonly PodObject[],
  previous: readonly EtcdMemberStatus[] = [],
  now: string,
): EtcdMemberStatus[] {
  const prefix = `${etcd.metadata!.name}-`;
  const ordinal = (pod: PodObject) => {
    const rest = (pod.metadata?.name ?? '').slice(prefix.length);
    return (pod.metadata?.name ?? '').startsWith(prefix) && /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : undefined;
  };
  return pods
    .filter((p) => ordinal(p) !== undefined && !p.metadata?.deletionTimestamp)
    .sort((a, b) => ordinal(a)! - ordinal(b)!)
    .map((pod) => {
      const name = pod.metadata!.name!;
      const readyCondition = pod.status?.conditions?.find((c) => c.type === 'Ready');
      const [status, reason]: [EtcdMemberStatus['status'], string] = !pod.status?.phase
        ? ['Unknown', 'PodStatusUnknown']
        : isPodReady(pod)
          ? ['Ready', 'PodReady']
          : ['NotReady', readyCondition?.reason || 'PodNotReady'];
      const before = previous.find((m) => m.name === name);
      return {
        name,
        status,
        reason,
        lastTransitionTime: before && before.status === status ? before.lastTransitionTime : now,
      };
    });
}

/** druid's `Ready` check: quorate when a majority of the members is not NotReady. */
export function readyCheck(members: readonly EtcdMemberStatus[]): ConditionResult {
  const type = EtcdConditionTypes.Ready;
  if (members.length === 0)
    return {
      type,
      status: 'Unknown',
      reason: 'NoMembersInStatus',
      message: 'Cannot determine readiness since status has no members',
    };
  const quorum = Math.floor(members.length / 2) + 1;
  const ready = members.filter((m) => m.status !== 'NotReady').length;
  return ready < quorum
    ? { type, status: 'False', reason: 'QuorumLost', message: 'The majority of ETCD members is not ready' }
    : { type, status: 'True', reason: 'Quorate', message: 'The majority of ETCD members is ready' };
}

/** druid's `AllMembersReady` check: every one of `replicas` members registered and Ready. */
export function allMembersReadyCheck(members: readonly EtcdMemberStatus[], replicas: number): ConditionResult {
  const type = EtcdConditionTypes.AllMembersReady;
  if (members.length === 0)
    return {
      type,
      status: 'Unknown',
      reason: 'NoMembersInStatus',
      message: 'Cannot determine readiness since status has no members',
    };
  const all = members.length >= replicas && members.every((m) => m.status === 'Ready');
  return all
    ? { type, status: 'True', reason: 'AllMembersReady', message: 'All members are ready' }
    : { type, status: 'False', reason: 'NotAllMembersReady', message: 'At least one member is not ready' };
}

/**
 * druid's condition builder: each result updates its condition (a new status sets `lastTransitionTime`,
 * `lastUpdateTime` is always now); with 0 replicas a condition keeps its status (Unknown if new) with reason
 * `NotChecked`. Other old conditions are kept, the recomputed types are never carried over. Sorted by type.
 */
export function buildConditions(
  old: readonly EtcdCondition[] = [],
  results: readonly ConditionResult[],
  replicas: number,
  now: string,
): EtcdCondition[] {
  const computed = new Set(results.map((r) => r.type));
  const skipOld = new Set<string>([...Object.values(EtcdConditionTypes), 'BackupReady']);
  const conditions: EtcdCondition[] = results.map((result) => {
    const previous = old.find((c) => c.type === result.type);
    const condition: EtcdCondition = previous
      ? { ...previous }
      : { type: result.type, status: '', lastTransitionTime: now, lastUpdateTime: now, reason: '', message: '' };
    if (condition.status !== result.status) condition.lastTransitionTime = now;
    condition.lastUpdateTime = now;
    if (replicas === 0) {
      if (!condition.status) condition.status = 'Unknown';
      condition.reason = 'NotChecked';
      condition.message = 'etcd cluster has been scaled down';
    } else {
      condition.status = result.status;
      condition.reason = result.reason;
      condition.message = result.message;
    }
    return condition;
  });
  for (const c of old) if (!computed.has(c.type) && !skipOld.has(c.type)) conditions.push(c);
  return conditions.sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

/** Whether the StatefulSet is rolled out with at least `replicas` ready Pods (druid's `IsStatefulSetReady`). */
export function statefulSetReady(replicas: number, sts: Workload | undefined): boolean {
  if (!sts) return false;
  if ((sts.status?.observedGeneration ?? 0) < (sts.metadata?.generation ?? 0)) return false;
  if ((sts.status?.readyReplicas ?? 0) < replicas) return false;
  const { updateRevision, currentRevision } = (sts.status ?? {}) as {
    updateRevision?: string;
    currentRevision?: string;
  };
  return replicas === 0 || !updateRevision || updateRevision === currentRevision;
}

/** The status fields observed from the StatefulSet and the Pods (members, conditions, replicas, ready, selector). */
export function observedStatus(
  etcd: EtcdResource,
  sts: Workload | undefined,
  pods: readonly PodObject[],
  now: string,
): EtcdStatus {
  const replicas = etcd.spec.replicas;
  const members = membersOf(etcd, pods, etcd.status?.members, now);
  const conditions = buildConditions(
    etcd.status?.conditions,
    [readyCheck(members), allMembersReadyCheck(members, replicas)],
    replicas,
    now,
  );
  const matchLabels = selectorLabels(etcd);
  return {
    ...(sts ? { etcd: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: sts.metadata!.name! } } : {}),
    conditions,
    members,
    replicas: sts?.status?.replicas ?? 0,
    currentReplicas: sts?.status?.currentReplicas ?? 0,
    readyReplicas: sts?.status?.readyReplicas ?? 0,
    ready: statefulSetReady(replicas, sts),
    labelSelector: { matchLabels },
    selector: labelSelectorAsSelector({ matchLabels }).toString(),
    peerUrlTLSEnabled: !!etcd.spec.etcd.peerUrlTls,
  };
}

/** druid's lastOperation. */
export function lastOperation(
  type: EtcdLastOperation['type'],
  state: EtcdLastOperation['state'],
  description: string,
  runID: string,
  now: string,
): EtcdLastOperation {
  return { type, state, description, runID, lastUpdateTime: now };
}

/** One of druid's lastErrors. */
export function lastError(code: string, description: string, now: string): EtcdLastError {
  return { code, description, observedAt: now };
}
