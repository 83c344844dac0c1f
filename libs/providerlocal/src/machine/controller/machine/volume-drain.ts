// machine-controller-manager's PV-aware drain (pkg/util/provider/drain/drain.go: filterPodsWithPv, evictPodsWithPv,
// getPodVolumeInfos, filterSharedPVs, waitForDetach), decided purely: a drain that is not forced evicts the Pods without
// PersistentVolumeClaim volumes all at once, and those with such volumes one by one, highest priority first — the next
// one only once the previous one is gone and the volumes it had on the Node are detached (no VolumeAttachment of them
// for the Node is left; volumes shared with another drained Pod are not tracked, as MCM's), at most its termination
// grace period plus the PV detach timeout after its eviction (MCM's `--machine-pv-detach-timeout`, 2 minutes): then the
// drain fails for it and goes on with the next. A Pod whose eviction a PodDisruptionBudget refuses does not hold the
// others up: the next one is tried, the refused one again after the retry interval. The shell (./drainer.ts) carries
// it out and remembers the Pod in flight.
import type { PodObject } from '@gardener-ts/controller-runtime';
import type { PodStep } from './drain.js';

/** MCM's `--machine-pv-detach-timeout` default: how long after an eviction its volumes may take to detach. */
export const DefaultPVDetachTimeoutMs = 2 * 60_000;
/** How often MCM looks again whether the volumes are detached (`VolumeDetachPollInterval`). */
export const VolumeDetachPollIntervalMs = 5_000;

/** A Pod's key in the drain's memory: its uid, else `namespace/name`. */
export function podKey(pod: PodObject): string {
  return pod.metadata?.uid ?? `${pod.metadata?.namespace}/${pod.metadata?.name}`;
}

/** The PersistentVolumeClaims a Pod mounts (its `persistentVolumeClaim` volumes). */
export function claimNamesOf(pod: PodObject): string[] {
  const volumes = (pod.spec?.volumes ?? []) as { persistentVolumeClaim?: { claimName?: string } | null }[];
  return volumes.flatMap((v) => (v.persistentVolumeClaim?.claimName ? [v.persistentVolumeClaim.claimName] : []));
}

/** A Pod's priority (`spec.priority`, 0 when unset). */
function priorityOf(pod: PodObject): number {
  const priority = pod.spec?.priority;
  return typeof priority === 'number' ? priority : 0;
}

/**
 * Splits the Pods the drain takes (MCM's filterPodsWithPv): those with a PersistentVolumeClaim volume, highest
 * priority first (stable), and the others.
 */
export function splitByVolumes(pods: readonly PodObject[]): { withVolumes: PodObject[]; withoutVolumes: PodObject[] } {
  const withVolumes: PodObject[] = [];
  const withoutVolumes: PodObject[] = [];
  for (const pod of pods) (claimNamesOf(pod).length > 0 ? withVolumes : withoutVolumes).push(pod);
  withVolumes.sort((a, b) => priorityOf(b) - priorityOf(a));
  return { withVolumes, withoutVolumes };
}

/** A PersistentVolumeClaim (the fields the drain reads). */
export interface DrainClaim {
  metadata?: { name?: string; namespace?: string };
  spec?: { volumeName?: string };
}

/**
 * The PersistentVolumes whose detachment the drain waits for, per Pod key (MCM's getPodVolumeInfos and
 * filterSharedPVs): the volumes bound to the Pod's claims; a claim not found or not bound gives none, and a volume
 * that two of the Pods use is tracked for neither.
 */
export function trackedVolumes(pods: readonly PodObject[], claims: readonly DrainClaim[]): Map<string, string[]> {
  const bound = new Map<string, string>();
  for (const c of claims) {
    if (c.spec?.volumeName) bound.set(`${c.metadata?.namespace}/${c.metadata?.name}`, c.spec.volumeName);
  }
  const byPod = new Map<string, string[]>();
  const users = new Map<string, number>();
  for (const pod of pods) {
    const volumes = [
      ...new Set(
        claimNamesOf(pod).flatMap((claim) => {
          const volume = bound.get(`${pod.metadata?.namespace}/${claim}`);
          return volume ? [volume] : [];
        }),
      ),
    ];
    byPod.set(podKey(pod), volumes);
    for (const v of volumes) users.set(v, (users.get(v) ?? 0) + 1);
  }
  for (const [key, volumes] of byPod) byPod.set(key, volumes.filter((v) => users.get(v) === 1).sort());
  return byPod;
}

