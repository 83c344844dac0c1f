// What the disruption controller computes for one PodDisruptionBudget, as pure functions: the healthy count it
// wants, how many selected pods are healthy, which recorded disruptions still count, and the resulting status with
// its DisruptionAllowed condition (kube's pkg/controller/disruption).
import type * as k8s from '@kubernetes/client-node';
import type { Pod, PodDisruptionBudget, Wire } from '../shared/kinds.js';
import { isPodReady } from '../shared/pods.js';
import { rfc3339 } from '../shared/time.js';

export type BudgetStatus = NonNullable<PodDisruptionBudget['status']>;
export type BudgetCondition = Wire<k8s.V1Condition>;
type IntOrString = number | string;

/** How long an eviction recorded in `status.disruptedPods` keeps its pod out of the healthy count (kube's DeletionTimeout). */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
export const REASON_SUFFICIENT = 'SufficientPods';
export const REASON_INSUFFICIENT = 'InsufficientPods';
export const REASON_SYNC_FAILED = 'SyncFailed';

/**
 * An int-or-percent of `total` as kube's GetScaledValueFromIntOrPercent with rounding up, which the disruption
 * controller uses for both fields: an integer stays as it is, `<n>%` is n% of total rounded up, any other string
 * is an error (kube: "string is not a percentage").
 */
export function scaledUp(value: IntOrString, total: number): number {
  if (typeof value === 'number') return value;
  const m = /^(-?\d+)%$/.exec(value);
  if (!m) throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  return Math.ceil((Number(m[1]) * total) / 100);
}

/**
 * expectedPods and desiredHealthy (kube's getExpectedPodCount). `scale` is the summed scale of the selected pods'
 * controllers, read only for maxUnavailable and for minAvailable as a percentage. minAvailable as an integer
 * expects every selected pod (terminal ones too, as kube counts the whole list). Neither field set: both 0.
 */
export function expectedAndDesired(
  spec: PodDisruptionBudget['spec'],
  selectedPods: number,
  scale: () => number,
): { expectedPods: number; desiredHealthy: number } {
  const maxUnavailable = spec?.maxUnavailable;
  const minAvailable = spec?.minAvailable;
  if (maxUnavailable !== undefined && maxUnavailable !== null) {
    const expectedPods = scale();
    return { expectedPods, desiredHealthy: Math.max(0, expectedPods - scaledUp(maxUnavailable, expectedPods)) };
  }
  if (minAvailable !== undefined && minAvailable !== null) {
    if (typeof minAvailable === 'number') return { expectedPods: selectedPods, desiredHealthy: minAvailable };
    const expectedPods = scale();
    return { expectedPods, desiredHealthy: scaledUp(minAvailable, expectedPods) };
  }
  return { expectedPods: 0, desiredHealthy: 0 };
}

/** No disruption while nothing is expected (a budget whose first pods appear is safe until looked at), never below 0. */
export function disruptionsAllowed(currentHealthy: number, desiredHealthy: number, expectedPods: number): number {
  const allowed = currentHealthy - desiredHealthy;
  return expectedPods <= 0 || allowed <= 0 ? 0 : allowed;
}

export interface DisruptedPods {
  /** The entries that still count: selected pods not being deleted whose eviction is less than 2 minutes old. */
  active: Record<string, string>;
  /** Pods whose eviction was recorded more than 2 minutes ago and that are still not being deleted (kube: NotDeleted). */
  expired: Pod[];
  /** When the first active entry expires (ms since the epoch), to look at the budget again then. */
  recheckAt?: number;
}

/**
 * kube's buildDisruptedPodMap: entries of pods no longer selected, gone or being deleted are dropped; an entry older
 * than DELETION_TIMEOUT_MS is dropped and its pod reported as expired.
 */
export function disruptedPods(recorded: Record<string, string> | undefined, pods: Pod[], now: number): DisruptedPods {
  const result: DisruptedPods = { active: {}, expired: [] };
  if (!recorded) return result;
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    const name = pod.metadata?.name ?? '';
    const at = recorded[name];
    if (at === undefined) continue;
    const expiresAt = Date.parse(at) + DELETION_TIMEOUT_MS;
    if (Number.isNaN(expiresAt) || expiresAt < now) {
      result.expired.push(pod);
      continue;
    }
    result.active[name] = at;
    if (result.recheckAt === undefined || expiresAt < result.recheckAt) result.recheckAt = expiresAt;
  }
  return result;
}

