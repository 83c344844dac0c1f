// provider-local's Worker actuator: writes the MachineClasses (with their user data Secrets) and MachineDeployments the
// Worker's pools want (machines.ts), removes those no pool wants any more, waits until the deployments have rolled out
// (every machine updated and Running), and reports `status.machineDeployments`. Deleting the Worker deletes the
// deployments and waits until every Machine is gone before the classes go. As Gardener's generic Worker actuator, a
// hibernating shoot's and a deleted Worker's machines are labelled `force-deletion: "True"` first, so their drain does
// not wait for PodDisruptionBudgets. The local machine controller (machine/) turns the deployments into machine Pods.
// Migrate and restore carry the machines through a control plane migration under their names (./migration.ts).
import { Kinds, ignoreNotFound, type Client, type Secret } from '@gardener-ts/controller-runtime';
import {
  RequeueAfterError,
  isHibernationEnabled,
  type Actuator,
  type ActuatorContext,
  type ActuatorResult,
  type ExtensionObject,
} from '@gardener-ts/extensions';
import type { extensionsv1alpha1 } from '@gardener-ts/api';
import {
  MachineClassKind,
  MachineDeploymentKind,
  MachineKind,
  MachineMigrationAnnotation,
  MachineSetKind,
  migrationOf,
  type MachineDeployment,
} from '../../machine/objects.js';
import { ForceDeletionLabel } from '../../machine/controller/machine/drain.js';
import {
  MachineClassSecretPurpose,
  PoolLabel,
  wantedMachines,
  type CloudProfileConfig,
  type WorkerRotationStatus,
} from './machines.js';
import {
  machineStateOfWorker,
  releaseMachines,
  restoreDeployment,
  restorePlan,
  setMigrationHold,
} from './migration.js';

/** The field manager of the actuator's writes. */
export const FieldManager = 'gardener-extension-provider-local';

/** Options of the Worker actuator. */
export interface WorkerActuatorOptions {
  /** How long one reconcile waits for the deployments to roll out before it reports and retries; 2 min by default. */
  rolloutWaitMs?: number;
  /** Poll interval while waiting; 200 ms by default (the reads are the cache's: no request to the API server). */
  pollMs?: number;
  now?: () => Date;
}

const apply = (client: Client, obj: { kind?: string; metadata?: { name?: string; namespace?: string } }, kind: any) =>
  client.patch(
    kind,
    { namespace: obj.metadata!.namespace!, name: obj.metadata!.name! },
    { type: 'apply', patch: obj as Record<string, unknown>, fieldManager: FieldManager, force: true },
  );

/** Whether a MachineDeployment has all its machines updated and available. */
export function rolledOut(md: MachineDeployment): boolean {
  const want = md.spec?.replicas ?? 0;
  const s = md.status ?? {};
  return (
    (s.observedGeneration ?? 0) >= (md.metadata?.generation ?? 0) &&
    (s.updatedReplicas ?? 0) === want &&
    (s.availableReplicas ?? 0) === want &&
    (s.replicas ?? 0) === want
  );
}

/**
 * The MachineDeployments written (name → generation after the write) that have not rolled out yet (pure): missing
 * from the cache, seen there at an older generation (a cache that has not caught up holds the old spec — e.g. 0
 * replicas of a hibernated pool — which would look rolled out), or not rolled out.
 */
export function notRolledOut(
  found: ReadonlyMap<string, MachineDeployment>,
  written: ReadonlyMap<string, number>,
): string[] {
  return [...written]
    .filter(([name, generation]) => {
      const md = found.get(name);
      return !md || (md.metadata?.generation ?? 0) < generation || !rolledOut(md);
    })
    .map(([name]) => name);
}

/**
 * Labels every Machine of a namespace `force-deletion: "True"` (Gardener's markAllMachinesForcefulDeletion): their
 * drain deletes Pods without honouring PodDisruptionBudgets (a hibernating shoot, a deleted Worker).
 */
export async function markAllMachinesForcefulDeletion(
  client: Pick<Client, 'list' | 'patch'>,
  namespace: string,
): Promise<void> {
  for (const m of (await client.list(MachineKind, { namespace })).items) {
    if (m.metadata?.labels?.[ForceDeletionLabel] === 'True') continue;
    await client
      .patch(
        MachineKind,
        { namespace, name: m.metadata!.name! },
        { type: 'merge', patch: { metadata: { labels: { [ForceDeletionLabel]: 'True' } } } },
      )
      .catch(ignoreNotFound);
  }
}

