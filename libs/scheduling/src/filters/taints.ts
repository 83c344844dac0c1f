// Seed taints: every taint needs a toleration of the shoot with its key, and with its value when the taint has one.
import type { Seed, Shoot } from '@gardener-ts/api';

export function taintsTolerated(
  taints: readonly { key: string; value?: string }[] | undefined,
  tolerations: readonly { key: string; value?: string }[] | undefined,
): boolean {
  if (!taints || taints.length === 0) return true;
  const tolerated = new Map((tolerations ?? []).map((t) => [t.key, t.value ?? '']));
  return taints.every(
    (taint) => tolerated.has(taint.key) && (taint.value === undefined || taint.value === tolerated.get(taint.key)),
  );
}

/** Gardener's reason when the shoot does not tolerate the seed's taints, or undefined. */
export function untoleratedTaints(seed: Seed, shoot: Shoot): string | undefined {
  return taintsTolerated(seed.spec.taints, shoot.spec.tolerations)
    ? undefined
    : "shoot does not tolerate the seed's taints";
}
