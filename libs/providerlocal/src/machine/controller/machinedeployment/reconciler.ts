// The MachineDeployment controller of the local machine controller (machine-controller-manager's role): keeps one
// MachineSet per Machine template (`<deployment>-<template hash>`), moves machines from old sets to the new one with
// the rolling update planner (maxSurge/maxUnavailable), deletes old sets once empty, and reports the deployment's
// status (replicas, updated, ready, available, unavailable).
import { ignoreNotFound, isAlreadyExists, type Client, type Request } from '@gardener-ts/controller-runtime';
import {
  MachineDeploymentKind,
  MachineSetKind,
  MachineTemplateHashLabel,
  controllerRef,
  isControlledBy,
  migrationOf,
  templateHash,
  type MachineDeployment,
  type MachineSet,
} from '../../objects.js';
import { planRollingUpdate } from '../../rolling.js';

/** Reconciles MachineDeployments into MachineSets. */
export class MachineDeploymentReconciler {
  constructor(private readonly client: Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'>) {}

  async reconcile(req: Request): Promise<void> {
    const md = await this.client.get(MachineDeploymentKind, req).catch(ignoreNotFound);
    if (!md || md.metadata?.deletionTimestamp) return; // its MachineSets go with it (owner references)
    // A deployment held by a control plane migration is left alone (../../objects.ts MachineMigrationAnnotation).
    if (migrationOf(md)) return;
    const spec = md.spec!;
    const replicas = spec.replicas ?? 1;
    const hash = templateHash(spec.template);
    const owned = (await this.client.list(MachineSetKind, { namespace: req.namespace })).items
      .filter((ms) => isControlledBy(ms, md))
      .sort((a, b) => (a.metadata?.creationTimestamp ?? '').localeCompare(b.metadata?.creationTimestamp ?? ''));
    let newSet = owned.find((ms) => ms.metadata?.labels?.[MachineTemplateHashLabel] === hash);
    const oldSets = owned.filter((ms) => ms !== newSet);
    if (!newSet) newSet = await this.createSet(md, hash, oldSets.length === 0 ? replicas : 0);

    if (!spec.paused) {
      const counts = (ms: MachineSet) => ({
        name: ms.metadata!.name!,
        replicas: ms.spec?.replicas ?? 0,
        available: ms.status?.availableReplicas ?? 0,
      });
      const rolling = spec.strategy?.rollingUpdate;
      const plan = planRollingUpdate({
        replicas,
        maxSurge: rolling?.maxSurge,
        maxUnavailable: rolling?.maxUnavailable,
        newSet: counts(newSet),
        oldSets: oldSets.map(counts),
      });
      if (plan.newReplicas !== (newSet.spec?.replicas ?? 0)) newSet = await this.scale(newSet, plan.newReplicas);
      for (const [name, count] of Object.entries(plan.oldReplicas)) {
        const set = oldSets.find((s) => s.metadata?.name === name)!;
        oldSets[oldSets.indexOf(set)] = await this.scale(set, count);
      }
      for (const set of oldSets) {
        if ((set.spec?.replicas ?? 0) === 0 && (set.status?.replicas ?? 0) === 0) {
          await this.client
            .delete(MachineSetKind, { namespace: req.namespace, name: set.metadata!.name! })
            .catch(ignoreNotFound);
        }
      }
    }

    const all = [newSet, ...oldSets];
    const sum = (f: (ms: MachineSet) => number | undefined) => all.reduce((n, ms) => n + (f(ms) ?? 0), 0);
    const available = sum((ms) => ms.status?.availableReplicas);
    const status = {
      observedGeneration: md.metadata?.generation,
      replicas: sum((ms) => ms.status?.replicas),
      updatedReplicas: newSet.status?.replicas ?? 0,
      readyReplicas: sum((ms) => ms.status?.readyReplicas),
      availableReplicas: available,
      unavailableReplicas: Math.max(0, replicas - available),
    };
    const current = md.status ?? {};
    if (Object.entries(status).some(([k, v]) => (current as Record<string, unknown>)[k] !== v)) {
      await this.client.patch(
        MachineDeploymentKind,
        req,
        { type: 'merge', patch: { status } },
        { subresource: 'status' },
      );
    }
  }

  private async createSet(md: MachineDeployment, hash: string, replicas: number): Promise<MachineSet> {
    const template = structuredClone(md.spec!.template);
    const templateLabels = {
      ...(template.metadata?.labels as Record<string, string> | undefined),
      [MachineTemplateHashLabel]: hash,
    };
    const set: MachineSet = {
      apiVersion: 'machine.sapcloud.io/v1alpha1',
      kind: 'MachineSet',
      metadata: {
        name: `${md.metadata!.name}-${hash}`,
        namespace: md.metadata!.namespace!,
        labels: { ...md.metadata?.labels, [MachineTemplateHashLabel]: hash },
        ownerReferences: [controllerRef(md)],
      },
      spec: {
        replicas,
        minReadySeconds: md.spec!.minReadySeconds,
        machineClass: template.spec?.class,
        selector: {
          ...md.spec!.selector,
          matchLabels: { ...md.spec!.selector?.matchLabels, [MachineTemplateHashLabel]: hash },
        },
        template: { ...template, metadata: { ...template.metadata, labels: templateLabels } },
      },
    };
    try {
      return await this.client.create(set);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      return this.client.get(MachineSetKind, { namespace: set.metadata!.namespace!, name: set.metadata!.name! });
    }
  }

  private scale(set: MachineSet, replicas: number): Promise<MachineSet> {
    return this.client.patch(
      MachineSetKind,
      { namespace: set.metadata!.namespace!, name: set.metadata!.name! },
      { type: 'merge', patch: { spec: { replicas } } },
    );
  }
}
