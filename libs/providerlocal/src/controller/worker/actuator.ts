// provider-local's Worker actuator: writes the MachineClasses (with their user data Secrets) and MachineDeployments the
// Worker's pools want (machines.ts), removes those no pool wants any more, waits until the deployments have rolled out
// (every machine updated and Running), and reports `status.machineDeployments`. Deleting the Worker deletes the
// deployments and waits until every Machine is gone before the classes go. As Gardener's generic Worker actuator, a
// hibernating shoot's and a deleted Worker's machines are labelled `force-deletion: "True"` first, so their drain does
// not wait for PodDisruptionBudgets. The local machine controller (machine/) turns the deployments into machine Pods.
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
import { MachineClassKind, MachineDeploymentKind, MachineKind, type MachineDeployment } from '../../machine/objects.js';
import { ForceDeletionLabel } from '../../machine/controller/machine/drain.js';
import { MachineClassSecretPurpose, PoolLabel, wantedMachines, type CloudProfileConfig } from './machines.js';

/** The field manager of the actuator's writes. */
export const FieldManager = 'gardener-extension-provider-local';

/** Options of the Worker actuator. */
export interface WorkerActuatorOptions {
  /** How long one reconcile waits for the deployments to roll out before it reports and retries; 2 min by default. */
  rolloutWaitMs?: number;
  /** Poll interval while waiting; 1 s by default. */
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

  async reconcile(ctx: ActuatorContext, worker: ExtensionObject): Promise<ActuatorResult> {
    const namespace = worker.metadata!.namespace!;
    const spec = worker.spec as unknown as extensionsv1alpha1.WorkerSpec;
    const existing = (await ctx.client.list(MachineDeploymentKind, { namespace })).items;
    const hibernated = isHibernationEnabled(ctx.cluster);
    if (hibernated) await markAllMachinesForcefulDeletion(ctx.client, namespace);
    const wanted = wantedMachines(
      { metadata: { namespace }, spec },
      {
        cloudProfileConfig: ctx.cluster?.cloudProfile.spec?.providerConfig as CloudProfileConfig | undefined,
        kubernetesVersion: ctx.cluster?.shoot.spec?.kubernetes?.version,
        existingReplicas: Object.fromEntries(existing.map((md) => [md.metadata!.name!, md.spec?.replicas ?? 0])),
        hibernated,
      },
    );

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
   * Machines of local mode are Pods of this seed: they cannot move to another seed. Migrating deletes them; the new
   * seed creates machines from the Worker again (Gardener moves the machine state along — not done here).
   */
  async migrate(ctx: ActuatorContext, worker: ExtensionObject): Promise<void> {
    await this.delete(ctx, worker);
  }

  async restore(ctx: ActuatorContext, worker: ExtensionObject): Promise<ActuatorResult> {
    return this.reconcile(ctx, worker);
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
      await new Promise((resolve) => setTimeout(resolve, this.options.pollMs ?? 1000));
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
