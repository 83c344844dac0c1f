// The ManagedSeed reconciler (Gardener pkg/gardenlet/controller/managedseed/reconciler.go with the
// gardenletdeployer actuator): for a ManagedSeed whose shoot this seed is responsible for, the `gardener` finalizer,
// `status.observedGeneration` and `ShootReconciled` — waiting (requeue after waitSyncPeriod) until the shoot is
// reconciled; then, through the shoot's access kubeconfig, the `garden` namespace in the shoot and the gardenlet chart
// applied directly into it (as Gardener's chart applier does) with the configuration derived from the ManagedSeed's
// and the parent's (values.ts) and, until bootstrapped, a bootstrap kubeconfig (bootstrap.ts). `SeedRegistered` is
// True once the Seed exists with `GardenletReady` True. Deletion in Gardener's order: the Seed deleted and waited
// for, the gardenlet's objects deleted from the shoot and waited for, the `garden` namespace deleted and waited for,
// then the finalizer released.
import { createHash } from 'node:crypto';
import { Annotations, Finalizers, GardenNamespace, Operations } from '@gardener-ts/api';
import {
  addFinalizer,
  gvkOf,
  hasFinalizer,
  ignoreNotFound,
  Kinds,
  messageOf,
  patchStatus,
  removeFinalizer,
  systemClock,
  type Client,
  type Condition,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import {
  GardenletDeploymentName,
  type GardenletChartRenderer,
  type KubeconfigCluster,
} from '../../charts/gardenlet-chart.js';
import { applyObject, issueBootstrapKubeconfig } from './bootstrap.js';
import {
  Reason,
  responsibleSeedName,
  seedDeletingCondition,
  seedRegistered,
  seedRegisteredCondition,
  seedRegisteredError,
  shootReconciled,
  shootReconciledCondition,
} from './conditions.js';
import { ManagedSeedKind, SeedKind, ShootKind, type ManagedSeed, type Seed, type Shoot } from './kinds.js';
import type { ShootConnection, ShootConnector } from './shoot-client.js';
import {
  bootstrapPlan,
  childGardenletConfig,
  kubeconfigSecretRef,
  managedSeedChartValues,
  mergeGardenletConfiguration,
  replacedPaths,
  seedTemplateOf,
  type Bootstrap,
  type BootstrapPlan,
  type Values,
} from './values.js';

/** The Deployment whose presence in the shoot's control plane namespace means the shoot runs a VPA already. */
const VPAAdmissionControllerName = 'vpa-admission-controller';

/** What the reconciler needs. */
export interface ManagedSeedReconcilerDeps {
  garden: Pick<Client, 'get' | 'patch' | 'delete'>;
  seed: Pick<Client, 'get'>;
  /** Opens a client of the shoot. */
  shootConnector: ShootConnector;
  /** Renders deploy/charts/gardenlet. */
  chart: GardenletChartRenderer;
  /** A token for a garden ServiceAccount (`ServiceAccount` bootstrapping). */
  requestServiceAccountToken: (namespace: string, name: string) => Promise<string>;
  /** The garden as the new gardenlet reaches it (the parent's, unless the child's configuration names another). */
  gardenCluster?: KubeconfigCluster;
  /** This gardenlet's own configuration (the parent's). */
  parentConfig: Values;
  seedName: string;
  waitSyncPeriodMs: number;
  syncPeriodMs: number;
  clock?: WallClock;
}

const configOf = (ms: ManagedSeed) => ms.spec.gardenlet.config as Values | undefined;
const bootstrapOf = (ms: ManagedSeed): Bootstrap => ms.spec.gardenlet.bootstrap ?? 'BootstrapToken';
const isObject = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The checksum Gardener puts on the gardenlet's Pods for the backup Secret: the first 8 hex digits of its data. */
export function secretChecksum(data: Record<string, string> | undefined): string {
  const sorted = Object.fromEntries(Object.entries(data ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 8);
}

/** Reconciles the ManagedSeeds whose shoots this seed hosts. */
export class ManagedSeedReconciler {
  constructor(private readonly deps: ManagedSeedReconcilerDeps) {}

  private get clock(): WallClock {
    return this.deps.clock ?? systemClock;
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const ms = await this.deps.garden
      .get(ManagedSeedKind, { namespace: req.namespace, name: req.name })
      .catch(ignoreNotFound);
    if (!ms) return;
    const shootName = ms.spec.shoot?.name;
    if (!shootName) return;
    const shootKey = { namespace: ms.metadata?.namespace ?? '', name: shootName };
    const shoot = await this.deps.garden.get(ShootKind, shootKey).catch((err: unknown) => {
      throw new Error(`could not get shoot ${shootKey.namespace}/${shootKey.name}`, { cause: err });
    });
    if (responsibleSeedName(shoot) !== this.deps.seedName) return;
    if (ms.metadata?.deletionTimestamp) return this.delete(ms, shoot, ctx);
    return this.apply(ms, shoot, ctx);
  }

  private async writeStatus(ms: ManagedSeed, conditions: Condition[]): Promise<ManagedSeed> {
    return patchStatus(this.deps.garden, ms, { observedGeneration: ms.metadata?.generation ?? 0, conditions });
  }

  // The reconcile branch.
  private async apply(original: ManagedSeed, shoot: Shoot, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const ms = await addFinalizer(this.deps.garden, original, Finalizers.GardenerFinalizer);
    let conditions = shootReconciledCondition(ms.status?.conditions, shoot, this.clock);
    if (!shootReconciled(shoot)) {
      ctx.log.info({ shoot: shoot.metadata?.name }, 'Waiting for shoot to be reconciled');
      await this.writeStatus(ms, conditions);
      return { requeueAfter: this.deps.waitSyncPeriodMs };
    }
    let seed: Seed | undefined;
    try {
      seed = await this.deployGardenlet(ms, shoot, ctx);
    } catch (err) {
      conditions = seedRegisteredError(conditions, Reason.ReconcileError, messageOf(err), this.clock);
      await this.writeStatus(ms, conditions).catch(ignoreNotFound);
      throw new Error(
        `could not reconcile ManagedSeed ${ms.metadata?.namespace}/${ms.metadata?.name} creation or update`,
        {
          cause: err,
        },
      );
    }
    conditions = seedRegisteredCondition(conditions, ms.metadata?.name ?? '', seed, this.clock);
    await this.writeStatus(ms, conditions);
    // Until the new gardenlet registered its Seed and is ready, look again soon (the Seed watch usually comes first).
    return { requeueAfter: seedRegistered(seed) ? this.deps.syncPeriodMs : this.deps.waitSyncPeriodMs };
  }

  // The gardenlet into the shoot; returns the Seed as it is now.
  private async deployGardenlet(ms: ManagedSeed, shoot: Shoot, ctx: ReconcileContext): Promise<Seed | undefined> {
    const name = ms.metadata?.name ?? '';
    const template = seedTemplateOf(configOf(ms), name);
    await this.checkSeedSpec(template.spec, shoot);
    const podAnnotations = await this.backupSecretAnnotations(template.spec);
    const shootConnection = await this.deps.shootConnector(shoot);
    try {
      const target = shootConnection.client;
      ctx.log.info({ shoot: shoot.metadata?.name }, 'Ensuring gardenlet namespace in target cluster');
      await this.ensureGardenNamespace(target);
      const seed = await this.deps.garden.get(SeedKind, { name }).catch(ignoreNotFound);
      const merged = mergeGardenletConfiguration(
        this.deps.parentConfig,
        configOf(ms) ?? {},
        ms.spec.gardenlet.mergeWithParent ?? true,
      );
      const bootstrap = bootstrapOf(ms);
      const secretRef = kubeconfigSecretRef(merged);
      const renewKubeconfig =
        ms.metadata?.annotations?.[Annotations.GardenerOperation] === Operations.OperationRenewKubeconfig;
      const kubeconfigSecret =
        bootstrap === 'None' ? undefined : await target.get(Kinds.Secret, secretRef).catch(ignoreNotFound);
      const plan = bootstrapPlan({
        bootstrap,
        clientCertificateExpiration: seed?.status?.clientCertificateExpirationTimestamp,
        renewKubeconfig,
        kubeconfigSecretExists: Boolean(kubeconfigSecret),
        now: this.clock.now(),
      });
      if (plan.kind === 'bootstrap' && plan.deleteKubeconfigSecret) {
        ctx.log.info({ reason: plan.reason }, 'Renewing gardenlet kubeconfig secret');
        await target.delete(Kinds.Secret, secretRef).catch(ignoreNotFound);
      }
      const config = childGardenletConfig(merged, plan, name);
      const bootstrapKubeconfig =
        plan.kind === 'bootstrap' && bootstrap !== 'None'
          ? await issueBootstrapKubeconfig(
              {
                garden: this.deps.garden,
                requestServiceAccountToken: this.deps.requestServiceAccountToken,
                now: () => this.clock.now(),
              },
              { namespace: ms.metadata?.namespace ?? '', name },
              bootstrap,
              this.gardenClusterFor(config),
            )
          : undefined;
      const objects = await this.deps.chart.render(
        managedSeedChartValues({
          deployment: ms.spec.gardenlet.deployment,
          config,
          bootstrapKubeconfig,
          podAnnotations,
        }),
        replacedPaths(plan),
      );
      ctx.log.info({ shoot: shoot.metadata?.name, objects: objects.length }, 'Deploying gardenlet into target cluster');
      for (const obj of objects) await applyObject(target, obj);
      if (renewKubeconfig) {
        await this.deps.garden.patch(
          ManagedSeedKind,
          { namespace: ms.metadata?.namespace, name },
          { type: 'merge', patch: { metadata: { annotations: { [Annotations.GardenerOperation]: null } } } },
        );
      }
      return seed;
    } finally {
      shootConnection.close();
    }
  }

  // The garden for the bootstrap kubeconfig: the parent's, with the child's gardenClusterAddress/-CACert over it.
  private gardenClusterFor(config: Values): KubeconfigCluster {
    const gcc = isObject(config['gardenClientConnection']) ? config['gardenClientConnection'] : {};
    const address = typeof gcc['gardenClusterAddress'] === 'string' ? gcc['gardenClusterAddress'] : undefined;
    const ca = typeof gcc['gardenClusterCACert'] === 'string' ? gcc['gardenClusterCACert'] : undefined;
    const base = this.deps.gardenCluster;
    if (!base && !address) throw new Error('the garden address for the bootstrap kubeconfig is unknown');
    const cluster: KubeconfigCluster = { ...(base ?? {}), server: address ?? base!.server };
    if (ca) {
      cluster['certificate-authority-data'] = ca;
      delete cluster['insecure-skip-tls-verify'];
    }
    return cluster;
  }

  // Gardener's checkSeedSpec: a seed with its own VPA (the default) cannot run in a shoot that already has one.
  private async checkSeedSpec(spec: Values, shoot: Shoot): Promise<void> {
    const settings = isObject(spec['settings']) ? spec['settings'] : {};
    const vpa = isObject(settings['verticalPodAutoscaler']) ? settings['verticalPodAutoscaler'] : {};
    if (vpa['enabled'] === false) return;
    const namespace = shoot.status?.technicalID;
    if (!namespace) return;
    const existing = await this.deps.seed
      .get(Kinds.Deployment, { namespace, name: VPAAdmissionControllerName })
      .catch(ignoreNotFound);
    if (existing) throw new Error('runtime VPA is enabled but target cluster already has a VPA');
  }

  // The backup Secret the Seed names must exist (it is not copied from the shoot's credentials); its checksum rolls
  // the gardenlet when it changes.
  private async backupSecretAnnotations(spec: Values): Promise<Record<string, string>> {
    const backup = isObject(spec['backup']) ? spec['backup'] : undefined;
    const ref = backup && isObject(backup['credentialsRef']) ? backup['credentialsRef'] : undefined;
    if (!ref || ref['apiVersion'] !== 'v1' || ref['kind'] !== 'Secret') return {};
    const key = { namespace: String(ref['namespace'] ?? ''), name: String(ref['name'] ?? '') };
    const secret = await this.deps.garden.get(Kinds.Secret, key).catch(ignoreNotFound);
    if (!secret) throw new Error(`the configured backup secret ${key.namespace}/${key.name} does not exist`);
    return { 'checksum/seed-backup-secret': `${key.name}-${secretChecksum(secret.data as Record<string, string>)}` };
  }

  private async ensureGardenNamespace(target: ShootConnection['client']): Promise<void> {
    const existing = await target.get(Kinds.Namespace, { name: GardenNamespace }).catch(ignoreNotFound);
    if (!existing) {
      await target.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: GardenNamespace } });
    }
  }

  // The deletion branch, one step per pass (Gardener's Delete): Seed, gardenlet, garden namespace, finalizer.
  private async delete(ms: ManagedSeed, shoot: Shoot, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    if (!hasFinalizer(ms, Finalizers.GardenerFinalizer)) return;
    const name = ms.metadata?.name ?? '';
    let conditions = seedDeletingCondition(ms.status?.conditions, `Unregistering seed ${name}`, false, this.clock);
    const waiting = async (message: string) => {
      conditions = seedDeletingCondition(conditions, message, false, this.clock);
      await this.writeStatus(ms, conditions);
      return { requeueAfter: this.deps.waitSyncPeriodMs };
    };
    try {
      const seed = await this.deps.garden.get(SeedKind, { name }).catch(ignoreNotFound);
      if (seed) {
        if (!seed.metadata?.deletionTimestamp) {
          ctx.log.info({ seed: name }, 'Deleting seed');
          await this.deps.garden.delete(SeedKind, { name }).catch(ignoreNotFound);
        }
        return await waiting(`Waiting for seed "${name}" to be deleted`);
      }
      const shootConnection = await this.deps.shootConnector(shoot);
      try {
        const target = shootConnection.client;
        const deployment = await target
          .get(Kinds.Deployment, { namespace: GardenNamespace, name: GardenletDeploymentName })
          .catch(ignoreNotFound);
        if (deployment) {
          if (!deployment.metadata?.deletionTimestamp) {
            ctx.log.info({ shoot: shoot.metadata?.name }, 'Deleting gardenlet from target cluster');
            await this.deleteGardenlet(ms, target);
          }
          return await waiting('Waiting for gardenlet to be deleted from target cluster');
        }
        const namespace = await target.get(Kinds.Namespace, { name: GardenNamespace }).catch(ignoreNotFound);
        if (namespace) {
          if (!namespace.metadata?.deletionTimestamp) {
            ctx.log.info({ shoot: shoot.metadata?.name }, 'Deleting garden namespace from target cluster');
            await target.delete(Kinds.Namespace, { name: GardenNamespace }).catch(ignoreNotFound);
          }
          return await waiting('Waiting for garden namespace to be deleted from target cluster');
        }
      } finally {
        shootConnection.close();
      }
    } catch (err) {
      conditions = seedRegisteredError(conditions, Reason.DeleteError, messageOf(err), this.clock);
      await this.writeStatus(ms, conditions).catch(ignoreNotFound);
      throw new Error(`could not reconcile ManagedSeed ${ms.metadata?.namespace}/${name} deletion`, { cause: err });
    }
    ctx.log.info({ seed: name }, 'Seed has been unregistered, removing finalizer');
    await removeFinalizer(this.deps.garden, ms, Finalizers.GardenerFinalizer);
  }

  // The chart's objects as last deployed (without a new bootstrap), deleted from the shoot.
  private async deleteGardenlet(ms: ManagedSeed, target: ShootConnection['client']): Promise<void> {
    const bootstrap = bootstrapOf(ms);
    const plan: BootstrapPlan = bootstrap === 'None' ? { kind: 'none' } : { kind: 'bootstrapped' };
    const config = childGardenletConfig(
      mergeGardenletConfiguration(
        this.deps.parentConfig,
        configOf(ms) ?? {},
        ms.spec.gardenlet.mergeWithParent ?? true,
      ),
      plan,
      ms.metadata?.name ?? '',
    );
    const objects = await this.deps.chart.render(
      managedSeedChartValues({ deployment: ms.spec.gardenlet.deployment, config }),
      replacedPaths(plan),
    );
    for (const obj of objects) {
      await target
        .delete(gvkOf(obj), { namespace: obj.metadata?.namespace, name: obj.metadata?.name ?? '' })
        .catch(ignoreNotFound);
    }
  }
}
