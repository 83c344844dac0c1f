// What kube's pod garbage collector decides about a pod bound to a node: a node that is gone must be seen missing
// twice, a quarantine apart (a Node being recreated, or a cache behind, must not cost its pods), before its pods are
// failed and deleted. Pure.

/** kube's quarantine time of an orphaned pod's node (podgc's `quarantineTime`). */
export const OrphanQuarantineMs = 40_000;

export type OrphanVerdict =
  /** The pod is not orphaned (not bound, or its node exists). */
  | { kind: 'keep' }
  /** Its node is missing, seen so first at `since`: look again at `since + quarantine`. */
  | { kind: 'wait'; since: number; afterMs: number }
  /** Its node has been missing for the quarantine: fail and delete the pod. */
  | { kind: 'delete' };

export function orphanVerdict(
  nodeName: string | undefined,
  nodeExists: boolean,
  missingSince: number | undefined,
  now: number,
  quarantineMs = OrphanQuarantineMs,
): OrphanVerdict {
  if (!nodeName || nodeExists) return { kind: 'keep' };
  const since = missingSince ?? now;
  const left = since + quarantineMs - now;
  return left > 0 ? { kind: 'wait', since, afterMs: left } : { kind: 'delete' };
}
