// The seed care checks (Gardener pkg/gardenlet/controller/seed/care): the seed system components are healthy when
// every ManagedResource in the seed's garden namespace is applied, healthy, not progressing and observed at its
// generation, and the seed's gardener-resource-manager Deployment is available. Pure: objects in, condition out,
// with the condition thresholds (Progressing first, False only after the threshold) of the toolkit.
import {
  failedCondition,
  getOrInitCondition,
  updatedCondition,
  type Condition,
  type ConditionThresholds,
  type KubernetesObject,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { SeedCondition } from '../../constants.js';

/** A ManagedResource as far as its health goes. */
export interface ManagedResourceLike extends KubernetesObject {
  status?: {
    observedGeneration?: number;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
}

/** A Deployment as far as its availability goes. */
export interface DeploymentLike extends KubernetesObject {
  spec?: { replicas?: number };
  status?: {
    observedGeneration?: number;
    availableReplicas?: number;
    updatedReplicas?: number;
    conditions?: { type: string; status: string }[];
  };
}

/** A failed check: the reason and message for the condition. */
export interface Problem {
  reason: string;
  message: string;
}

/** Gardener's CheckManagedResource(+Progressing) for one ManagedResource. */
export function checkManagedResource(mr: ManagedResourceLike): Problem | undefined {
  const name = mr.metadata?.name ?? '';
  if (mr.metadata?.generation !== undefined && mr.status?.observedGeneration !== mr.metadata.generation) {
    return {
      reason: 'OutdatedStatus',
      message: `observed generation of managed resource "${name}" outdated (${mr.status?.observedGeneration ?? 0}/${mr.metadata.generation})`,
    };
  }
  const cond = (type: string) => mr.status?.conditions?.find((c) => c.type === type);
  for (const [type, want, reason] of [
    ['ResourcesApplied', 'True', 'ResourcesNotApplied'],
    ['ResourcesHealthy', 'True', 'ResourcesUnhealthy'],
    ['ResourcesProgressing', 'False', 'ResourcesProgressing'],
  ] as const) {
    const c = cond(type);
    if (!c) return { reason, message: `condition ${type} of managed resource "${name}" is missing` };
    if (c.status !== want) {
      return {
        reason,
        message: `condition ${type} of managed resource "${name}" has status ${c.status}${c.message ? `: ${c.message}` : ''}`,
      };
    }
  }
  return undefined;
}

/** A Deployment that exists, is observed at its generation and has all its replicas available. */
export function checkDeployment(name: string, d: DeploymentLike | undefined): Problem | undefined {
  if (!d) return { reason: 'DeploymentMissing', message: `deployment "${name}" is missing` };
  if (d.metadata?.generation !== undefined && d.status?.observedGeneration !== d.metadata.generation) {
    return { reason: 'DeploymentUnhealthy', message: `observed generation of deployment "${name}" outdated` };
  }
  const want = d.spec?.replicas ?? 1;
  const available = d.status?.availableReplicas ?? 0;
  if (available < want)
    return {
      reason: 'DeploymentUnhealthy',
      message: `deployment "${name}" has ${available}/${want} available replicas`,
    };
  return undefined;
}

/** The new SeedSystemComponentsHealthy condition from the problems found (none: True). */
export function systemComponentsCondition(
  conditions: readonly Condition[] | undefined,
  problems: readonly Problem[],
  thresholds: ConditionThresholds,
  clock: WallClock,
): Condition {
  const current = getOrInitCondition(conditions, SeedCondition.SeedSystemComponentsHealthy, clock);
  if (problems.length === 0) {
    return updatedCondition(current, 'True', 'SystemComponentsRunning', 'All system components are healthy.', {
      clock,
    });
  }
  const message = problems.map((p) => p.message).join('; ');
  return failedCondition(current, problems[0]!.reason, message, { thresholds, clock });
}
