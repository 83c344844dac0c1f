// What a StatefulSet does next with its pods (kube's stateful set control, as a pure plan): create missing
// ordinals, replace failed pods, remove condemned ordinals from the highest down, and roll pods onto the update
// revision from the highest ordinal down to the partition. OrderedReady does one step at a time and only on a
// healthy set; Parallel creates and deletes at once.
import type { Pod } from '../shared/kinds.js';
import { isPodReady } from '../shared/pods.js';

export const REVISION_LABEL = 'controller-revision-hash';

export type Action = { type: 'create'; ordinal: number } | { type: 'delete'; ordinal: number; pod: Pod };

export interface PlanInput {
  replicas: number;
  /** spec.ordinals.start */
  start: number;
  orderedReady: boolean;
  /** Undefined for OnDelete: pods move to the update revision only when someone deletes them. */
  partition: number | undefined;
  updateRevision: string;
  /** The set's pods by ordinal. */
  pods: Map<number, Pod>;
}

const terminating = (p: Pod) => !!p.metadata?.deletionTimestamp;
const failed = (p: Pod) => p.status?.phase === 'Failed' || p.status?.phase === 'Succeeded';
const healthy = (p: Pod) => p.status?.phase === 'Running' && isPodReady(p) && !terminating(p);

export function planStatefulSet(input: PlanInput): Action[] {
  const { replicas, start, orderedReady, pods } = input;
  const actions: Action[] = [];
  const end = start + replicas;
  const inRange = [...Array(replicas).keys()].map((i) => start + i);

  for (const ordinal of inRange) {
    const pod = pods.get(ordinal);
    if (!pod) {
      actions.push({ type: 'create', ordinal });
      if (orderedReady) return actions;
      continue;
    }
    if (failed(pod) && !terminating(pod)) {
      actions.push({ type: 'delete', ordinal, pod });
      if (orderedReady) return actions;
      continue;
    }
    if (orderedReady && !healthy(pod)) return actions;
  }

  const condemned = [...pods.keys()].filter((o) => o < start || o >= end).sort((a, b) => b - a);
  for (const ordinal of condemned) {
    const pod = pods.get(ordinal)!;
    if (terminating(pod)) {
      if (orderedReady) return actions;
      continue;
    }
    actions.push({ type: 'delete', ordinal, pod });
    if (orderedReady) return actions;
  }
  if (actions.length || input.partition === undefined) return actions;

  // Rolling update: one pod at a time, from the highest ordinal down to the partition, only on a healthy set.
  if (!inRange.every((o) => pods.has(o) && healthy(pods.get(o)!))) return actions;
  for (const ordinal of [...inRange].reverse()) {
    if (ordinal - start < input.partition) break;
    const pod = pods.get(ordinal)!;
    if (pod.metadata?.labels?.[REVISION_LABEL] !== input.updateRevision) return [{ type: 'delete', ordinal, pod }];
  }
  return actions;
}
