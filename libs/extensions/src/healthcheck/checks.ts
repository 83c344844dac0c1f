// Ready-made health checks (Gardener's extensions/pkg/controller/healthcheck/general and worker checkers): Deployments,
// StatefulSets, DaemonSets and ManagedResources in the seed (the shoot namespace), Nodes of the shoot. Each returns a
// `CheckResult`; the per-kind rules are the resource manager's (Gardener's pkg/utils/kubernetes/health).
import {
  Kinds,
  isNotFound,
  kind,
  type Client,
  type KubernetesObject,
  type NodeObject,
} from '@gardener-ts/controller-runtime';
import {
  checkDaemonSet,
  checkDeployment,
  checkStatefulSet,
  isDeploymentProgressing,
} from '@gardener-ts/resourcemanager';
import { ErrorCode } from '@gardener-ts/api';
import type { Cluster } from '../cluster/cluster.js';
import type { ExtensionObject } from '../controller/generic/kinds.js';
import type { CheckResult } from './result.js';

/** What a check gets. */
export interface HealthCheckContext {
  /** The seed client. */
  seedClient: Pick<Client, 'get' | 'list'>;
  /** A client of the shoot cluster, for checks inside the shoot (Nodes, DaemonSets in kube-system). */
  shootClient?: () => Promise<Pick<Client, 'get' | 'list'>>;
  /** The extension object's namespace (the shoot namespace in the seed). */
  namespace: string;
  object: ExtensionObject;
  cluster?: Cluster;
}

/** A health check: resolves to a result, rejects when it could not be performed. */
export type HealthCheck = (ctx: HealthCheckContext) => Promise<CheckResult>;

type Getter = (ctx: HealthCheckContext) => Promise<Pick<Client, 'get' | 'list'>>;
const seed: Getter = (ctx) => Promise.resolve(ctx.seedClient);
const shoot: Getter = (ctx) => {
  if (!ctx.shootClient) return Promise.reject(new Error('no shoot client configured for a check in the shoot'));
  return ctx.shootClient();
};

function workloadCheck(
  kindName: 'Deployment' | 'StatefulSet' | 'DaemonSet',
  name: string,
  where: Getter,
  namespaceOf: (ctx: HealthCheckContext) => string,
  check: (obj: Record<string, any>) => string | undefined,
  progressingThresholdMs?: number,
): HealthCheck {
  return async (ctx) => {
    const client = await where(ctx);
    const namespace = namespaceOf(ctx);
    let obj: KubernetesObject;
    try {
      obj = await client.get(Kinds[kindName], { namespace, name });
    } catch (err) {
      if (isNotFound(err))
        return { status: 'False', detail: `${kindName} "${name}" in namespace "${namespace}" not found` };
      throw err;
    }
    const problem = check(obj as Record<string, any>);
    if (problem)
      return { status: 'False', detail: `${kindName} "${name}" in namespace "${namespace}" is unhealthy: ${problem}` };
    if (kindName === 'Deployment' && progressingThresholdMs !== undefined) {
      const progressing = isDeploymentProgressing(obj as Record<string, any>);
      if (progressing.progressing)
        return {
          status: 'Progressing',
          detail: `${kindName} "${name}" is progressing: ${progressing.description}`,
          progressingThresholdMs,
        };
    }
    return { status: 'True' };
  };
}

/** The Deployment `name` in the shoot namespace of the seed is healthy (available, no replica failure, generation observed). */
export function seedDeploymentCheck(name: string, options: { progressingThresholdMs?: number } = {}): HealthCheck {
  return workloadCheck(
    'Deployment',
    name,
    seed,
    (ctx) => ctx.namespace,
    checkDeployment,
    options.progressingThresholdMs,
  );
}

/** The StatefulSet `name` in the shoot namespace of the seed has all replicas ready. */
export function seedStatefulSetCheck(name: string): HealthCheck {
  return workloadCheck('StatefulSet', name, seed, (ctx) => ctx.namespace, checkStatefulSet);
}

/** The DaemonSet `name` in the shoot namespace of the seed runs everywhere it should. */
export function seedDaemonSetCheck(name: string): HealthCheck {
  return workloadCheck('DaemonSet', name, seed, (ctx) => ctx.namespace, checkDaemonSet);
}

