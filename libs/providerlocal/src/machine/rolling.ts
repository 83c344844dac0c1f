// The rolling update of a MachineDeployment (machine-controller-manager's, which is kube's Deployment algorithm): how
// many machines the new MachineSet and each old one should have next, bounded by `maxSurge` (machines above the wanted
// count) and `maxUnavailable` (machines below it that may be not ready). Pure: counts in, counts out. One step per
// call; the controller calls it again as machines become ready.
//  - scale up the new set by at most `replicas + maxSurge - all machines`, never above `replicas`;
//  - scale down old sets: first their unavailable machines, then available ones while at least
//    `replicas - maxUnavailable` stay available (counting the new set's unavailable machines against the budget).

/** One MachineSet as the planner sees it. */
export interface MachineSetCounts {
  name: string;
  /** `spec.replicas`. */
  replicas: number;
  /** Machines of the set that are available (Running, their node ready). */
  available: number;
}

/** The input of one planning step. */
export interface RollingUpdateInput {
  /** The MachineDeployment's `spec.replicas`. */
  replicas: number;
  /** `strategy.rollingUpdate.maxSurge`: a count or a percentage (`"25%"`, rounded up). */
  maxSurge: number | string | undefined;
  /** `strategy.rollingUpdate.maxUnavailable`: a count or a percentage (rounded down). */
  maxUnavailable: number | string | undefined;
  /** The set whose template matches the deployment's. */
  newSet: MachineSetCounts;
  /** The other sets, oldest first (scaled down in this order). */
  oldSets: MachineSetCounts[];
}

/** The replicas each set should have next. */
export interface RollingUpdatePlan {
  newReplicas: number;
  /** By old set name; only sets whose count changes. */
  oldReplicas: Record<string, number>;
}

function resolve(value: number | string | undefined, total: number, roundUp: boolean, fallback: string): number {
  const v = value ?? fallback;
  if (typeof v === 'number') return Math.max(0, Math.floor(v));
  const pct = /^(\d+)%$/.exec(v.trim());
  if (pct) {
    const exact = (Number(pct[1]) * total) / 100;
    return roundUp ? Math.ceil(exact) : Math.floor(exact);
  }
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  throw new Error(`invalid value ${JSON.stringify(v)}: must be an integer or a percentage`);
}

/**
 * kube's ResolveFenceposts: `maxSurge` rounds up, `maxUnavailable` down (defaults 25 % each); when both are 0,
 * `maxUnavailable` is 1 so the rollout can proceed.
 */
export function resolveFenceposts(
  maxSurge: number | string | undefined,
  maxUnavailable: number | string | undefined,
  replicas: number,
): { surge: number; unavailable: number } {
  const surge = resolve(maxSurge, replicas, true, '25%');
  const unavailable = resolve(maxUnavailable, replicas, false, '25%');
  return surge === 0 && unavailable === 0 ? { surge, unavailable: 1 } : { surge, unavailable };
}

/** One step of the rolling update; see the file header. */
export function planRollingUpdate(input: RollingUpdateInput): RollingUpdatePlan {
  const { replicas, newSet, oldSets } = input;
  const { surge, unavailable } = resolveFenceposts(input.maxSurge, input.maxUnavailable, replicas);
  const sum = (sets: MachineSetCounts[], f: (s: MachineSetCounts) => number) => sets.reduce((n, s) => n + f(s), 0);

  // Scale the new set up (or down to `replicas`).
  let newReplicas = newSet.replicas;
  if (newSet.replicas > replicas) newReplicas = replicas;
  else if (newSet.replicas < replicas) {
    const currentTotal = newSet.replicas + sum(oldSets, (s) => s.replicas);
    const room = replicas + surge - currentTotal;
    if (room > 0) newReplicas = newSet.replicas + Math.min(room, replicas - newSet.replicas);
  }

  // Scale old sets down.
  const oldReplicas: Record<string, number> = {};
  const next = new Map(oldSets.map((s) => [s.name, s.replicas]));
  const oldTotal = sum(oldSets, (s) => s.replicas);
  if (oldTotal > 0) {
    const allTotal = oldTotal + newSet.replicas;
    const minAvailable = replicas - unavailable;
    const newUnavailable = Math.max(0, newSet.replicas - newSet.available);
    const maxScaledDown = allTotal - minAvailable - newUnavailable;
    let cleaned = 0;
    if (maxScaledDown > 0) {
      // First the machines of old sets that are not available: removing them costs no availability.
      for (const set of oldSets) {
        const unhealthy = Math.max(0, set.replicas - set.available);
        const down = Math.min(maxScaledDown - cleaned, unhealthy);
        if (down <= 0) continue;
        next.set(set.name, set.replicas - down);
        cleaned += down;
      }
    }
    // Then available machines, as long as enough stay available.
    const availableTotal = newSet.available + sum(oldSets, (s) => Math.min(s.available, next.get(s.name)!));
    let budget = availableTotal - minAvailable;
    for (const set of oldSets) {
      if (budget <= 0) break;
      const current = next.get(set.name)!;
      const down = Math.min(current, budget);
      next.set(set.name, current - down);
      budget -= down;
    }
    for (const set of oldSets) if (next.get(set.name) !== set.replicas) oldReplicas[set.name] = next.get(set.name)!;
  }
  return { newReplicas, oldReplicas };
}
