// Per-kind health and rollout checks of objects managed by ManagedResources (Gardener's
// pkg/utils/kubernetes/health). Objects are plain JSON; a check returns an error message or undefined.
import { Annotation } from '../constants.js';

type Obj = Record<string, any>;

interface KubeCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}

export interface HealthResult {
  /** False when there is no dedicated check for the kind (or the check is skipped): only presence counts. */
  checked: boolean;
  /** Why the object is unhealthy; undefined when healthy. */
  error?: string;
}

export interface ProgressingResult {
  progressing: boolean;
  description: string;
}

const groupOf = (apiVersion: string | undefined) => (apiVersion?.includes('/') ? apiVersion.split('/')[0] : '');

function condition(obj: Obj, type: string): KubeCondition | undefined {
  const conditions = (obj.status?.conditions ?? []) as KubeCondition[];
  return conditions.find((c) => c.type === type);
}

function conditionState(c: KubeCondition, expected: string): string | undefined {
  if (c.status === expected) return undefined;
  return `condition "${c.type}" has invalid status ${c.status ?? ''} (expected ${expected}) due to ${c.reason ?? ''}: ${c.message ?? ''}`;
}

function requireConditions(
  obj: Obj,
  required: string[],
  optionalTrue: string[],
  optionalFalse: string[],
): string | undefined {
  for (const type of required) {
    const c = condition(obj, type);
    if (!c) return `condition "${type}" is missing`;
    const err = conditionState(c, 'True');
    if (err) return err;
  }
  for (const type of optionalTrue) {
    const c = condition(obj, type);
    const err = c && conditionState(c, 'True');
    if (err) return err;
  }
  for (const type of optionalFalse) {
    const c = condition(obj, type);
    const err = c && conditionState(c, 'False');
    if (err) return err;
  }
  return undefined;
}

function generationOutdated(obj: Obj): string | undefined {
  const observed = Number(obj.status?.observedGeneration ?? 0);
  const generation = Number(obj.metadata?.generation ?? 0);
  return observed < generation ? `observed generation outdated (${observed}/${generation})` : undefined;
}

export function checkDeployment(d: Obj): string | undefined {
  return generationOutdated(d) ?? requireConditions(d, ['Available'], ['Progressing'], ['ReplicaFailure']);
}

export function checkStatefulSet(s: Obj): string | undefined {
  const outdated = generationOutdated(s);
  if (outdated) return outdated;
  const replicas = s.spec?.replicas ?? 1;
  const ready = s.status?.readyReplicas ?? 0;
  return ready < replicas ? `not enough ready replicas (${ready}/${replicas})` : undefined;
}

