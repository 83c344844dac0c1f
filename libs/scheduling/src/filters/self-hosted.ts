// Self-hosted shoots (a worker pool with spec.provider.workers[].controlPlane) run their control plane on their own
// nodes: they have no seed, so Gardener's scheduler never schedules them.
import type { Shoot } from '@gardener-ts/api';

/** Whether the shoot hosts its own control plane (some worker pool has `controlPlane` set). */
export function isSelfHostedShoot(shoot: Shoot): boolean {
  return (shoot.spec?.provider?.workers ?? []).some((worker) => worker.controlPlane !== undefined);
}
