// The shoot care checks (Gardener's pkg/gardenlet/controller/shoot/care/health.go and its health checker): the five
// conditions APIServerAvailable, ControlPlaneHealthy, ObservabilityComponentsHealthy, EveryNodeReady and
// SystemComponentsHealthy from the objects the reconciler read — control plane Deployments and Etcds,
// ManagedResources, extension conditions with their heartbeats, the shoot's Nodes and node-agent Leases, the /healthz
// answer. Pure: objects in, conditions out, with Gardener's reasons, messages, error codes and the condition
// thresholds (a failing check turns a healthy condition Progressing first, False only after its threshold).
import { ErrorCode, Labels, ShootConditionType } from '@gardener-ts/api';
import {
  failedCondition,
  getOrInitCondition,
  updatedCondition,
  updatedConditionUnknownError,
  type Condition,
  type ConditionThresholds,
  type ErrorCode as ErrorCodeType,
  type KubernetesObject,
  type LastOperationInfo,
  type WallClock,
} from '@gardener-ts/controller-runtime';

/** A condition as objects report them (Deployments, Nodes, ManagedResources, extensions). */
export interface ObjectCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
  codes?: string[];
}

/** A Deployment as far as its health goes. */
export interface DeploymentLike extends KubernetesObject {
  spec?: { replicas?: number };
  status?: { observedGeneration?: number; conditions?: ObjectCondition[] };
}

/** An Etcd (druid.gardener.cloud/v1alpha1) as far as its health goes. */
export interface EtcdLike extends KubernetesObject {
  status?: {
    ready?: boolean;
    conditions?: ObjectCondition[];
    lastErrors?: { description?: string; codes?: string[] }[];
  };
}

/** A ManagedResource as far as its health goes. */
export interface ManagedResourceLike extends KubernetesObject {
  spec?: { class?: string };
  status?: { observedGeneration?: number; conditions?: ObjectCondition[] };
}

/** A Node as far as its health goes. */
export interface NodeLike extends KubernetesObject {
  spec?: { unschedulable?: boolean };
  status?: { conditions?: ObjectCondition[]; nodeInfo?: { kubeletVersion?: string } };
}

/** A Lease as far as its renewal goes. */
export interface LeaseLike extends KubernetesObject {
  spec?: { renewTime?: string; leaseDurationSeconds?: number };
}

/** A health condition an extension resource reports, with the extension's last heartbeat (Gardener's `ExtensionCondition`). */
export interface ExtensionCondition {
  condition: ObjectCondition;
  /** The extension resource's kind (`Worker`, `ControlPlane`, ...). */
  extensionType: string;
  extensionName: string;
  extensionNamespace: string;
  /** RFC 3339; undefined when the extension has no heartbeat Lease. */
  lastHeartbeatTime?: string;
}

/** A worker pool as the checks need it. */
export interface WorkerPool {
  name: string;
  minimum: number;
  /** The pool's effective Kubernetes version (`x.y.z`). */
  kubernetesVersion: string;
}

/** What every check needs: the clock, the thresholds of `controllers.shootCare.conditionThresholds`, the last operation. */
export interface CheckContext {
  clock: WallClock;
  thresholds: ConditionThresholds;
  lastOperation?: LastOperationInfo;
}

/** The care label of a ManagedResource telling which condition it counts for (`care.gardener.cloud/condition-type`). */
export const LabelCareConditionType = 'care.gardener.cloud/condition-type';
/** Annotation on a Node that machine-controller-manager does not manage it (`"1"`). */
export const AnnotationNotManagedByMCM = 'node.machine.sapcloud.io/not-managed-by-mcm';
/** Prefix of gardener-node-agent's Lease per node in the shoot's kube-system. */
export const NodeAgentLeasePrefix = 'gardener-node-agent-';
/** The Etcds every shoot control plane has. */
export const RequiredControlPlaneEtcds = ['etcd-events', 'etcd-main'] as const;

const fail = (ctx: CheckContext, c: Condition, reason: string, message: string, codes?: ErrorCodeType[]) =>
  failedCondition(c, reason, message, {
    thresholds: ctx.thresholds,
    clock: ctx.clock,
    ...(ctx.lastOperation ? { lastOperation: ctx.lastOperation } : {}),
    ...(codes?.length ? { codes } : {}),
  });
