// The health of a machine, decided as machine-controller-manager does (pkg/util/provider/machinecontroller/
// machine_util.go, reconcileMachineHealth and tryMarkingMachineFailed): a Running machine whose Node is not Ready, has
// a failing condition or went missing turns Unknown, and Running again when the Node is healthy; a machine Unknown
// longer than the health timeout, or Pending longer than the creation timeout, turns Failed (the MachineSet replaces
// it). In the local world the machine's Pod is its VM: a machine Pod that is not ready is an unhealthy machine too.
// A shoot that cannot be reached decides nothing (MCM freezes its machine controller then, machine_safety.go). A machine
// being created joins only when its Node reports after its VM was created (a Node kept from before — a machine restored
// after a control plane migration — is not its kubelet's yet). Pure.
import { formatDuration } from '@gardener-ts/api';
import type { Machine, MachinePhase } from '../../objects.js';

/** machine-controller-manager's `--machine-creation-timeout` default: a Pending machine fails after it. */
export const DefaultMachineCreationTimeoutMs = 20 * 60_000;
/** machine-controller-manager's `--machine-health-timeout` default: an Unknown machine fails after it. */
export const DefaultMachineHealthTimeoutMs = 10 * 60_000;
/**
 * How often a Running or Unknown machine is looked at again without an event (a resync: the Nodes of its shoot are
 * watched, ./node-watch.ts, so a Node's change is seen at once and this only reads the watch's cache); it also bounds
 * how late an Unknown machine's health timeout fires.
 */
export const DefaultHealthCheckPeriodMs = 30_000;
/**
 * How long a shoot may be unreachable before it counts as an outage (MCM's `--machine-safety-apiserver-statuscheck-
 * timeout`): after an outage, the health timeout of Unknown machines starts again (MCM resets it when it unfreezes).
 */
export const DefaultShootOutageMs = 30_000;
/** At most this many machines of a MachineDeployment are being replaced at a time (MCM's `maxReplacements`). */
export const MaxReplacements = 1;
/**
 * Node conditions that make a machine unhealthy unless `False` (MCM's `--node-conditions` default); `Ready` must be
 * `True`.
 */
export const DefaultFailureConditions = ['KernelDeadlock', 'ReadonlyFilesystem', 'DiskPressure', 'NetworkUnavailable'];

/** The timeouts and periods of the machine health check. */
export interface MachineHealthOptions {
  creationTimeoutMs: number;
  healthTimeoutMs: number;
  healthCheckPeriodMs: number;
  shootOutageMs: number;
}

/** machine-controller-manager's defaults. */
export const DefaultMachineHealthOptions: MachineHealthOptions = {
  creationTimeoutMs: DefaultMachineCreationTimeoutMs,
  healthTimeoutMs: DefaultMachineHealthTimeoutMs,
  healthCheckPeriodMs: DefaultHealthCheckPeriodMs,
  shootOutageMs: DefaultShootOutageMs,
};

/** A machine's Pod, its VM: missing, not (yet) ready, ready, or ended (`Failed`/`Succeeded`). */
export type PodHealth =
  | { state: 'Missing' }
  | { state: 'NotReady'; name: string }
  | { state: 'Ready' }
  | { state: 'Ended'; name: string; phase: string };

/**
 * A machine's Node in its shoot: healthy, unhealthy (`conditions` names the bad ones), not there, or unknown because
 * the shoot did not answer (`error`).
 */
export type NodeHealth =
  | { state: 'Ready' }
  | { state: 'NotReady'; conditions: string }
  | { state: 'NotFound' }
  | { state: 'Unreachable'; error: string };

/** A Node condition (the fields the health check reads). */
export interface NodeConditionLike {
  type: string;
  status: string;
  reason?: string;
}

/**
 * The health of a Node from its conditions (MCM's `isHealthy`): healthy when `Ready` is `True` and none of the
 * failure conditions is other than `False`; else the offending conditions as `Type=Status (Reason)`.
 */