/** Ready pods that are not being deleted and whose recorded eviction has not expired (kube's countHealthyPods). */
export function countHealthy(pods: Pod[], active: Record<string, string>, now: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata?.deletionTimestamp) continue;
    const at = active[pod.metadata?.name ?? ''];
    if (at !== undefined && Date.parse(at) + DELETION_TIMEOUT_MS > now) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

/**
 * The conditions with `condition` set as apimachinery's SetStatusCondition does: lastTransitionTime moves only when
 * the status changes; reason, message and observedGeneration always follow.
 */
export function setCondition(
  conditions: BudgetCondition[] | undefined,
  condition: Omit<BudgetCondition, 'lastTransitionTime'>,
  now: number,
): BudgetCondition[] {
  const list = structuredClone(conditions ?? []);
  const current = list.find((c) => c.type === condition.type);
  if (!current) return [...list, { ...condition, lastTransitionTime: rfc3339(now) }];
  if (current.status !== condition.status) current.lastTransitionTime = rfc3339(now);
  Object.assign(current, {
    status: condition.status,
    reason: condition.reason,
    message: condition.message,
    observedGeneration: condition.observedGeneration,
  });
  return list;
}

export interface BudgetCounts {
  expectedPods: number;
  desiredHealthy: number;
  currentHealthy: number;
  disruptedPods: Record<string, string>;
}

/**
 * The status kube's updatePdbStatus writes: the counts, disruptionsAllowed, observedGeneration and DisruptionAllowed
 * True (SufficientPods) when disruptions are allowed, False (InsufficientPods) otherwise. Undefined when the status
 * already says so.
 */
export function budgetStatus(pdb: PodDisruptionBudget, counts: BudgetCounts, now: number): BudgetStatus | undefined {
  const allowed = disruptionsAllowed(counts.currentHealthy, counts.desiredHealthy, counts.expectedPods);
  const generation = pdb.metadata?.generation ?? 0;
  const old = pdb.status;
  const condition = old?.conditions?.find((c) => c.type === DISRUPTION_ALLOWED);
  const conditionOk =
    !!condition &&
    (allowed > 0
      ? condition.status === 'True' && condition.reason === REASON_SUFFICIENT
      : condition.status === 'False' && condition.reason === REASON_INSUFFICIENT);
  if (
    old &&
    old.currentHealthy === counts.currentHealthy &&
    old.desiredHealthy === counts.desiredHealthy &&
    old.expectedPods === counts.expectedPods &&
    old.disruptionsAllowed === allowed &&
    sameEntries(old.disruptedPods, counts.disruptedPods) &&
    old.observedGeneration === generation &&
    conditionOk
  ) {
    return undefined;
  }
  const conditions = setCondition(
    old?.conditions,
    allowed > 0
      ? {
          type: DISRUPTION_ALLOWED,
          status: 'True',
          reason: REASON_SUFFICIENT,
          message: '',
          observedGeneration: generation,
        }
      : {
          type: DISRUPTION_ALLOWED,
          status: 'False',
          reason: REASON_INSUFFICIENT,
          message: '',
          observedGeneration: generation,
        },
    now,
  );
  return {
    currentHealthy: counts.currentHealthy,
    desiredHealthy: counts.desiredHealthy,
    expectedPods: counts.expectedPods,
    disruptionsAllowed: allowed,
    ...(Object.keys(counts.disruptedPods).length > 0 ? { disruptedPods: counts.disruptedPods } : {}),
    observedGeneration: generation,
    conditions,
  };
}

/**
 * kube's failSafe after a failed sync: disruptionsAllowed 0 and DisruptionAllowed False with reason SyncFailed and
 * the error as message; everything else (observedGeneration too) stays. Undefined when the status already says so.
 */
export function failSafeStatus(pdb: PodDisruptionBudget, message: string, now: number): BudgetStatus | undefined {
  const old = pdb.status ?? { currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, disruptionsAllowed: 0 };
  const condition = old.conditions?.find((c) => c.type === DISRUPTION_ALLOWED);
  if (
    old.disruptionsAllowed === 0 &&
    condition?.status === 'False' &&
    condition.reason === REASON_SYNC_FAILED &&
    condition.message === message
  )
    return undefined;
  const conditions = setCondition(
    old.conditions,
    {
      type: DISRUPTION_ALLOWED,
      status: 'False',
      reason: REASON_SYNC_FAILED,
      message,
      observedGeneration: old.observedGeneration,
    },
    now,
  );
  return { ...structuredClone(old), disruptionsAllowed: 0, conditions };
}

function sameEntries(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  const ka = Object.keys(a ?? {});
  return ka.length === Object.keys(b).length && ka.every((k) => Date.parse(a![k]) === Date.parse(b[k]));
}