/** A VolumeAttachment (the fields the drain reads). */
export interface DrainVolumeAttachment {
  spec?: { nodeName?: string; source?: { persistentVolumeName?: string } };
}

/** The PersistentVolumes a VolumeAttachment still ties to `nodeName` (one being deleted counts until it is gone). */
export function attachedVolumes(attachments: readonly DrainVolumeAttachment[], nodeName: string): Set<string> {
  const attached = new Set<string>();
  for (const a of attachments) {
    const volume = a.spec?.source?.persistentVolumeName;
    if (a.spec?.nodeName === nodeName && volume) attached.add(volume);
  }
  return attached;
}

/** The Pod with volumes whose eviction was accepted and whose volumes the drain waits for. */
export interface VolumePodInFlight {
  /** Its key (see {@link podKey}). */
  key: string;
  /** `namespace/name`, for messages. */
  name: string;
  /** The PersistentVolumes to wait for (see {@link trackedVolumes}). */
  volumes: string[];
  /** When its eviction (or deletion) was accepted, ms. */
  removedAt: number;
  /** Its termination grace period, ms. */
  graceMs: number;
}

/** Where the Pod in flight stands. */
export type InFlightStep =
  /** Still on the Node: its own step (wait for it to go) applies. */
  | { type: 'pod' }
  /** Gone, its volumes detached: the next Pod with volumes may go. */
  | { type: 'detached' }
  /** Gone, a volume still attached: look again at `untilMs` at the latest. */
  | { type: 'wait'; untilMs: number; attached: string[] }
  /** Gone, a volume still attached after its grace period and the PV detach timeout: the drain fails for it. */
  | { type: 'timeout'; attached: string[] };

/** The next step for the Pod in flight (MCM's waitForDetach). */
export function inFlightStep(input: {
  inFlight: VolumePodInFlight;
  podPresent: boolean;
  attached: ReadonlySet<string>;
  now: number;
  detachTimeoutMs: number;
}): InFlightStep {
  if (input.podPresent) return { type: 'pod' };
  const attached = input.inFlight.volumes.filter((v) => input.attached.has(v));
  if (attached.length === 0) return { type: 'detached' };
  const until = input.inFlight.removedAt + input.inFlight.graceMs + input.detachTimeoutMs;
  if (input.now > until) return { type: 'timeout', attached };
  return { type: 'wait', untilMs: Math.min(until + 1, input.now + VolumeDetachPollIntervalMs), attached };
}

/** What the drain does now with one Pod with volumes. */
export type VolumePodAction =
  /** Evict or delete it now (in this order; once one is accepted the rest of them are queued). */
  | 'try'
  /** Its eviction is due, but another Pod with volumes is in flight: later. */
  | 'queued'
  /** Its own step (waiting for it to go, a refused eviction's retry, a timeout) applies as for any Pod. */
  | 'own';

/**
 * The serial order of the Pods with volumes (MCM's evictPodsWithPVInternal): given their steps (in priority order),
 * whether one is in flight already — the Pod remembered in flight, or one of them already evicted (its step is to
 * wait for it or its wait timed out) — and which ones may be evicted or deleted now. `busy` tells whether a Pod is in
 * flight before any of them is tried.
 */
export function volumePodActions(
  steps: readonly PodStep[],
  inFlight: boolean,
): { busy: boolean; actions: VolumePodAction[] } {
  const busy = inFlight || steps.some((s) => s.type === 'wait' || s.type === 'timeout');
  return {
    busy,
    actions: steps.map((s) => (s.type === 'evict' || s.type === 'delete' ? (busy ? 'queued' : 'try') : 'own')),
  };
}