export function nodeHealthOf(
  conditions: NodeConditionLike[] | undefined,
  failureConditions: readonly string[] = DefaultFailureConditions,
): Exclude<NodeHealth, { state: 'NotFound' | 'Unreachable' }> {
  const all = conditions ?? [];
  const bad = all.filter(
    (c) => (c.type === 'Ready' && c.status !== 'True') || (failureConditions.includes(c.type) && c.status !== 'False'),
  );
  if (!all.some((c) => c.type === 'Ready'))
    bad.unshift({ type: 'Ready', status: 'Unknown', reason: 'NoReadyCondition' });
  if (bad.length === 0) return { state: 'Ready' };
  return {
    state: 'NotReady',
    conditions: bad.map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`).join(', '),
  };
}

/** A Node condition as a Machine keeps its copy (`status.conditions`). */
export interface MachineNodeCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

/**
 * The copy of a Node's conditions a Machine keeps in `status.conditions` (MCM's reconcileMachineHealth copies them on
 * every health check): type, status, reason, message and times.
 */
export function machineConditionsOf(
  conditions: readonly (NodeConditionLike & Partial<MachineNodeCondition>)[] | undefined,
): MachineNodeCondition[] {
  return (conditions ?? []).map((c) => ({
    type: c.type,
    status: c.status,
    ...(c.reason !== undefined ? { reason: c.reason } : {}),
    ...(c.message !== undefined ? { message: c.message } : {}),
    ...(c.lastHeartbeatTime !== undefined ? { lastHeartbeatTime: c.lastHeartbeatTime } : {}),
    ...(c.lastTransitionTime !== undefined ? { lastTransitionTime: c.lastTransitionTime } : {}),
  }));
}

/**
 * The health of a Node from its conditions (see {@link nodeHealthOf}), with the Machine's copy of the conditions
 * (`nodeConditions`) when `copy` asks for it.
 */
export function nodeStateOf(
  conditions: (NodeConditionLike & Partial<MachineNodeCondition>)[] | undefined,
  failureConditions: readonly string[] | undefined,
  copy: boolean | undefined,
): Exclude<NodeHealth, { state: 'NotFound' | 'Unreachable' }> & { nodeConditions?: MachineNodeCondition[] } {
  const health = nodeHealthOf(conditions, failureConditions);
  return copy ? { ...health, nodeConditions: machineConditionsOf(conditions) } : health;
}

/** What the health check looks at. */
export interface MachineHealthInput {
  /** The machine's name. */
  name: string;
  /** The name of its Node (and Pod). */
  nodeName: string;
  /** Its current phase (none yet: Pending). */
  phase: MachinePhase | undefined;
  /** Its last operation's type and state. */
  lastOperation?: { type?: string; state?: string };
  /** When it entered its phase (`currentStatus.lastUpdateTime`, else its creation), ms since the epoch. */
  phaseSince: number;
  /** When its shoot was reachable again after an outage, ms since the epoch; the health timeout restarts then. */
  shootBackSince?: number;
  pod: PodHealth;
  /** Its Node; only looked at when the Pod is ready (absent otherwise). */
  node?: NodeHealth;
  /** When its machine Pod (its VM) was created, ms since the epoch, when known. */
  vmCreatedAt?: number;
  /** The last heartbeat of its Node's `Ready` condition, ms since the epoch, when known. */
  nodeReadyHeartbeat?: number;
  /** Now, ms since the epoch. */
  now: number;
  options: Pick<MachineHealthOptions, 'creationTimeoutMs' | 'healthTimeoutMs' | 'healthCheckPeriodMs'> & {
    /** An Unknown machine never fails by the health timeout (MCM's `disableHealthTimeout`). */
    disableHealthTimeout?: boolean;
  };
}

/** The `lastOperation` the decision writes. */
export interface MachineOperation {
  type: string;
  state: 'Processing' | 'Successful' | 'Failed';
  description: string;
}

/** The health check's decision: the phase, the operation to report (none: leave the status), when to look again. */
export interface MachineHealthDecision {
  phase: MachinePhase;
  operation?: MachineOperation;
  /** Look again after this many ms (none: on the next event of the machine or its Pod). */
  recheckAfterMs?: number;
  /** The machine has just joined its shoot (its bootstrap token can go). */
  joined?: boolean;
}

/** How long a Pending machine whose shoot does not answer waits before it looks at its Node again. */
export const NodeJoinPollMs = 1000;

/** Why a machine is unhealthy, for the descriptions. */
function unhealthyBecause(input: MachineHealthInput): string {
  const { pod, node } = input;
  if (pod.state === 'Missing') return 'its machine Pod is gone';
  if (pod.state === 'Ended') return `its machine Pod ${pod.name} ended (${pod.phase})`;
  if (pod.state === 'NotReady') return `its machine Pod ${pod.name} is not ready`;
  if (node?.state === 'NotReady') return `Node conditions: ${node.conditions}`;
  if (node?.state === 'NotFound') return `its Node ${input.nodeName} is not in the shoot`;
  return 'unknown';
}

/**
 * The next phase of a machine that is not being deleted, as machine-controller-manager's health check decides it:
 * - healthy (Pod ready, Node Ready) and not Running → Running (`Create` "joined" the first time, `HealthCheck`
 *   "re-joined" after Unknown);
 * - Running and unhealthy → Unknown (`HealthCheck`, Processing), the Node's conditions or why in the description;
 * - Unknown for longer than the health timeout → Failed; Pending for longer than the creation timeout → Failed;
 *   a Pending machine whose Pod ended → Failed at once (its creation failed);
 * - an unreachable shoot changes nothing and runs no timeout; Failed stays Failed (its MachineSet replaces it).
 */
export function decideMachineHealth(input: MachineHealthInput): MachineHealthDecision {
  const { name, pod, node, now, options } = input;
  const phase: MachinePhase = input.phase ?? 'Pending';
  const period = options.healthCheckPeriodMs;
  if (phase === 'Failed' || phase === 'Terminating') return { phase };

  if (pod.state === 'Ready' && node?.state === 'Unreachable') {
    // Cannot decide: keep the phase, run no timeout (MCM freezes while the shoot's API server is away).
    if (phase !== 'Pending') return { phase, recheckAfterMs: period };
    return {
      phase,
      operation: {
        type: 'Create',
        state: 'Processing',
        description: `Waiting for Node ${input.nodeName} to join the shoot: ${node.error}`,
      },
      recheckAfterMs: NodeJoinPollMs,
    };
  }

  // A machine being created whose Node says Ready from before its VM existed has not joined yet: the Node is one a
  // kubelet of the same name left (a machine restored after a control plane migration gets a new VM, whose kubelet
  // registers the same Node again). It stays Pending, within its creation timeout, until the new kubelet reports.
  const nodeFromBefore =
    phase === 'Pending' &&
    node?.state === 'Ready' &&
    input.vmCreatedAt !== undefined &&
    input.nodeReadyHeartbeat !== undefined &&
    input.nodeReadyHeartbeat < Math.floor(input.vmCreatedAt / 1000) * 1000;
  const healthy = pod.state === 'Ready' && (node === undefined || node.state === 'Ready') && !nodeFromBefore;
  if (healthy) {
    if (phase === 'Running') return { phase, recheckAfterMs: period };
    const joining =
      phase === 'Pending' || (input.lastOperation?.type === 'Create' && input.lastOperation.state !== 'Successful');
    return {
      phase: 'Running',
      operation: joining
        ? { type: 'Create', state: 'Successful', description: `Machine ${name} successfully joined the cluster` }
        : {
            type: 'HealthCheck',
            state: 'Successful',
            description: `Machine ${name} successfully re-joined the cluster`,
          },
      recheckAfterMs: period,
      joined: joining,
    };
  }

  if (phase === 'Running') {
    return {
      phase: 'Unknown',
      operation: {
        type: 'HealthCheck',
        state: 'Processing',
        description: `Machine ${name} is unhealthy - changing MachinePhase to Unknown: ${unhealthyBecause(input)}`,
      },
      recheckAfterMs: Math.min(period, options.healthTimeoutMs),
    };
  }

  if (phase === 'Unknown') {
    if (options.disableHealthTimeout) return { phase, recheckAfterMs: period };
    const since = Math.max(input.phaseSince, input.shootBackSince ?? -Infinity);
    const left = since + options.healthTimeoutMs - now;
    if (left < 0) {
      return {
        phase: 'Failed',
        operation: {
          type: input.lastOperation?.type ?? 'HealthCheck',
          state: 'Failed',
          description:
            `Machine ${name} health checks failing since last ${formatDuration(options.healthTimeoutMs)}. ` +
            `Updating machine phase to Failed: ${unhealthyBecause(input)}`,
        },
      };
    }
    return { phase, recheckAfterMs: Math.min(period, left + 1) };
  }

  // Pending (or a phase this controller does not set, e.g. CrashLoopBackOff: treated as Pending).
  if (pod.state === 'Ended') {
    return {
      phase: 'Failed',
      operation: {
        type: 'Create',
        state: 'Failed',
        description: `Machine ${name} could not be created: ${unhealthyBecause(input)}`,
      },
    };
  }
  const left = input.phaseSince + options.creationTimeoutMs - now;
  if (left < 0) {
    return {
      phase: 'Failed',
      operation: {
        type: input.lastOperation?.type ?? 'Create',
        state: 'Failed',
        description: `Machine ${name} failed to join the cluster in ${formatDuration(options.creationTimeoutMs)}.`,
      },
    };
  }
  if (pod.state === 'Ready') {
    return {
      phase: 'Pending',
      operation: {
        type: 'Create',
        state: 'Processing',
        description: nodeFromBefore
          ? `Waiting for the machine's kubelet to register Node ${input.nodeName} again (its Node is from before the machine Pod)`
          : `Waiting for Node ${input.nodeName} to join the shoot and be Ready`,
      },
      // The Node's joining is an event of the shoot's Node watch; look again at the resync at the latest.
      recheckAfterMs: Math.min(period, left + 1),
    };
  }
  return {
    phase: 'Pending',
    operation: {
      type: 'Create',
      state: 'Processing',
      description: `Waiting for machine Pod ${input.nodeName} to be ready`,
    },
    recheckAfterMs: left + 1,
  };
}

/**
 * Whether one more machine of a MachineDeployment may be marked Failed (MCM's `canMarkMachineFailed`): fewer than
 * {@link MaxReplacements} of its machines are being replaced, i.e. neither Running nor Unknown (a Terminating one
 * counts twice: its replacement may not exist yet).
 */
export function mayMarkFailed(machinesOfDeployment: Machine[], maxReplacements = MaxReplacements): boolean {
  let inProgress = 0;
  for (const m of machinesOfDeployment) {
    const phase = m.status?.currentStatus?.phase;
    if (phase === 'Running' || phase === 'Unknown') continue;
    inProgress += phase === 'Terminating' ? 2 : 1;
  }
  return inProgress < maxReplacements;
}
