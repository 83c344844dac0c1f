// gardener-node-agent's Node controller: when this machine's Node carries `worker.gardener.cloud/restart-systemd-services`
// (a comma-separated list of units, e.g. `containerd,kubelet`), the units are restarted and the annotation removed.
// Gardener restarts node-agent itself last; here node-agent is the machine's own process and is not a unit.
import {
  Kinds,
  ignoreNotFound,
  type Client,
  type ReconcileContext,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { UnitManager } from '../../units/runner.js';

/** The annotation asking node-agent to restart units (Gardener's). */
export const RestartSystemdServicesAnnotation = 'worker.gardener.cloud/restart-systemd-services';

/** The unit names of the annotation's value: `kubelet` means `kubelet.service`. */
export function unitsToRestart(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => (/\.(service|socket|timer|target|mount|path)$/.test(s) ? s : `${s}.service`));
}

/** Restarts the units the Node's annotation names, then removes the annotation. */
export class NodeReconciler {
  constructor(private readonly deps: { client: Pick<Client, 'get' | 'patch'>; units: UnitManager }) {}

  async reconcile(req: Request, ctx: Pick<ReconcileContext, 'log'>): Promise<void> {
    const node = await this.deps.client.get(Kinds.Node, req).catch(ignoreNotFound);
    const value = node?.metadata?.annotations?.[RestartSystemdServicesAnnotation];
    if (value === undefined) return;
    const failures: string[] = [];
    for (const unit of unitsToRestart(value)) {
      ctx.log.info({ unit }, 'Restarting unit as the Node asks');
      await this.deps.units.restart(unit).catch((err: unknown) => failures.push(`${unit}: ${String(err)}`));
    }
    // The annotation goes even when a restart failed (as in Gardener): the failure is logged, not retried forever.
    await this.deps.client.patch(Kinds.Node, req, {
      type: 'merge',
      patch: { metadata: { annotations: { [RestartSystemdServicesAnnotation]: null } } },
    });
    if (failures.length > 0) ctx.log.error({ failures }, 'Some units could not be restarted');
  }
}
