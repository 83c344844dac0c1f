// The drain of a deleted machine's Node, decided as machine-controller-manager does (pkg/util/provider/drain/drain.go,
// drainNode in machine_util.go): which Pods of the Node go (mirror Pods and DaemonSet Pods stay; Pods with local
// storage and Pods without a controller go, as MCM runs the drain with --delete-local-data and --force), whether the
// drain is forced (the drain timeout has passed since the deletion, the `force-deletion: "True"` label, or a Node
// NotReady or with a ReadonlyFilesystem for more than 5 minutes: Pods are deleted at once and not waited for), and
// per Pod the next step: evict through the Eviction API, evict again 20 s after a PodDisruptionBudget refused
// (429), delete once the evictions are used up, wait until it is gone (its termination grace period, at most the
// drain timeout, plus 30 s). Pure: the shell (./drainer.ts) carries the steps out and keeps the per-Pod state, which
// a restarted controller rebuilds from the drain's start and the Pods (restoredPodState).
import type { NodeObject, PodObject, StatusCondition } from '@gardener-ts/controller-runtime';
import { PodEvictionRetryIntervalMs } from './settings.js';

/** How long a Node may be NotReady (or have a read-only file system) before its drain is forced (MCM: 5 minutes). */
export const NodeNotReadyForceDrainMs = 5 * 60_000;
/** What MCM waits for an evicted Pod beyond its termination grace period. */
export const PodDeletionBufferMs = 30_000;
/** The annotation marking a mirror Pod (the API server's copy of a static Pod). */
export const MirrorPodAnnotation = 'kubernetes.io/config.mirror';
/** The label that asks for a forced deletion of a Machine (MCM's `force-deletion: "True"`). */
export const ForceDeletionLabel = 'force-deletion';

/** The warnings MCM prints for Pods it handles specially. */
export const DrainWarnings = {
  daemonSet: 'Ignoring DaemonSet-managed pods',
  localStorage: 'Deleting pods with local storage',
  unmanaged: 'Deleting pods not managed by ReplicationController, ReplicaSet, Job, DaemonSet or StatefulSet',
} as const;

/** What the drain does with a Pod of the Node: drain it (evict or delete) or leave it. */
export interface PodDisposition {
  drain: boolean;
  /** Why it is left or handled specially (MCM's warnings), if so. */
  warnings: string[];
}

/**
 * Whether the drain takes a Pod (MCM's filters with `IgnoreDaemonsets`, `DeleteLocalData` and
 * `IgnorePodsWithoutControllers` all on): a mirror Pod stays (it cannot be deleted through the API), a Pod whose
 * controller is a DaemonSet stays (the DaemonSet would recreate it), every other Pod goes — one with an `emptyDir`
 * volume or without a controller too, with a warning.
 */
export function podDisposition(pod: PodObject): PodDisposition {
  const warnings: string[] = [];
  if (pod.metadata?.annotations?.[MirrorPodAnnotation] !== undefined) return { drain: false, warnings };
  let drain = true;
  const volumes = (pod.spec?.volumes ?? []) as { emptyDir?: unknown }[];
  if (volumes.some((v) => v.emptyDir !== undefined && v.emptyDir !== null)) warnings.push(DrainWarnings.localStorage);
  const finished = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
  const controller = (pod.metadata?.ownerReferences ?? []).find((r) => r.controller);
  if (!finished && !controller) warnings.push(DrainWarnings.unmanaged);
  if (controller?.kind === 'DaemonSet') {
    drain = false;
    warnings.push(DrainWarnings.daemonSet);
  }
  return { drain, warnings };
}

/** Why a drain is forced, or undefined when it is not. */
export type ForceReason = 'label' | 'timeout' | 'NotReady' | 'ReadonlyFilesystem';

/**
 * Whether the drain of a deleted machine is forced (MCM's drainNode): a Node NotReady, or with a `ReadonlyFilesystem`
 * condition not `False`, for more than 5 minutes; the `force-deletion` label; the drain timeout passed since the
 * deletion.
 */
