// The MachineSet controller of the local machine controller: creates and deletes Machines until the set has
// `spec.replicas` of them (deleting failed and pending machines before running ones, then the newest), replaces every
// Failed machine (deletes it and creates a new one, as machine-controller-manager's manageReplicas), and reports
// replicas, ready and available machines.
import { randomBytes } from 'node:crypto';
import { ignoreNotFound, type Client, type Request } from '@gardener-ts/controller-runtime';
import {
  MachineKind,
  MachineSetKind,
  controllerRef,
  isAvailable,
  isControlledBy,
  migrationOf,
  phaseOf,
  type Machine,
  type MachineSet,
} from '../../objects.js';

const deletionRank = (m: Machine): number => {
  const phase = phaseOf(m);
  return phase === 'Failed' ? 0 : phase === 'Running' ? 2 : 1;
};

/** Which machines to delete to shrink a set by `count`: failed first, then not yet running, then the newest. */
export function machinesToDelete(machines: Machine[], count: number): Machine[] {
  return [...machines]
    .sort(
      (a, b) =>
        deletionRank(a) - deletionRank(b) ||
        (b.metadata?.creationTimestamp ?? '').localeCompare(a.metadata?.creationTimestamp ?? ''),
    )
    .slice(0, Math.max(0, count));
}

/** Reconciles MachineSets into Machines. */
export class MachineSetReconciler {
  constructor(
    private readonly client: Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'>,
    private readonly suffix: () => string = () => randomBytes(3).toString('hex').slice(0, 5),
  ) {}

  async reconcile(req: Request): Promise<void> {
    const ms = await this.client.get(MachineSetKind, req).catch(ignoreNotFound);
    // A set held by a control plane migration is left alone (../../objects.ts MachineMigrationAnnotation).
    if (!ms || ms.metadata?.deletionTimestamp || migrationOf(ms)) return;
    const machines = (await this.client.list(MachineKind, { namespace: req.namespace })).items.filter((m) =>
      isControlledBy(m, ms),
    );
    const active = machines.filter((m) => !m.metadata?.deletionTimestamp);
    const wanted = ms.spec?.replicas ?? 0;
    const remove = (m: Machine) =>
      this.client.delete(MachineKind, { namespace: req.namespace, name: m.metadata!.name! }).catch(ignoreNotFound);
    // A Failed machine goes (its machine controller gave up on it, see ../machine/health.ts) and a new one takes its
    // place; MCM creates the replacement on its next sync, once the failed one is terminating: the same outcome.
    const failed = active.filter((m) => phaseOf(m) === 'Failed');
    for (const m of failed) await remove(m);
    const healthy = active.filter((m) => phaseOf(m) !== 'Failed');
    for (let i = healthy.length; i < wanted; i++) await this.client.create(this.machineFor(ms));
    for (const m of machinesToDelete(healthy, healthy.length - wanted)) await remove(m);

    const available = active.filter(isAvailable).length;
    const status = {
      observedGeneration: ms.metadata?.generation,
      replicas: machines.length,
      fullyLabeledReplicas: machines.length,
      readyReplicas: available,
      availableReplicas: available,
    };
    const current = (ms.status ?? {}) as Record<string, unknown>;
    if (Object.entries(status).some(([k, v]) => current[k] !== v)) {
      await this.client.patch(MachineSetKind, req, { type: 'merge', patch: { status } }, { subresource: 'status' });
    }
  }

  private machineFor(ms: MachineSet): Machine {
    const template = ms.spec?.template ?? {};
    return {
      apiVersion: 'machine.sapcloud.io/v1alpha1',
      kind: 'Machine',
      metadata: {
        name: `${ms.metadata!.name}-${this.suffix()}`,
        namespace: ms.metadata!.namespace!,
        labels: template.metadata?.labels as Record<string, string> | undefined,
        annotations: template.metadata?.annotations as Record<string, string> | undefined,
        ownerReferences: [controllerRef(ms)],
      },
      spec: { ...template.spec, class: template.spec?.class ?? ms.spec?.machineClass },
    };
  }
}