/** maxUnavailable of a RollingUpdate DaemonSet, as a number of pods (percentages round down). */
function daemonSetMaxUnavailable(ds: Obj): number {
  const desired = ds.status?.desiredNumberScheduled ?? 0;
  const strategy = ds.spec?.updateStrategy;
  if (desired === 0 || (strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return 0;
  const value = strategy?.rollingUpdate?.maxUnavailable;
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(String(value));
  if (m) return Math.floor((Number(m[1]) * desired) / 100);
  const n = Number(value);
  return Number.isInteger(n) ? n : 0;
}

export function checkDaemonSet(ds: Obj): string | undefined {
  const outdated = generationOutdated(ds);
  if (outdated) return outdated;
  const st = ds.status ?? {};
  const current = st.currentNumberScheduled ?? 0;
  const desired = st.desiredNumberScheduled ?? 0;
  const unavailable = st.numberUnavailable ?? 0;
  if (current < desired) return `not enough scheduled pods (${current}/${desired})`;
  if ((st.numberMisscheduled ?? 0) > 0) return `misscheduled pods found (${st.numberMisscheduled})`;
  if ((st.updatedNumberScheduled ?? 0) < desired) {
    const max = daemonSetMaxUnavailable(ds);
    if (unavailable > max)
      return `too many unavailable pods found (${unavailable}/${current}, only max. ${max} unavailable pods allowed)`;
  } else if (unavailable > 0) {
    return `too many unavailable pods found (${unavailable}/${current})`;
  }
  return undefined;
}

export function checkReplicaSet(rs: Obj): string | undefined {
  const outdated = generationOutdated(rs);
  if (outdated) return outdated;
  const replicas = rs.spec?.replicas;
  if (replicas !== undefined && (rs.status?.readyReplicas ?? 0) < replicas)
    return 'ReplicaSet does not have minimum availability';
  return undefined;
}

export function checkReplicationController(rc: Obj): string | undefined {
  const outdated = generationOutdated(rc);
  if (outdated) return outdated;
  const replicas = rc.spec?.replicas;
  if (replicas !== undefined && (rc.status?.readyReplicas ?? 0) < replicas)
    return 'ReplicationController does not have minimum availability';
  return undefined;
}

const HEALTHY_POD_PHASES = ['Running', 'Succeeded'];

export function checkPod(pod: Obj): string | undefined {
  const phase = pod.status?.phase ?? '';
  if (HEALTHY_POD_PHASES.includes(phase)) return undefined;
  return `pod is in invalid phase "${phase}" (expected one of ["Running" "Succeeded"])`;
}

export function checkJob(job: Obj): string | undefined {
  const failed = condition(job, 'Failed');
  return failed ? conditionState(failed, 'False') : undefined;
}

export function checkService(svc: Obj): string | undefined {
  if (svc.spec?.type !== 'LoadBalancer') return undefined;
  if ((svc.status?.loadBalancer?.ingress ?? []).length > 0) return undefined;
  return 'service is missing ingress status';
}

export function checkCustomResourceDefinition(crd: Obj): string | undefined {
  return requireConditions(crd, ['NamesAccepted', 'Established'], [], ['Terminating']);
}

type Check = (obj: Obj) => string | undefined;

const CHECKS: Record<string, Check> = {
  'apiextensions.k8s.io/CustomResourceDefinition': checkCustomResourceDefinition,
  'apps/DaemonSet': checkDaemonSet,
  'apps/Deployment': checkDeployment,
  'apps/ReplicaSet': checkReplicaSet,
  'apps/StatefulSet': checkStatefulSet,
  'batch/Job': checkJob,
  '/Pod': checkPod,
  '/ReplicationController': checkReplicationController,
  '/Service': checkService,
};

/** Whether the object opted out of health checks with `resources.gardener.cloud/skip-health-check=true`. */
export function skipsHealthCheck(obj: Obj): boolean {
  return obj.metadata?.annotations?.[Annotation.SkipHealthCheck] === 'true';
}

/** Checks an object of any kind; kinds without a dedicated check are healthy when present. */
export function checkHealth(obj: Obj): HealthResult {
  if (skipsHealthCheck(obj)) return { checked: false };
  const check = CHECKS[`${groupOf(obj.apiVersion)}/${obj.kind}`];
  if (!check) return { checked: false };
  return { checked: true, error: check(obj) };
}

export function isDeploymentProgressing(d: Obj): ProgressingResult {
  const outdated = generationOutdated(d);
  if (outdated) return { progressing: true, description: outdated };
  const c = condition(d, 'Progressing');
  if (!c) return { progressing: true, description: 'condition "Progressing" is missing' };
  if (c.status !== 'True' || c.reason !== 'NewReplicaSetAvailable')
    return { progressing: true, description: c.message ?? '' };
  return { progressing: false, description: 'Deployment is fully rolled out' };
}

export function isStatefulSetProgressing(s: Obj): ProgressingResult {
  const outdated = generationOutdated(s);
  if (outdated) return { progressing: true, description: outdated };
  const desired = s.spec?.replicas ?? 1;
  const updated = s.status?.updatedReplicas ?? 0;
  if (updated < desired)
    return { progressing: true, description: `${updated} of ${desired} replica(s) have been updated` };
  return { progressing: false, description: 'StatefulSet is fully rolled out' };
}

export function isDaemonSetProgressing(ds: Obj): ProgressingResult {
  const outdated = generationOutdated(ds);
  if (outdated) return { progressing: true, description: outdated };
  const desired = ds.status?.desiredNumberScheduled ?? 0;
  const updated = ds.status?.updatedNumberScheduled ?? 0;
  if (updated < desired)
    return { progressing: true, description: `${updated} of ${desired} replica(s) have been updated` };
  return { progressing: false, description: 'DaemonSet is fully rolled out' };
}

/** Rollout check: only apps/v1 Deployments, StatefulSets and DaemonSets can be progressing. */
export function checkProgressing(obj: Obj): ProgressingResult {
  if (skipsHealthCheck(obj) || groupOf(obj.apiVersion) !== 'apps') return { progressing: false, description: '' };
  switch (obj.kind) {
    case 'Deployment':
      return isDeploymentProgressing(obj);
    case 'StatefulSet':
      return isStatefulSetProgressing(obj);
    case 'DaemonSet':
      return isDaemonSetProgressing(obj);
    default:
      return { progressing: false, description: '' };
  }
}