export function forceReason(input: {
  now: number;
  deletedAt: number;
  drainTimeoutMs: number;
  forceLabel?: boolean;
  nodeConditions?: StatusCondition[];
}): ForceReason | undefined {
  const since = (c: StatusCondition | undefined) => {
    const at = Date.parse(c?.lastTransitionTime ?? '');
    return Number.isNaN(at) ? 0 : input.now - at;
  };
  const ready = input.nodeConditions?.find((c) => c.type === 'Ready');
  const readonly = input.nodeConditions?.find((c) => c.type === 'ReadonlyFilesystem');
  if (ready && ready.status !== 'True' && since(ready) > NodeNotReadyForceDrainMs) return 'NotReady';
  if (readonly && readonly.status !== 'False' && since(readonly) > NodeNotReadyForceDrainMs) {
    return 'ReadonlyFilesystem';
  }
  if (input.forceLabel) return 'label';
  if (input.now - input.deletedAt > input.drainTimeoutMs) return 'timeout';
  return undefined;
}

/**
 * How many evictions a Pod gets before it is deleted (MCM: the machine's maxEvictRetries, at most as many as fit into
 * the drain timeout at one per 20 s; one when forced).
 */
export function effectiveMaxEvictRetries(maxEvictRetries: number, drainTimeoutMs: number, forced: boolean): number {
  if (forced) return 1;
  return Math.max(0, Math.min(maxEvictRetries, Math.floor(drainTimeoutMs / PodEvictionRetryIntervalMs)));
}

/** What the drain remembers of one Pod between two steps. */
export interface PodDrainState {
  /** Evictions refused so far (429). */
  refused: number;
  /** Not before this time (ms) the next eviction. */
  nextAttemptAt: number;
  /** When its eviction or deletion was accepted (ms); it is waited for from then. */
  removedAt?: number;
}

/**
 * When the API server accepted a Pod's deletion or eviction (ms), read from the Pod: its `deletionTimestamp` is that
 * moment plus `deletionGracePeriodSeconds`; undefined for a Pod that is not being deleted.
 */
export function podRemovalTime(pod: PodObject): number | undefined {
  const at = Date.parse(pod.metadata?.deletionTimestamp ?? '');
  if (Number.isNaN(at)) return undefined;
  const grace = (pod.metadata as { deletionGracePeriodSeconds?: number } | undefined)?.deletionGracePeriodSeconds;
  return at - (grace ?? 0) * 1000;
}

/**
 * The state a drain that began at `startedAt` has for a Pod when the controller remembers nothing of it (it was
 * restarted): what MCM's one blocking drain call effectively knows at `now`. A Pod being deleted was evicted when the
 * API server accepted it (see {@link podRemovalTime}), not before the drain began — it is waited for from then, so the
 * wait does not start again. A Pod still there was refused once per retry interval since the drain began, so its
 * evictions run out when they would have without the restart; its next eviction is due at once.
 */
export function restoredPodState(
  pod: PodObject,
  drain: { startedAt: number; now: number; retryIntervalMs?: number },
): PodDrainState {
  const removedAt = podRemovalTime(pod);
  if (removedAt !== undefined) return { refused: 0, nextAttemptAt: 0, removedAt: Math.max(removedAt, drain.startedAt) };
  const interval = drain.retryIntervalMs ?? PodEvictionRetryIntervalMs;
  return { refused: Math.max(0, Math.floor((drain.now - drain.startedAt) / interval)), nextAttemptAt: 0 };
}

/** The next step for one Pod the drain takes. */
export type PodStep =
  | { type: 'evict' }
  | { type: 'delete' }
  | { type: 'retry-later'; atMs: number }
  | { type: 'wait'; untilMs: number }
  | { type: 'done' }
  | { type: 'timeout' };

/**
 * The next step for a Pod still on the Node (MCM's evictPodWithoutPVInternal): a forced drain deletes and never
 * waits; otherwise evict, again after the retry interval while a PodDisruptionBudget refuses, delete once
 * `maxEvictRetries` evictions were refused; an evicted or deleted Pod (or one already terminating) is waited for its
 * termination grace period (at most the drain timeout) plus 30 s, then the drain fails for it.
 */