/** The Deployment `name` in the shoot (namespace `kube-system` by default) is healthy. */
export function shootDeploymentCheck(name: string, namespace = 'kube-system'): HealthCheck {
  return workloadCheck('Deployment', name, shoot, () => namespace, checkDeployment);
}

/** The DaemonSet `name` in the shoot (namespace `kube-system` by default) runs everywhere it should. */
export function shootDaemonSetCheck(name: string, namespace = 'kube-system'): HealthCheck {
  return workloadCheck('DaemonSet', name, shoot, () => namespace, checkDaemonSet);
}

interface ManagedResourceObject extends KubernetesObject {
  status?: {
    observedGeneration?: number;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
}
const ManagedResourceKind = kind<ManagedResourceObject>('resources.gardener.cloud/v1alpha1', 'ManagedResource');

/** An apply the API server rejected as invalid: the user's configuration, not the platform, has to change. */
const configurationProblem = /error during apply of object .* is invalid:/i;

/**
 * The ManagedResource `name` in the shoot namespace has been applied and its objects are healthy; while its objects
 * roll out (`ResourcesProgressing=True`) the result is Progressing (with the threshold, if given). A failed apply of an
 * invalid object carries `ERR_CONFIGURATION_PROBLEM`, as in Gardener's `CheckManagedResource`.
 */
export function managedResourceCheck(name: string, options: { progressingThresholdMs?: number } = {}): HealthCheck {
  return async (ctx) => {
    let mr: ManagedResourceObject;
    try {
      mr = await ctx.seedClient.get(ManagedResourceKind, { namespace: ctx.namespace, name });
    } catch (err) {
      if (isNotFound(err))
        return { status: 'False', detail: `ManagedResource "${name}" in namespace "${ctx.namespace}" not found` };
      throw err;
    }
    const problem = managedResourceProblem(mr);
    if (problem) {
      const detail = `ManagedResource "${name}" is unhealthy: ${problem}`;
      return configurationProblem.test(detail)
        ? { status: 'False', detail, codes: [ErrorCode.ConfigurationProblem] }
        : { status: 'False', detail };
    }
    const progressing = mr.status?.conditions?.find((c) => c.type === 'ResourcesProgressing');
    if (progressing?.status === 'True') {
      return {
        status: 'Progressing',
        detail: `ManagedResource "${name}" is progressing: ${progressing.message ?? ''}`,
        ...(options.progressingThresholdMs !== undefined
          ? { progressingThresholdMs: options.progressingThresholdMs }
          : {}),
      };
    }
    return { status: 'True' };
  };
}

/** Why a ManagedResource is unhealthy (Gardener's `CheckManagedResource`), or undefined. */
export function managedResourceProblem(mr: ManagedResourceObject): string | undefined {
  const generation = mr.metadata?.generation ?? 0;
  const observed = mr.status?.observedGeneration ?? 0;
  if (observed < generation) return `observed generation of managed resource outdated (${observed}/${generation})`;
  for (const type of ['ResourcesApplied', 'ResourcesHealthy']) {
    const c = mr.status?.conditions?.find((x) => x.type === type);
    if (!c) return `condition ${type} has not been reported yet`;
    if (c.status !== 'True')
      return `condition ${type} has invalid status ${c.status} (expected True) due to ${c.reason ?? ''}: ${c.message ?? ''}`;
  }
  return undefined;
}

/**
 * Every Node of the shoot is Ready (Gardener's worker health checker reports EveryNodeReady this way); with
 * `expectedNodes` also that there are at least that many.
 */
export function shootNodesCheck(options: { expectedNodes?: (ctx: HealthCheckContext) => number } = {}): HealthCheck {
  return async (ctx) => {
    const client = await shoot(ctx);
    const nodes = (await client.list(Kinds.Node)).items as NodeObject[];
    const notReady = nodes.filter((n) => n.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True');
    if (notReady.length > 0) {
      const names = notReady.map((n) => n.metadata?.name ?? '').sort();
      return { status: 'False', detail: `Node(s) ${names.join(', ')} not ready` };
    }
    const expected = options.expectedNodes?.(ctx);
    if (expected !== undefined && nodes.length < expected) {
      return { status: 'Progressing', detail: `not enough nodes registered (${nodes.length}/${expected})` };
    }
    return { status: 'True' };
  };
}