const succeed = (ctx: CheckContext, c: Condition, reason: string, message: string) =>
  updatedCondition(c, 'True', reason, message, { clock: ctx.clock });

/** Go's `time.Duration.String()` for whole seconds and more (`5m0s`, `1h30m0s`, `30s`). */
export function goDuration(ms: number): string {
  let s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

const conditionOf = (conditions: readonly ObjectCondition[] | undefined, type: string) =>
  conditions?.find((c) => c.type === type);

/** Gardener's `checkConditionState` error text. */
function invalidStatus(c: ObjectCondition, expected: string): string {
  return `condition "${c.type}" has invalid status ${c.status} (expected ${expected}) due to ${c.reason ?? ''}: ${c.message ?? ''}`;
}

/** Why a Deployment is unhealthy (Gardener's `health.CheckDeployment`), or undefined when it is healthy. */
export function deploymentProblem(d: DeploymentLike): string | undefined {
  const generation = d.metadata?.generation ?? 0;
  const observed = d.status?.observedGeneration ?? 0;
  if (observed < generation) return `observed generation outdated (${observed}/${generation})`;
  const available = conditionOf(d.status?.conditions, 'Available');
  if (!available) return 'condition "Available" is missing';
  if (available.status !== 'True') return invalidStatus(available, 'True');
  const progressing = conditionOf(d.status?.conditions, 'Progressing');
  if (progressing && progressing.status !== 'True') return invalidStatus(progressing, 'True');
  const replicaFailure = conditionOf(d.status?.conditions, 'ReplicaFailure');
  if (replicaFailure && replicaFailure.status !== 'False') return invalidStatus(replicaFailure, 'False');
  return undefined;
}

/** Why an Etcd is unhealthy (Gardener's `health.CheckEtcd`), or undefined when it is healthy. */
export function etcdProblem(etcd: EtcdLike): string | undefined {
  const name = etcd.metadata?.name ?? '';
  if (etcd.status?.ready !== true) return `etcd "${name}" is not ready yet`;
  const backup = conditionOf(etcd.status.conditions, 'BackupReady');
  if (backup?.status === 'False') return `backup for etcd "${name}" is reported as unready: ${backup.message ?? ''}`;
  return undefined;
}

/** Why a Node is unhealthy (Gardener's `health.CheckNode`), or undefined when it is healthy. */
export function nodeProblem(node: NodeLike): string | undefined {
  const ready = conditionOf(node.status?.conditions, 'Ready');
  if (!ready) return 'condition "Ready" is missing';
  if (ready.status !== 'True') return invalidStatus(ready, 'True');
  for (const type of ['DiskPressure', 'MemoryPressure', 'NetworkUnavailable', 'PIDPressure']) {
    const c = conditionOf(node.status?.conditions, type);
    if (c && c.status !== 'False') return invalidStatus(c, 'False');
  }
  return undefined;
}

const missing = (required: readonly string[], present: Iterable<string>) => {
  const have = new Set(present);
  return [...new Set(required)].filter((n) => !have.has(n)).sort();
};

/** Gardener's `IsWorkerless`: a shoot without worker pools. */
export function isWorkerless(workers: readonly unknown[] | undefined): boolean {
  return (workers ?? []).length === 0;
}

/**
 * The control plane Deployments a shoot must have (Gardener's `ComputeRequiredControlPlaneDeployments`):
 * gardener-resource-manager, kube-apiserver, kube-controller-manager, and kube-scheduler when it has workers.
 * machine-controller-manager is not required: provider-local's machine controller plays it inside the extension.
 */
export function requiredControlPlaneDeployments(workerless: boolean): string[] {
  const required = ['gardener-resource-manager', 'kube-apiserver', 'kube-controller-manager'];
  if (!workerless) required.push('kube-scheduler');
  return required.sort();
}

/**
 * Gardener's `CheckExtensionCondition`: the first extension condition that is stale (its extension's heartbeat older
 * than `staleThresholdMs`, or none), Progressing, False or Unknown decides the condition; undefined when all are fine.
 */
export function checkExtensionConditions(
  ctx: CheckContext,
  condition: Condition,
  extensionConditions: readonly ExtensionCondition[],
  staleThresholdMs: number | undefined,
): Condition | undefined {
  const now = ctx.clock.now().getTime();
  for (const ext of extensionConditions) {
    const who = `${ext.extensionType} extension (${ext.extensionNamespace}/${ext.extensionName})`;
    if (staleThresholdMs !== undefined) {
      const heartbeat = ext.lastHeartbeatTime ? Date.parse(ext.lastHeartbeatTime) : 0;
      if (now - heartbeat > staleThresholdMs) {
        const at = ext.lastHeartbeatTime ?? '0001-01-01T00:00:00Z';
        const age =
          heartbeat === 0 ? 'never' : `${goDuration(Math.round((now - heartbeat) / 60_000) * 60_000)} ago at ${at}`;
        return updatedCondition(
          condition,
          'Unknown',
          `${ext.extensionType}OutdatedHealthCheckReport`,
          `${who} reports an outdated health status (last updated: ${age}).`,
          { clock: ctx.clock },
        );
      }
    }
    const c = ext.condition;
    if (c.status === 'Progressing') {
      return updatedCondition(condition, 'Progressing', ext.extensionType + (c.reason ?? ''), c.message ?? '', {
        clock: ctx.clock,
        codes: c.codes ?? [],
      });
    }
    if (c.status === 'False' || c.status === 'Unknown') {
      return fail(
        ctx,
        condition,
        `${ext.extensionType}UnhealthyReport`,
        `${who} reports failing health check: ${c.message ?? ''}`,
        c.codes,
      );
    }
  }
  return undefined;
}

/**
 * Gardener's `CheckManagedResource`: observed at its generation, `ResourcesApplied` and `ResourcesHealthy` not False or
 * Unknown, `ResourcesProgressing` not True or Unknown — unless it has been progressing for less than
 * `progressingThresholdMs` (`controllers.shootCare.managedResourceProgressingThreshold`), after which it is a stuck
 * rollout. Undefined when healthy.
 */
export function checkManagedResource(
  ctx: CheckContext,
  condition: Condition,
  mr: ManagedResourceLike,
  progressingThresholdMs: number | undefined,
): Condition | undefined {
  const name = mr.metadata?.name ?? '';
  const generation = mr.metadata?.generation ?? 0;
  const observed = mr.status?.observedGeneration ?? 0;
  if (generation !== observed) {
    const applied = conditionOf(mr.status?.conditions, 'ResourcesApplied');
    if (applied?.status === 'False' && applied.reason === 'ApplyFailed') {
      return fail(ctx, condition, applied.reason, applied.message ?? '');
    }
    return fail(
      ctx,
      condition,
      'OutdatedStatus',
      `observed generation of managed resource '${mr.metadata?.namespace}/${name}' outdated (${observed}/${generation})`,
    );
  }
  const now = ctx.clock.now().getTime();
  const healthy: Record<string, (c: ObjectCondition) => boolean> = {
    ResourcesApplied: (c) => c.status !== 'False' && c.status !== 'Unknown',
    ResourcesHealthy: (c) => c.status !== 'False' && c.status !== 'Unknown',
    ResourcesProgressing: (c) => {
      const notProgressing = c.status !== 'True' && c.status !== 'Unknown';
      if (notProgressing || progressingThresholdMs === undefined) return notProgressing;
      const since = c.lastTransitionTime ? now - Date.parse(c.lastTransitionTime) : Infinity;
      return since < progressingThresholdMs;
    },
  };
  const absent: string[] = [];
  for (const type of ['ResourcesApplied', 'ResourcesHealthy', 'ResourcesProgressing']) {
    const c = conditionOf(mr.status?.conditions, type);
    if (!c) {
      absent.push(type);
      continue;
    }
    if (healthy[type]!(c)) continue;
    if (type === 'ResourcesProgressing' && progressingThresholdMs !== undefined) {
      return fail(
        ctx,
        condition,
        'ProgressingRolloutStuck',
        `ManagedResource ${name} is progressing for more than ${goDuration(progressingThresholdMs)}`,
      );
    }
    return fail(ctx, condition, c.reason ?? '', c.message ?? '');
  }
  if (absent.length > 0) {
    return fail(
      ctx,
      condition,
      'MissingManagedResourceCondition',
      `ManagedResource ${name} is missing the following condition(s), [${absent.join(' ')}]`,
    );
  }
  return undefined;
}

/** The first ManagedResource (of those `filter` selects) that is not healthy decides; undefined when all are. */
export function checkManagedResources(
  ctx: CheckContext,
  condition: Condition,
  mrs: readonly ManagedResourceLike[],
  filter: (mr: ManagedResourceLike) => boolean,
  progressingThresholdMs: number | undefined,
): Condition | undefined {
  for (const mr of mrs) {
    if (!filter(mr)) continue;
    const failed = checkManagedResource(ctx, condition, mr, progressingThresholdMs);
    if (failed) return failed;
  }
  return undefined;
}

const careType = (mr: ManagedResourceLike) => mr.metadata?.labels?.[LabelCareConditionType];

/** ManagedResources of the control plane: with a class (seed side) and no other care condition type. */
export const isControlPlaneMR = (mr: ManagedResourceLike): boolean =>
  mr.spec?.class !== undefined && [undefined, '', ShootConditionType.ControlPlaneHealthy].includes(careType(mr));
/** ManagedResources of the shoot's system components: without a class (shoot side) or labelled for them. */
export const isSystemComponentsMR = (mr: ManagedResourceLike): boolean =>
  mr.spec?.class === undefined || careType(mr) === ShootConditionType.SystemComponentsHealthy;
/** ManagedResources labelled for the observability components. */
export const isObservabilityMR = (mr: ManagedResourceLike): boolean =>
  careType(mr) === ShootConditionType.ObservabilityComponentsHealthy;

/** What the ControlPlaneHealthy check reads from the control plane namespace. */
export interface ControlPlaneInput {
  /** Deployments labelled `gardener.cloud/role=controlplane`. */
  deployments: readonly DeploymentLike[];
  /** Etcds labelled `gardener.cloud/role=controlplane`. */
  etcds: readonly EtcdLike[];
  managedResources: readonly ManagedResourceLike[];
  extensionConditions: readonly ExtensionCondition[];
  workerless: boolean;
  staleThresholdMs?: number;
  progressingThresholdMs?: number;
}

/** ControlPlaneHealthy (Gardener's `checkControlPlane`): required Etcds and Deployments present and healthy, MRs. */
export function checkControlPlane(ctx: CheckContext, condition: Condition, input: ControlPlaneInput): Condition {
  const ext = checkExtensionConditions(ctx, condition, input.extensionConditions, input.staleThresholdMs);
  if (ext) return ext;
  const missingEtcds = missing(
    RequiredControlPlaneEtcds,
    input.etcds.map((e) => e.metadata?.name ?? ''),
  );
  if (missingEtcds.length > 0) {
    return fail(ctx, condition, 'EtcdMissing', `Missing required etcds: [${missingEtcds.join(' ')}]`);
  }
  for (const etcd of input.etcds) {
    const problem = etcdProblem(etcd);
    if (!problem) continue;
    const errors = etcd.status?.lastErrors ?? [];
    const suffix = errors.length ? ` (${errors.map((e) => e.description ?? '').join('; ')})` : '';
    return fail(
      ctx,
      condition,
      'EtcdUnhealthy',
      `Etcd extension resource "${etcd.metadata?.name}" is unhealthy: ${problem}${suffix}`,
      errors.flatMap((e) => e.codes ?? []),
    );
  }
  const missingDeployments = missing(
    requiredControlPlaneDeployments(input.workerless),
    input.deployments.map((d) => d.metadata?.name ?? ''),
  );
  if (missingDeployments.length > 0) {
    return fail(ctx, condition, 'DeploymentMissing', `Missing required deployments: [${missingDeployments.join(' ')}]`);
  }
  for (const d of input.deployments) {
    const problem = deploymentProblem(d);
    if (problem) {
      return fail(ctx, condition, 'DeploymentUnhealthy', `Deployment "${d.metadata?.name}" is unhealthy: ${problem}`);
    }
  }
  const mr = checkManagedResources(
    ctx,
    condition,
    input.managedResources,
    isControlPlaneMR,
    input.progressingThresholdMs,
  );
  if (mr) return mr;
  return succeed(ctx, condition, 'ControlPlaneRunning', 'All control plane components are healthy.');
}

/** What the checks of ManagedResources and extension reports alone read. */
export type ComponentsInput = Pick<
  ControlPlaneInput,
  'managedResources' | 'extensionConditions' | 'staleThresholdMs' | 'progressingThresholdMs'
>;

/** Extension reports first, then the ManagedResources `filter` selects; True with `reason` and `message` when fine. */
function checkComponents(
  ctx: CheckContext,
  condition: Condition,
  input: ComponentsInput,
  filter: (mr: ManagedResourceLike) => boolean,
  healthy: { reason: string; message: string },
): Condition {
  return (
    checkExtensionConditions(ctx, condition, input.extensionConditions, input.staleThresholdMs) ??
    checkManagedResources(ctx, condition, input.managedResources, filter, input.progressingThresholdMs) ??
    succeed(ctx, condition, healthy.reason, healthy.message)
  );
}

/**
 * ObservabilityComponentsHealthy (Gardener's `checkObservabilityComponents` with monitoring and logging disabled, as
 * `monitoring.shoot.enabled: false` does): no monitoring or logging stack runs for shoots here, so only extension
 * conditions and ManagedResources labelled for this condition are checked, and a True condition says so.
 */
export function checkObservabilityComponents(
  ctx: CheckContext,
  condition: Condition,
  input: ComponentsInput,
): Condition {
  return checkComponents(ctx, condition, input, isObservabilityMR, {
    reason: 'ObservabilityComponentsRunning',
    message: 'All observability components are healthy. No monitoring or logging stack is deployed for this shoot.',
  });
}

/**
 * SystemComponentsHealthy (Gardener's `checkSystemComponents`): extension conditions and the shoot's ManagedResources.
 * Gardener's VPN tunnel check is left out: no VPN runs between a local seed and its shoots.
 */
export function checkSystemComponents(ctx: CheckContext, condition: Condition, input: ComponentsInput): Condition {
  return checkComponents(ctx, condition, input, isSystemComponentsMR, {
    reason: 'SystemComponentsRunning',
    message: 'All system components are healthy.',
  });
}

/** `x.y.z` of a version string (`v1.31.1` → [1, 31, 1]); undefined when it is none. */
function parseVersion(v: string | undefined): [number, number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(v ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/**
 * Gardener's kubelet version rule: a node whose kubelet has the pool's major.minor but an older patch than the pool's
 * version (`~kubelet` matches the desired version, `=kubelet` does not) runs a mismatching kubelet.
 */
export function kubeletVersionMismatch(kubeletVersion: string | undefined, desired: string): boolean {
  const k = parseVersion(kubeletVersion);
  const d = parseVersion(desired);
  if (!k || !d) return false;
  return k[0] === d[0] && k[1] === d[1] && d[2] > k[2];
}

const kubeletConfigProblem = /KubeletHasInsufficientMemory|KubeletHasDiskPressure|KubeletHasInsufficientPID/i;

/** What the EveryNodeReady check reads from the shoot. */
export interface NodesInput {
  pools: readonly WorkerPool[];
  nodes: readonly NodeLike[];
  /** Leases in the shoot's kube-system (gardener-node-agent's `gardener-node-agent-<node>`). */
  leases: readonly LeaseLike[];
  extensionConditions: readonly ExtensionCondition[];
  staleThresholdMs?: number;
}

/**
 * EveryNodeReady (Gardener's `checkWorkers` and `CheckClusterNodes`): per worker pool, every node healthy and running
 * the pool's kubelet version, at least `minimum` nodes registered; every node managed by machines has a live
 * gardener-node-agent Lease and healthy systemd units. Gardener's checks of MachineDeployments (scaling, rolling
 * update), the OSC checksum and expired node Leases are not done here yet.
 */
export function checkNodes(ctx: CheckContext, condition: Condition, input: NodesInput): Condition {
  const ext = checkExtensionConditions(ctx, condition, input.extensionConditions, input.staleThresholdMs);
  if (ext) return ext;
  const byPool = new Map<string, NodeLike[]>();
  for (const node of input.nodes) {
    const pool = node.metadata?.labels?.[Labels.WorkerPool];
    if (pool === undefined) continue;
    byPool.set(pool, [...(byPool.get(pool) ?? []), node]);
  }
  for (const pool of input.pools) {
    const nodes = byPool.get(pool.name) ?? [];
    for (const node of nodes) {
      const name = node.metadata?.name ?? '';
      const problem = nodeProblem(node);
      if (problem) {
        const codes = kubeletConfigProblem.test(problem) ? [ErrorCode.ConfigurationProblem] : [];
        return fail(
          ctx,
          condition,
          'NodeUnhealthy',
          `Node "${name}" in worker group "${pool.name}" is unhealthy: ${problem}`,
          codes,
        );
      }
      const kubelet = node.status?.nodeInfo?.kubeletVersion;
      if (kubeletVersionMismatch(kubelet, pool.kubernetesVersion)) {
        return fail(
          ctx,
          condition,
          'KubeletVersionMismatch',
          `The kubelet version for node "${name}" (${kubelet}) does not match the desired Kubernetes version (v${pool.kubernetesVersion})`,
        );
      }
    }
    if (nodes.length < pool.minimum) {
      return fail(
        ctx,
        condition,
        'MissingNodes',
        `Not enough worker nodes registered in worker pool "${pool.name}" to meet minimum desired machine count. (${nodes.length}/${pool.minimum}).`,
      );
    }
  }
  const managed = input.nodes.filter((n) => n.metadata?.annotations?.[AnnotationNotManagedByMCM] !== '1');
  const leases = new Map(input.leases.map((l) => [l.metadata?.name ?? '', l]));
  const now = ctx.clock.now().getTime();
  for (const node of managed) {
    const name = node.metadata?.name ?? '';
    const lease = leases.get(NodeAgentLeasePrefix + name);
    if (!lease)
      return fail(ctx, condition, 'NodeAgentUnhealthy', `gardener-node-agent is not running on node "${name}"`);
    const renewed = lease.spec?.renewTime ? Date.parse(lease.spec.renewTime) : 0;
    if (renewed + (lease.spec?.leaseDurationSeconds ?? 0) * 1000 < now) {
      return fail(ctx, condition, 'NodeAgentUnhealthy', `gardener-node-agent stopped running on node "${name}"`);
    }
  }
  const units = managed.flatMap((node) => {
    const c = conditionOf(node.status?.conditions, 'SystemdUnitsReady');
    return c && c.status !== 'True' ? [`node "${node.metadata?.name}": ${c.message ?? ''}`] : [];
  });
  if (units.length > 0) {
    return fail(ctx, condition, 'SystemdUnitsNotReady', `systemd units are not healthy on ${units.join('; ')}`);
  }
  return succeed(ctx, condition, 'EveryNodeReady', 'All nodes are ready.');
}

/** The answer of the shoot API server's /healthz: its status code and body, or the error of the request. */
export type HealthzResult = { statusCode: number; body: string } | { error: string };

/** APIServerAvailable from the /healthz answer (Gardener's `CheckAPIServerAvailability`). */
export function checkAPIServerAvailability(ctx: CheckContext, condition: Condition, result: HealthzResult): Condition {
  if ('error' in result) {
    return fail(
      ctx,
      condition,
      'HealthzRequestFailed',
      `Request to API server /healthz endpoint failed. (${result.error})`,
    );
  }
  if (result.statusCode !== 200) {
    return fail(
      ctx,
      condition,
      'HealthzRequestError',
      `API server /healthz endpoint check returned a non ok status code ${result.statusCode}. (${result.body})`,
    );
  }
  return succeed(
    ctx,
    condition,
    'HealthzRequestSucceeded',
    'API server /healthz endpoint responded with success status code.',
  );
}

/** The shoot conditions the care reconciler maintains, read from the Shoot's status or initialized. */
export interface ShootConditions {
  apiServerAvailable: Condition;
  controlPlaneHealthy: Condition;
  observabilityComponentsHealthy: Condition;
  /** Absent for a workerless shoot. */
  everyNodeReady?: Condition;
  systemComponentsHealthy: Condition;
}

/** Gardener's `NewShootConditions`: the current conditions of the shoot, initialized (Unknown) when missing. */
export function shootConditions(
  conditions: readonly Condition[] | undefined,
  workerless: boolean,
  clock: WallClock,
): ShootConditions {
  const get = (type: string) => getOrInitCondition(conditions, type, clock);
  return {
    apiServerAvailable: get(ShootConditionType.APIServerAvailable),
    controlPlaneHealthy: get(ShootConditionType.ControlPlaneHealthy),
    observabilityComponentsHealthy: get(ShootConditionType.ObservabilityComponentsHealthy),
    ...(workerless ? {} : { everyNodeReady: get(ShootConditionType.EveryNodeReady) }),
    systemComponentsHealthy: get(ShootConditionType.SystemComponentsHealthy),
  };
}

/** The conditions in Gardener's order. */
export function conditionList(c: ShootConditions): Condition[] {
  return [
    c.apiServerAvailable,
    c.controlPlaneHealthy,
    c.observabilityComponentsHealthy,
    ...(c.everyNodeReady ? [c.everyNodeReady] : []),
    c.systemComponentsHealthy,
  ];
}

/** The condition types the care reconciler owns for a shoot (a workerless one has no EveryNodeReady). */
export function conditionTypes(workerless: boolean): string[] {
  return [
    ShootConditionType.APIServerAvailable,
    ShootConditionType.ControlPlaneHealthy,
    ShootConditionType.ObservabilityComponentsHealthy,
    ...(workerless ? [] : [ShootConditionType.EveryNodeReady]),
    ShootConditionType.SystemComponentsHealthy,
  ];
}

/** Every condition True with `ConditionNotChecked`: a hibernated shoot is not checked (Gardener's). */
export function hibernatedConditions(conditions: readonly Condition[], clock: WallClock): Condition[] {
  return conditions.map((c) =>
    updatedCondition(c, 'True', 'ConditionNotChecked', 'Shoot cluster has been hibernated.', { clock }),
  );
}

/** Every condition False with `ManagedResourceListingFailed` (the ManagedResources could not be listed). */
export function managedResourceListingFailedConditions(
  conditions: readonly Condition[],
  err: string,
  clock: WallClock,
): Condition[] {
  return conditions.map((c) =>
    updatedCondition(c, 'False', 'ManagedResourceListingFailed', `Failed listing ManagedResources: ${err}`, { clock }),
  );
}

/** The shoot's last operation, as the care checks read it. */
export interface LastOperationLike {
  type?: string;
  state?: string;
  lastUpdateTime?: string;
}

/** Why the checks that need the shoot API server cannot run (Gardener's `shootControlPlaneNotRunningMessage`). */
export function controlPlaneNotRunningMessage(lastOperation: LastOperationLike | undefined): string {
  if (!lastOperation || lastOperation.type === 'Create') return 'Shoot control plane has not been fully created yet.';
  if (lastOperation.type === 'Delete') return 'Shoot control plane has already been or is about to be deleted.';
  return 'Shoot control plane is not running at the moment.';
}

/** The conditions that need a shoot client, when the shoot's API server is not running or cannot be reached. */
export function apiServerDownConditions(
  ctx: CheckContext,
  c: ShootConditions,
  lastOperation: LastOperationLike | undefined,
  clientError: string | undefined,
): Pick<ShootConditions, 'apiServerAvailable' | 'systemComponentsHealthy' | 'everyNodeReady'> {
  const message =
    clientError === undefined
      ? controlPlaneNotRunningMessage(lastOperation)
      : `Could not initialize Shoot client for health check: ${clientError}`;
  const unknown = (cond: Condition) => updatedConditionUnknownError(cond, new Error(message), { clock: ctx.clock });
  return {
    apiServerAvailable: fail(
      ctx,
      c.apiServerAvailable,
      'APIServerDown',
      'Could not reach API server during client initialization.',
    ),
    systemComponentsHealthy: unknown(c.systemComponentsHealthy),
    ...(c.everyNodeReady ? { everyNodeReady: unknown(c.everyNodeReady) } : {}),
  };
}

/**
 * Gardener's `PardonConditions`: while the shoot is being created or deleted (and that has not succeeded), or an
 * operation is processing without errors, a False condition is reported as Progressing — the shoot is not expected to
 * be healthy yet.
 */
export function pardonConditions(
  conditions: readonly Condition[],
  lastOperation: LastOperationLike | undefined,
  lastErrors: readonly unknown[] | undefined,
  clock: WallClock,
): Condition[] {
  const unstable =
    !lastOperation ||
    ((lastOperation.type === 'Create' || lastOperation.type === 'Delete') && lastOperation.state !== 'Succeeded') ||
    (lastOperation.state === 'Processing' && (lastErrors === undefined || lastErrors.length === 0));
  return conditions.map((c) =>
    unstable && c.status === 'False'
      ? updatedCondition(c, 'Progressing', c.reason, c.message, { clock, codes: c.codes ?? [] })
      : c,
  );
}