export function nextPodStep(input: {
  pod: PodObject;
  state: PodDrainState | undefined;
  now: number;
  forced: boolean;
  maxEvictRetries: number;
  drainTimeoutMs: number;
}): PodStep {
  const { pod, state, now, forced } = input;
  if (forced) return state?.removedAt !== undefined ? { type: 'done' } : { type: 'delete' };
  const removedAt = state?.removedAt ?? (pod.metadata?.deletionTimestamp ? now : undefined);
  if (removedAt !== undefined) {
    const grace = Math.min(
      ((pod.spec?.terminationGracePeriodSeconds as number | undefined) ?? 0) * 1000,
      input.drainTimeoutMs,
    );
    const until = removedAt + grace + PodDeletionBufferMs;
    return now > until ? { type: 'timeout' } : { type: 'wait', untilMs: until };
  }
  if ((state?.refused ?? 0) >= input.maxEvictRetries) return { type: 'delete' };
  if (state && now < state.nextAttemptAt) return { type: 'retry-later', atMs: state.nextAttemptAt };
  return { type: 'evict' };
}

/** The Pods of a Node the drain takes, with MCM's warnings for the others. */
export function podsToDrain(pods: PodObject[], nodeName: string): { drain: PodObject[]; warnings: string[] } {
  const drain: PodObject[] = [];
  const warnings = new Map<string, string[]>();
  for (const pod of pods) {
    if (pod.spec?.nodeName !== nodeName) continue;
    const d = podDisposition(pod);
    for (const w of d.warnings) warnings.set(w, [...(warnings.get(w) ?? []), pod.metadata?.name ?? '']);
    if (d.drain) drain.push(pod);
  }
  return { drain, warnings: [...warnings].map(([w, names]) => `${w}: ${names.join(', ')}`) };
}

/** A Node condition as the drain writes it. */
export type NodeCondition = Omit<StatusCondition, 'lastUpdateTime'> & { lastHeartbeatTime: string };

/**
 * The `Terminating` condition MCM puts on the Node of a deleted machine before the drain (UpdateNodeTerminationCondition):
 * reason `Unhealthy` for a Failed machine, `ScaleDown` otherwise; none for a machine without a phase or crash-looping,
 * and none when the Node has one already and the machine is Terminating (its first reason stays).
 */
export function terminationCondition(
  existing: StatusCondition[] | undefined,
  phase: string | undefined,
  now: string,
): NodeCondition | undefined {
  if (!phase || phase === 'CrashLoopBackOff') return undefined;
  if (phase === 'Terminating' && existing?.some((c) => c.type === 'Terminating')) return undefined;
  const failed = phase === 'Failed';
  return {
    type: 'Terminating',
    status: 'True',
    reason: failed ? 'Unhealthy' : 'ScaleDown',
    message: failed ? 'Machine Controller is terminating failed machine' : 'Machine Controller is scaling down machine',
    lastTransitionTime: now,
    lastHeartbeatTime: now,
  };
}

/** A PodDisruptionBudget (the fields the drain reads). */
export interface DisruptionBudget {
  metadata?: { name?: string; namespace?: string; generation?: number };
  spec?: { selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] } | null };
  status?: {
    observedGeneration?: number;
    expectedPods?: number;
    currentHealthy?: number;
    disruptionsAllowed?: number;
    disruptedPods?: Record<string, string>;
  };
}

/**
 * Whether a PodDisruptionBudget can never allow an eviction (MCM's isMisconfiguredPdb): observed at its generation,
 * with Pods, all of them healthy, none being disrupted, and still no disruption allowed. Evicting again is useless:
 * the drain fails for the Pod (and is tried again until the drain timeout forces it).
 */
export function isMisconfiguredBudget(pdb: DisruptionBudget): boolean {
  const s = pdb.status ?? {};
  if ((pdb.metadata?.generation ?? 0) !== (s.observedGeneration ?? 0)) return false;
  const expected = s.expectedPods ?? 0;
  return (
    expected > 0 &&
    (s.currentHealthy ?? 0) >= expected &&
    Object.keys(s.disruptedPods ?? {}).length === 0 &&
    (s.disruptionsAllowed ?? 0) === 0
  );
}

/** A Node (the fields the drain reads). */
export type DrainNode = Pick<NodeObject, 'metadata' | 'spec' | 'status'>;
