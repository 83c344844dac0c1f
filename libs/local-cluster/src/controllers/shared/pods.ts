// What controllers ask of a Pod: is it active, ready, available, and since when.
import type { InformerCache, Request } from '@gardener-ts/controller-runtime';
import { type Pod, PodKind } from './kinds.js';

/** Not finished and not being deleted: counts toward a controller's replicas. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

export function isPodTerminating(pod: Pod): boolean {
  return !!pod.metadata?.deletionTimestamp;
}

export function podCondition(pod: Pod, type: string) {
  return pod.status?.conditions?.find((c) => c.type === type);
}

export function isPodReady(pod: Pod): boolean {
  return podCondition(pod, 'Ready')?.status === 'True';
}

/** Ready for at least `minReadySeconds` at `now` (ms since the epoch). */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const since = podCondition(pod, 'Ready')?.lastTransitionTime;
  return since !== undefined && Date.parse(since) + minReadySeconds * 1000 <= now;
}

/** Milliseconds until a ready pod becomes available, or undefined if it is not ready or already available. */
export function msUntilAvailable(pod: Pod, minReadySeconds: number, now: number): number | undefined {
  if (!isPodReady(pod) || minReadySeconds <= 0) return undefined;
  const since = podCondition(pod, 'Ready')?.lastTransitionTime;
  if (since === undefined) return undefined;
  const at = Date.parse(since) + minReadySeconds * 1000;
  return at > now ? at - now : undefined;
}

export function podKey(pod: Pod): string {
  return `${pod.metadata?.namespace}/${pod.metadata?.name}`;
}

/** The requests of the cached pods bound to a node (a Node event's work for the controllers that judge pods by it). */
export function podsBoundTo(cache: InformerCache, nodeName: string): Request[] {
  return cache
    .informerFor(PodKind)
    .store.list()
    .filter((p) => p.spec?.nodeName === nodeName)
    .map((p) => ({ namespace: p.metadata!.namespace!, name: p.metadata!.name! }));
}
