// The rollout strategies and the plain sync used while paused or scaling (kube's rolloutRolling, rolloutRecreate
// and sync). Each returns how long until the progress deadline needs checking, if at all.
import { isActive } from './replica-sets.js';
import { isSaturated, proportionalSizes } from './proportional-scaling.js';
import { availableAboveMinimum, maxScaledDown, newReplicaSetReplicas, specReplicas } from './rollout-math.js';
import type { Rollout } from './rollout.js';
import { calculateStatus, isComplete } from './status.js';

export async function rollingUpdate(r: Rollout): Promise<number | undefined> {
  await r.syncRevision(true);
  if ((await scaleUpNew(r)) || (await scaleDownOld(r))) return r.syncStatus();
  if (isComplete(r.d, calculateStatus(r.d, r.all, r.newRS, 0))) await r.cleanup();
  return r.syncStatus();
}

export async function recreate(r: Rollout): Promise<number | undefined> {
  await r.syncRevision(false);
  let scaled = false;
  for (const rs of r.old.filter(isActive)) scaled = (await r.scale(rs, 0)) || scaled;
  // The new pods start only once every old pod is gone.
  if (scaled || r.podsOf(r.old).length > 0) return r.syncStatus();
  await r.syncRevision(true);
  if (r.newRS) await r.scale(r.newRS, r.replicas);
  if (isComplete(r.d, calculateStatus(r.d, r.all, r.newRS, 0))) await r.cleanup();
  return r.syncStatus();
}

/** Paused, or scaled without a template change: resize the ReplicaSets, roll nothing out. */
export async function sync(r: Rollout): Promise<void> {
  await r.syncRevision(false);
  const active = r.all.filter(isActive);
  if (active.length <= 1) {
    const target = active[0] ?? r.newRS ?? r.old[r.old.length - 1];
    if (target) await r.scale(target, r.replicas);
  } else if (isSaturated(r.d, r.newRS)) {
    for (const rs of r.old.filter(isActive)) await r.scale(rs, 0);
  } else if (r.d.spec?.strategy?.type !== 'Recreate') {
    const sizes = proportionalSizes(r.d, active);
    for (const rs of active) await r.scale(rs, sizes.get(rs.metadata!.name!) ?? specReplicas(rs));
  }
  if (r.d.spec?.paused) await r.cleanup();
  await r.syncStatus(false);
}

async function scaleUpNew(r: Rollout): Promise<boolean> {
  if (!r.newRS) return false;
  return r.scale(r.newRS, newReplicaSetReplicas(r.d, r.newRS, r.currentPods()));
}

/** First drop old pods that are not available anyway, then available ones down to the minimum availability. */
async function scaleDownOld(r: Rollout): Promise<boolean> {
  if (r.old.every((rs) => !isActive(rs))) return false;
  const budget = maxScaledDown(r.d, r.all, r.newRS);
  if (budget <= 0) return false;
  let cleaned = 0;
  for (const rs of [...r.old]) {
    if (cleaned >= budget) break;
    const unhealthy = specReplicas(rs) - (rs.status?.availableReplicas ?? 0);
    if (!isActive(rs) || unhealthy <= 0) continue;
    const count = Math.min(budget - cleaned, unhealthy);
    await r.scale(rs, specReplicas(rs) - count);
    cleaned += count;
  }
  const above = availableAboveMinimum(r.d, r.all);
  let scaledDown = 0;
  for (const rs of [...r.old]) {
    if (scaledDown >= above || cleaned + scaledDown >= budget) break;
    if (!isActive(rs)) continue;
    const count = Math.min(specReplicas(rs), above - scaledDown, budget - cleaned - scaledDown);
    await r.scale(rs, specReplicas(rs) - count);
    scaledDown += count;
  }
  return cleaned + scaledDown > 0;
}
