// PodDisruptionBudgets for pods/eviction. kube-apiserver reads disruptionsAllowed from the budget's status, kept by
// kube-controller-manager's disruption controller; we have none, so the same numbers are computed from the live Pods
// at eviction time: healthy = matching Pods that are Ready and not being deleted, expected = matching Pods that
// are not terminal (kube takes the controller's scale; for Pods owned by one workload the two agree).
import { ApiError } from '../api/errors.js';
import { matchesLabelSelector } from '../api/selectors.js';
import type { Registry } from '../registry/registry.js';
import type { KubeObject } from '../storage/types.js';
import type { ObjectService } from './objects.js';

export interface BudgetCheck {
  budget?: KubeObject;
  healthy: number;
  desiredHealthy: number;
}

const isReady = (pod: KubeObject) =>
  (pod.status?.conditions ?? []).some((c: KubeObject) => c.type === 'Ready' && c.status === 'True');
const isTerminal = (pod: KubeObject) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/** An int-or-percent of `total`, percentages rounded up as kube's GetScaledValueFromIntOrPercent does for budgets. */
function scaled(value: number | string, total: number): number {
  if (typeof value === 'number') return value;
  const percent = /^(\d+)%$/.exec(value);
  if (!percent)
    throw new ApiError(500, 'InternalError', `invalid value ${JSON.stringify(value)} in PodDisruptionBudget`);
  return Math.ceil((Number(percent[1]) * total) / 100);
}

/** Pods that are terminal, pending or already being deleted can always be evicted (kube's canIgnorePDB). */
export function budgetApplies(pod: KubeObject): boolean {
  return !pod.metadata?.deletionTimestamp && !isTerminal(pod) && pod.status?.phase !== 'Pending';
}

export async function checkDisruptionBudget(
  registry: Registry,
  objects: ObjectService,
  pod: KubeObject,
): Promise<BudgetCheck> {
  const budgets = registry.get('policy', 'v1', 'poddisruptionbudgets');
  const pods = registry.get('', 'v1', 'pods');
  if (!budgets || !pods) return { healthy: 0, desiredHealthy: 0 };
  const namespace = pod.metadata.namespace;
  const labels = pod.metadata.labels ?? {};
  const matching = ((await objects.list(budgets, namespace)).items as KubeObject[]).filter(
    (b) => b.spec?.selector && Object.keys(b.spec.selector).length > 0 && matchesLabelSelector(b.spec.selector, labels),
  );
  if (matching.length === 0) return { healthy: 0, desiredHealthy: 0 };
  if (matching.length > 1) {
    throw new ApiError(
      500,
      'InternalError',
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    );
  }
  const budget = matching[0];
  const selected = ((await objects.list(pods, namespace)).items as KubeObject[]).filter((p) =>
    matchesLabelSelector(budget.spec.selector, p.metadata.labels ?? {}),
  );
  const expected = selected.filter((p) => !isTerminal(p)).length;
  const healthy = selected.filter((p) => !p.metadata.deletionTimestamp && isReady(p)).length;
  const desiredHealthy =
    budget.spec.minAvailable !== undefined
      ? scaled(budget.spec.minAvailable, expected)
      : budget.spec.maxUnavailable !== undefined
        ? Math.max(0, expected - scaled(budget.spec.maxUnavailable, expected))
        : 0;
  return { budget, healthy, desiredHealthy };
}

/** 429 as kube answers an eviction the budget does not allow. */
export function budgetViolation(check: BudgetCheck): ApiError {
  return new ApiError(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", {
    causes: [
      {
        reason: 'DisruptionBudget',
        message: `The disruption budget ${check.budget!.metadata.name} needs ${check.desiredHealthy} healthy pods and has ${check.healthy} currently`,
      },
    ],
  });
}