/** provider-local's Worker actuator. */
export class WorkerActuator implements Actuator {
  constructor(private readonly options: WorkerActuatorOptions = {}) {}

  /** What the Worker wants; `keptReplicas` (a restore's) count where no deployment exists yet. */
  private wanted(
    ctx: ActuatorContext,
    worker: ExtensionObject,
    existing: MachineDeployment[],
    keptReplicas: Record<string, number> = {},
  ) {
    const spec = worker.spec as unknown as extensionsv1alpha1.WorkerSpec;
    return wantedMachines(
      { metadata: { namespace: worker.metadata!.namespace! }, spec },
      {
        cloudProfileConfig: ctx.cluster?.cloudProfile.spec?.providerConfig as CloudProfileConfig | undefined,
        kubernetesVersion: ctx.cluster?.shoot.spec?.kubernetes?.version,
        rotation: (ctx.cluster?.shoot.status as { credentials?: { rotation?: WorkerRotationStatus } } | undefined)
          ?.credentials?.rotation,
        existingReplicas: {
          ...keptReplicas,
          ...Object.fromEntries(existing.map((md) => [md.metadata!.name!, md.spec?.replicas ?? 0])),
        },
        hibernated: isHibernationEnabled(ctx.cluster),
      },
    );
  }

  /** Writes the MachineClasses the Worker wants and their Secrets (the pools' user data). */
  private async deployMachineClasses(
    ctx: ActuatorContext,
    worker: ExtensionObject,
    wanted: ReturnType<typeof wantedMachines>,
  ): Promise<void> {
    const namespace = worker.metadata!.namespace!;
    for (const { name, poolUserData } of wanted.classSecrets) {
      const source = poolUserData.secretName
        ? await ctx.client.get(Kinds.Secret, { namespace, name: poolUserData.secretName }).catch(ignoreNotFound)
        : undefined;
      const userData = source?.data?.[poolUserData.key];
      if (userData === undefined) {
        throw new Error(
          `user data of Worker ${namespace}/${worker.metadata!.name}: key ${poolUserData.key} of Secret ${namespace}/${poolUserData.secretName || '<unset>'} (spec.pools[].userDataSecretRef) not found`,
        );
      }
      const secret: Secret = {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name, namespace, labels: { ...MachineClassSecretPurpose } },
        type: 'Opaque',
        data: { userData },
      };
      await apply(ctx.client, secret, Kinds.Secret);
    }
    for (const mc of wanted.machineClasses) await apply(ctx.client, mc, MachineClassKind);
  }

  async reconcile(ctx: ActuatorContext, worker: ExtensionObject): Promise<ActuatorResult> {
    return this.reconcileWith(ctx, worker);
  }

  /** Reconciles; `keptReplicas` (a restore's) count for deployments the cache does not show yet. */
  private async reconcileWith(
    ctx: ActuatorContext,
    worker: ExtensionObject,
    keptReplicas: Record<string, number> = {},
  ): Promise<ActuatorResult> {
    const namespace = worker.metadata!.namespace!;
    const existing = (await ctx.client.list(MachineDeploymentKind, { namespace })).items;
    if (isHibernationEnabled(ctx.cluster)) await markAllMachinesForcefulDeletion(ctx.client, namespace);
    const wanted = this.wanted(ctx, worker, existing, keptReplicas);
    await this.deployMachineClasses(ctx, worker, wanted);
    // The generation each MachineDeployment has after this write: the cache the rollout is read from may still hold
    // the one before (with its old replicas, "rolled out"), which must not count.
    const written = new Map<string, number>();
    for (const md of wanted.machineDeployments) {
      const applied = (await apply(ctx.client, md, MachineDeploymentKind)) as MachineDeployment;
      written.set(md.metadata!.name!, applied.metadata?.generation ?? 0);
    }

    const wantedNames = new Set(wanted.machineDeployments.map((md) => md.metadata!.name!));
    for (const md of existing) {
      if (!wantedNames.has(md.metadata!.name!) && md.metadata?.labels?.[PoolLabel] !== undefined) {
        await ctx.client.delete(MachineDeploymentKind, { namespace, name: md.metadata!.name! }).catch(ignoreNotFound);
      }
    }
    const wantedClasses = new Set(wanted.machineClasses.map((c) => c.metadata!.name!));
    await this.waitForRollout(ctx, namespace, written, wantedClasses);
    await this.removeUnusedClasses(ctx.client, namespace, wantedClasses);

    return {
      status: {
        machineDeployments: wanted.statusDeployments,
        machineDeploymentsLastUpdateTime: (this.options.now?.() ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z'),
      },
    };
  }

  async delete(ctx: ActuatorContext, worker: ExtensionObject): Promise<void> {
    const namespace = worker.metadata!.namespace!;
    await markAllMachinesForcefulDeletion(ctx.client, namespace);
    for (const md of (await ctx.client.list(MachineDeploymentKind, { namespace })).items) {
      if (md.metadata?.labels?.[PoolLabel] === undefined || md.metadata.deletionTimestamp) continue;
      await ctx.client.delete(MachineDeploymentKind, { namespace, name: md.metadata!.name! }).catch(ignoreNotFound);
    }
    const machines = (await ctx.client.list(MachineKind, { namespace })).items;
    if (machines.length > 0) {
      throw new RequeueAfterError(`Waiting until ${machines.length} machine(s) of the Worker are deleted`, 2000);
    }
    await this.removeUnusedClasses(ctx.client, namespace, new Set());
  }

  async forceDelete(ctx: ActuatorContext, worker: ExtensionObject): Promise<void> {
    await this.delete(ctx, worker);
  }

  /**
   * Releases the machines for the control plane migration (./migration.ts): held from the machine controller, MCM
   * finalizers removed, no drain, the shoot's Nodes kept; the gardenlet keeps them in the ShootState and deletes them.
   * Gardener's Worker migrate does nothing (machine-controller-manager is gone by then and the VMs stay); a local
   * machine's VM is a Pod of this seed, which cannot move: it is deleted, and migrate waits until it is gone.
   */
  async migrate(ctx: ActuatorContext, worker: ExtensionObject): Promise<void> {
    const pods = await releaseMachines(ctx.client, worker.metadata!.namespace!);
    if (pods > 0) throw new RequeueAfterError(`Waiting until ${pods} machine Pod(s) of the Worker are deleted`, 2000);
  }

  /**
   * Gardener's Restore (RestoreWithoutReconcile, then Reconcile): the machine classes written, the MachineSets and
   * Machines of the kept machine state recreated under their names for every wanted MachineDeployment (written with
   * the kept replicas), held until all of them are in the cache, then handed to the machine controller; then a normal
   * reconcile. The machine state leaves the Worker's state once restored.
   */
  async restore(ctx: ActuatorContext, worker: ExtensionObject): Promise<ActuatorResult> {
    const namespace = worker.metadata!.namespace!;
    const state = machineStateOfWorker(worker as Parameters<typeof machineStateOfWorker>[0]);
    const existing = (await ctx.client.list(MachineDeploymentKind, { namespace })).items;
    const kept = Object.fromEntries(
      Object.entries(state)
        .filter(([, s]) => s.replicas !== undefined)
        .map(([name, s]) => [name, s.replicas!]),
    );
    const wanted = this.wanted(ctx, worker, existing, kept);
    // Restored before: a deployment that exists and is not held (a retried restore must not bring back machines).
    const done = new Set(existing.filter((md) => !migrationOf(md)).map((md) => md.metadata!.name!));
    const plan = restorePlan(
      state,
      wanted.machineDeployments.map((md) => md.metadata!.name!),
      done,
    );
    if (plan.length > 0) {
      await this.deployMachineClasses(ctx, worker, wanted);
      const restored: { deployment: string; machineSets: string[]; machines: string[] }[] = [];
      for (const deployment of plan) {
        const md = wanted.machineDeployments.find((d) => d.metadata!.name === deployment.name)!;
        const held = {
          ...md,
          metadata: { ...md.metadata, annotations: { [MachineMigrationAnnotation]: 'restore' } },
        };
        const written = (await apply(ctx.client, held, MachineDeploymentKind)) as MachineDeployment;
        const objects = await restoreDeployment(
          ctx.client,
          { ...written, metadata: { ...written.metadata, namespace } },
          deployment,
        );
        if (deployment.orphans.length > 0) {
          ctx.log.warn(
            { deployment: deployment.name, machines: deployment.orphans },
            'kept machines that no kept MachineSet selects are not restored',
          );
        }
        restored.push({ deployment: deployment.name, ...objects });
      }
      await this.waitForCache(
        ctx,
        namespace,
        restored.flatMap((r) => r.machines),
      );
      // Handed to the machine controller: machines first, then their sets, then the deployments.
      for (const { machines } of restored) {
        for (const name of machines) await setMigrationHold(ctx.client, MachineKind, { namespace, name }, undefined);
      }
      for (const { machineSets } of restored) {
        for (const name of machineSets) {
          await setMigrationHold(ctx.client, MachineSetKind, { namespace, name }, undefined);
        }
      }
      for (const { deployment } of restored) {
        await setMigrationHold(ctx.client, MachineDeploymentKind, { namespace, name: deployment }, undefined);
      }
    }
    const result = await this.reconcileWith(ctx, worker, kept);
    const { machineDeployments: _restored, ...ownState } = (worker.status?.state ?? {}) as Record<string, unknown>;
    return { ...result, state: ownState };
  }

  /** Waits until the cache (what the machine controllers read) has every restored Machine. */
  private async waitForCache(ctx: ActuatorContext, namespace: string, machines: string[]): Promise<void> {
    const deadline = Date.now() + (this.options.rolloutWaitMs ?? 120_000);
    for (;;) {
      const cached = new Set((await ctx.client.list(MachineKind, { namespace })).items.map((m) => m.metadata!.name!));
      const missing = machines.filter((name) => !cached.has(name));
      if (missing.length === 0) return;
      if (Date.now() >= deadline || ctx.signal.aborted) {
        throw new RequeueAfterError(`Waiting until the restored machines are seen (${missing.join(', ')})`, 2000);
      }
      await new Promise((resolve) => setTimeout(resolve, this.options.pollMs ?? 200));
    }
  }

  /** Waits until the deployments are rolled out and no machine of an old class is left. */
  private async waitForRollout(
    ctx: ActuatorContext,
    namespace: string,
    written: Map<string, number>,
    classes: Set<string>,
  ): Promise<void> {
    const names = new Set(written.keys());
    const deadline = Date.now() + (this.options.rolloutWaitMs ?? 120_000);
    for (;;) {
      // The client reads from the cache: a deployment just written may not be there yet, which counts as pending.
      const found = new Map(
        (await ctx.client.list(MachineDeploymentKind, { namespace })).items.map((md) => [md.metadata!.name!, md]),
      );
      const pending = notRolledOut(found, written);
      const oldMachines = (await ctx.client.list(MachineKind, { namespace })).items.filter(
        (m) => !classes.has(m.spec?.class?.name ?? ''),
      );
      if (oldMachines.length > 0) pending.push(`${oldMachines.length} machine(s) of old classes left`);
      if (pending.length === 0) return;
      if (Date.now() >= deadline || ctx.signal.aborted) {
        const detail = pending
          .map((name) => {
            const md = found.get(name);
            if (!names.has(name)) return name;
            return `${name}: ${md?.status?.availableReplicas ?? 0}/${md?.spec?.replicas ?? 0} available, ${md?.status?.updatedReplicas ?? 0} updated`;
          })
          .join('; ');
        throw new RequeueAfterError(`Waiting until the machine deployments are rolled out (${detail})`, 5000);
      }
      await new Promise((resolve) => setTimeout(resolve, this.options.pollMs ?? 200));
    }
  }

  private async removeUnusedClasses(client: Client, namespace: string, used: Set<string>): Promise<void> {
    const inUse = new Set(
      (await client.list(MachineKind, { namespace })).items.map((m) => m.spec?.class?.name).filter(Boolean) as string[],
    );
    for (const mc of (await client.list(MachineClassKind, { namespace })).items) {
      const name = mc.metadata!.name!;
      if (used.has(name) || inUse.has(name)) continue;
      await client.delete(MachineClassKind, { namespace, name }).catch(ignoreNotFound);
      await client.delete(Kinds.Secret, { namespace, name }).catch(ignoreNotFound);
    }
  }
}
