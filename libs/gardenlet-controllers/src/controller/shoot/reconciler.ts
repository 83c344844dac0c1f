// The gardenlet's Shoot "main" reconciler (Gardener's pkg/gardenlet/controller/shoot/shoot): for the Shoots of this
// seed, the sync rules decide (pure, shoot/sync.ts), then the reconcile flow (create, reconcile, restore) or the
// delete flow runs over the botanist's steps, with the progress in `status.lastOperation` and on NATS, the failed
// tasks in `status.lastErrors`, the `Cluster` resource synced before and after, and the `gardener` finalizer held
// while the shoot has anything in the seed. A control plane migration (spec.seedName ≠ status.seedName) runs the
// migrate flow in the source seed (ShootState persisted, control plane removed, status.seedName moved on with Migrate
// Succeeded); the destination seed's gardenlet then runs the reconcile flow as a restore from the ShootState. A
// credentials rotation operation (`rotate-ca-start`, …) is recorded in `status.credentials.rotation` with the start
// status and its annotation removed; the flow's secrets follow the rotation phase, a success advances the phase and
// cleans up the secrets no longer needed.
import { SkipCleanupAnnotation } from '../../shoot/cleanup.js';
import { Annotations, LastOperationType, type CloudProfile } from '@gardener-ts/api';
import {
  addFinalizer,
  hasFinalizer,
  isNotFound,
  Kinds,
  messageOf,
  removeFinalizer,
  removeOperationAnnotation,
  isInvalid,
  determineErrorCodes,
  type Client,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import {
  LastOperationReporter,
  combineReporters,
  flowErrors,
  wasCanceled,
  type ProgressEvent,
  type ProgressReporter,
} from '@gardener-ts/flow';
import { InfrastructureKind } from '../../shoot/kinds.js';
import { KubeAPIServerName } from '../../component/kube-apiserver.js';
import { KubeControllerManagerName } from '../../component/kube-controller-manager.js';
import { controlPlaneNamespaceOf, type ShootValues } from '../../component/values.js';
import { SeedKind, type Seed } from '../../seed-kind.js';
import { Botanist, type BotanistOptions } from '../../shoot/botanist.js';
import { flowConditions } from '../../shoot/flow/conditions.js';
import { deleteFlow, type DeleteFlowState } from '../../shoot/flow/delete.js';
import type { ReconcileSteps, SkippedTask } from '../../shoot/flow/operation.js';
import { reconcileFlow } from '../../shoot/flow/reconcile.js';
import { migrateFlow, type MigrateFlowState } from '../../shoot/flow/migrate.js';
import { readShootState } from '../../shoot/shootstate-writer.js';
import {
  completingAfterSuccess,
  isRotationOperation,
  operationAnnotation,
  rotationStartStatus,
  rotationSuccessStatus,
} from '../../shoot/rotation/patch.js';
import { renderBackupEntry } from '../../component/extensions.js';
import { BackupEntryKind } from '../backupentry/kinds.js';
import { BastionKind } from '../bastion/kinds.js';
import { CloudProfileKind, NamespacedCloudProfileKind, ShootKind, type Shoot } from '../../shoot/kinds.js';
import {
  operationErrorStatus,
  operationStartStatus,
  operationSucceededStatus,
  type FailedTask,
  type GardenerInfo,
} from '../../shoot/status.js';
import {
  responsibleSeedName,
  shootSyncDecision,
  shouldPrepareShootForMigration,
  type ShootOperationType,
  type ShootSyncConfig,
} from '../../shoot/sync.js';
import type { ShootStateSpec } from '../../shoot/shootstate.js';
import type { Flow, RetryOptions } from '@gardener-ts/flow';

/** The finalizer the gardenlet holds on a Shoot while it has a control plane in the seed. */
export const ShootFinalizer = 'gardener';

/** One progress event of a shoot flow, for NATS. */
export interface ShootProgress {
  readonly shoot: Shoot;
  readonly operation: ShootOperationType;
  readonly flow: string;
  readonly event: ProgressEvent;
}

export interface ShootReconcilerDeps {
  /** The garden client for Shoots and Seeds (reads from the cache, writes to the API server). */
  readonly garden: Pick<Client, 'get' | 'patch'>;
  /** The garden API, read live: what one shoot needs (credentials, cloud profile, registrations) is not cached. */
  readonly gardenApi: Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'>;
  readonly seed: Pick<Client, 'get' | 'list' | 'create' | 'patch' | 'delete'>;
  readonly seedName: string;
  readonly sync: ShootSyncConfig;
  readonly gardener: GardenerInfo;
  readonly retryDurationMs: number;
  /** Publishes flow progress (NATS); absent without NATS. */
  readonly progress?: (p: ShootProgress) => void;
  readonly botanist?: BotanistOptions;
  /** Retry of the flows' deploy steps (Gardener's 5 s / 30 s when unset). */
  readonly flowRetry?: RetryOptions | false;
  /**
   * The steps the reconcile flow runs, chosen from the botanist's (all of them when unset); a step left out is
   * skipped as not implemented. Integration tests run a part of the flow against an API server with it.
   */
  readonly reconcileSteps?: (steps: ReconcileSteps) => ReconcileSteps;
  readonly now?: () => Date;
}

/** Reconciles the Shoots of one seed. */
export class ShootReconciler {
  constructor(private readonly deps: ShootReconcilerDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async reconcile(request: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const { garden, seedName } = this.deps;
    let shoot: Shoot;
    try {
      shoot = await garden.get(ShootKind, { namespace: request.namespace, name: request.name });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    // While a migration is pending the source seed acts, afterwards the destination (Gardener's responsible seed).
    if (responsibleSeedName(shoot) !== seedName) return;
    const seed = await garden.get(SeedKind, { name: seedName });

    if (shoot.metadata?.deletionTimestamp) {
      if (!hasFinalizer(shoot, ShootFinalizer)) return;
      return this.delete(shoot, seed, ctx);
    }
    const decision = shootSyncDecision({
      shoot,
      seed,
      config: this.deps.sync,
      now: this.now(),
      gardenerVersion: this.deps.gardener.version,
    });
    if (decision.action === 'requeue') {
      ctx.log.debug({ reason: decision.reason }, 'not reconciling the shoot now');
      return { requeueAfter: decision.after };
    }
    if (decision.action === 'skip') {
      ctx.log.info({ reason: decision.reason }, 'skipping the shoot');
      if (decision.syncClusterResource && hasFinalizer(shoot, ShootFinalizer)) {
        await this.botanist(shoot, seed, await this.cloudProfile(shoot)).seedSteps.deployCluster();
      }
      return;
    }
    if (decision.operation === LastOperationType.Migrate && shouldPrepareShootForMigration(shoot)) {
      return this.migrate(shoot, seed, ctx);
    }
    return this.reconcileShoot(shoot, seed, decision.operation, ctx);
  }

  private async reconcileShoot(
    shoot: Shoot,
    seed: Seed,
    operation: ShootOperationType,
    ctx: ReconcileContext,
  ): Promise<ReconcileResult | void> {
    const cloudProfile = await this.cloudProfile(shoot);
    const namespace = controlPlaneNamespaceOf(shoot);
    // The status first: it carries what the API requires of a claimed shoot (gardener, hibernated), which any later
    // write of the object is validated against. A rotation operation is recorded in `status.credentials.rotation`
    // and its annotation removed: the flow runs with the rotation status, its success advances the phases.
    const requested = operationAnnotation(shoot);
    const started = this.now();
    shoot = await this.patchStatus(shoot, {
      ...operationStartStatus(shoot, operation, namespace, this.deps.gardener, started),
      ...rotationStartStatus(shoot, requested, started),
    });
    if (isRotationOperation(requested)) shoot = await removeOperationAnnotation(this.deps.garden as Client, shoot);
    // A restore starts from the ShootState the source seed persisted; without one there is nothing to restore from.
    // Checked after the start status (as Gardener, whose botanist reads it inside the operation), so the retry cycle
    // runs: the Restore is retried as Error and turns Failed once controllers.shoot.retryDuration has passed.
    let restoreFrom: ShootStateSpec | undefined;
    if (operation === LastOperationType.Restore) {
      const state = await readShootState(this.deps.gardenApi, shoot);
      if (!state) {
        await this.patchStatus(
          shoot,
          operationErrorStatus(
            shoot,
            operation,
            [
              {
                taskID: 'restore',
                description: `ShootState ${describe(shoot)} not found: the control plane cannot be restored without the state the source seed persisted`,
                codes: [],
              },
            ],
            0,
            this.now(),
            this.deps.retryDurationMs,
          ),
        );
        return { requeueAfter: this.deps.sync.waitSyncPeriod };
      }
      restoreFrom = state.spec;
    }
    shoot = await addFinalizer(this.deps.garden, shoot, ShootFinalizer);
    const botanist = this.botanist(shoot, seed, cloudProfile, restoreFrom);
    await botanist.prepare();
    const steps = botanist.reconcileSteps();
    const { flow, skipped } = reconcileFlow(
      this.deps.reconcileSteps?.(steps) ?? steps,
      flowConditions(shoot, seed, {
        restoring: operation === LastOperationType.Restore,
        // Gardener's IsCopyOfBackupsRequired: a restore copies etcd's backups into this seed's bucket.
        copyOfBackupsRequired: await botanist.isCopyOfBackupsRequired(),
      }),
      this.deps.flowRetry === undefined ? {} : { retry: this.deps.flowRetry },
    );
    const flowShoot = shoot;
    const ok = await this.runFlow(
      shoot,
      operation,
      flow,
      skipped,
      ctx,
      () => ({
        hibernated: flowShoot.spec.hibernation?.enabled === true,
        ...rotationSuccessStatus(flowShoot, requested, this.now()),
      }),
      // Gardener's cleanup of the secrets no longer needed (old CAs and keys of a completed rotation, replaced
      // configs) once the flow succeeded.
      () => botanist.seedSteps.cleanupSecrets(),
    );
    if (!ok) return { requeueAfter: this.deps.sync.waitSyncPeriod };
    await botanist.seedSteps.deployCluster();
    await removeOperationAnnotation(this.deps.garden as Client, shoot).catch((err: unknown) =>
      ctx.log.error({ err }, 'could not remove the operation annotation'),
    );
    await this.removeTasks(shoot).catch((err: unknown) =>
      ctx.log.error({ err }, 'could not remove the tasks annotation'),
    );
    // A rotation left Completing (the single-operation ETCD encryption key rotation) is completed by the next flow.
    if (completingAfterSuccess(flowShoot, requested, this.now())) return { requeueAfter: 1_000 };
    return { requeueAfter: this.deps.sync.syncPeriod };
  }

  /**
   * The tasks the flow ran (`shoot.gardener.cloud/tasks`, ShootMutator's) are done once it succeeded: the annotation
   * is removed, as Gardener does, unless tasks were added while the flow ran (then the next reconcile runs them).
   */
  private async removeTasks(shoot: Shoot): Promise<void> {
    const done = shoot.metadata?.annotations?.[Annotations.ShootTasks];
    if (done === undefined) return;
    // A JSON patch that tests the value first: atomic, and independent of how fresh the cache is.
    const path = `/metadata/annotations/${Annotations.ShootTasks.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    await (this.deps.garden as Client)
      .patch(
        ShootKind,
        { namespace: shoot.metadata!.namespace!, name: shoot.metadata!.name! },
        {
          type: 'json',
          patch: [
            { op: 'test', path, value: done },
            { op: 'remove', path },
          ],
        },
      )
      .catch((err: unknown) => {
        // Invalid: the tasks changed while the flow ran (the next reconcile runs them); not found: the Shoot is gone.
        if (!isInvalid(err) && !isNotFound(err)) throw err;
      });
  }

  /**
   * Prepares the shoot for its migration to `spec.seedName` (Gardener's `migrateShoot`): once the controller-manager
   * confirmed the destination seed's readiness (`ReadyForMigration`, checked by the sync decision), the migrate flow runs; on success the `Cluster` goes, and `lastOperation` Migrate Succeeded with
   * `status.seedName` set to the destination hands the shoot over to the destination's gardenlet (restore).
   */
  private async migrate(shoot: Shoot, seed: Seed, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const operation = LastOperationType.Migrate;
    // Gardener refuses to migrate a shoot that still has Bastions (their extension objects live in the source seed).
    const bastions = (await this.deps.gardenApi.list(BastionKind, { namespace: shoot.metadata?.namespace })).items
      .filter((b) => b.spec?.shootRef?.name === shoot.metadata?.name)
      .map((b) => b.metadata?.name ?? '');
    if (bastions.length > 0) {
      await this.patchStatus(
        shoot,
        operationErrorStatus(
          shoot,
          operation,
          [
            {
              taskID: 'migrate',
              description: `Shoot ${describe(shoot)} still has Bastions (${bastions.join(', ')}): they must be deleted before its control plane migrates`,
              codes: [],
            },
          ],
          0,
          this.now(),
          this.deps.retryDurationMs,
        ),
      );
      return { requeueAfter: this.deps.sync.waitSyncPeriod };
    }
    const namespace = controlPlaneNamespaceOf(shoot);
    shoot = await this.patchStatus(
      shoot,
      operationStartStatus(shoot, operation, namespace, this.deps.gardener, this.now()),
    );
    const botanist = this.botanist(shoot, seed, await this.cloudProfile(shoot));
    await botanist.prepare();
    const state = await this.migrateState(shoot, botanist.values);
    ctx.log.info({ state, destination: shoot.spec.seedName }, 'What the source seed holds of the shoot to migrate');
    const { flow, skipped } = migrateFlow(
      botanist.migrateSteps(),
      flowConditions(shoot, seed),
      state,
      this.deps.flowRetry === undefined ? {} : { retry: this.deps.flowRetry },
    );
    const ok = await this.runFlow(shoot, operation, flow, skipped, ctx, { seedName: shoot.spec.seedName }, () =>
      botanist.deleteCluster(),
    );
    if (!ok) return { requeueAfter: this.deps.sync.waitSyncPeriod };
  }

  /** What the migrate flow needs to know about the source seed and the garden. */
  private async migrateState(shoot: Shoot, values: ShootValues): Promise<MigrateFlowState> {
    const namespace = values.namespace;
    const get = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await read();
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    };
    const ns = await get(() => this.deps.seed.get(Kinds.Namespace, { name: namespace }));
    const kapi = await get(() => this.deps.seed.get(Kinds.Deployment, { namespace, name: KubeAPIServerName }));
    const namespaceActive = ns !== undefined && !ns.metadata?.deletionTimestamp;
    // The final snapshot is taken when the shoot's BackupEntry belongs to this seed (Gardener's etcdSnapshotRequired).
    const rendered = renderBackupEntry(values, { bucketName: '' });
    const entry = rendered
      ? await get(() =>
          this.deps.gardenApi.get(BackupEntryKind, {
            namespace: rendered.metadata?.namespace,
            name: rendered.metadata?.name ?? '',
          }),
        )
      : undefined;
    return {
      namespaceActive,
      kubeAPIServerDeploymentFound: kapi !== undefined && !kapi.metadata?.deletionTimestamp,
      etcdSnapshotRequired: namespaceActive && entry !== undefined && entry.spec.seedName === shoot.status?.seedName,
    };
  }

  private async delete(shoot: Shoot, seed: Seed, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const operation = LastOperationType.Delete;
    const namespace = controlPlaneNamespaceOf(shoot);
    shoot = await this.patchStatus(
      shoot,
      operationStartStatus(shoot, operation, namespace, this.deps.gardener, this.now()),
    );
    const botanist = this.botanist(shoot, seed, await this.cloudProfile(shoot));
    await botanist.prepare();
    const state = {
      ...(await this.deleteState(namespace, shoot.metadata!.name!)),
      skipCleanup: shoot.metadata?.annotations?.[SkipCleanupAnnotation] !== undefined,
    };
    ctx.log.info({ state }, 'What the seed holds of the shoot to delete');
    const { flow, skipped } = deleteFlow(
      botanist.deleteSteps(),
      flowConditions(shoot, seed),
      state,
      this.deps.flowRetry === undefined ? {} : { retry: this.deps.flowRetry },
    );
    const ok = await this.runFlow(shoot, operation, flow, skipped, ctx);
    if (!ok) return { requeueAfter: this.deps.sync.waitSyncPeriod };
    await botanist.deleteCluster();
    await removeFinalizer(this.deps.garden as Client, shoot, ShootFinalizer);
  }

  /** What the delete flow needs to know about the seed. */
  private async deleteState(namespace: string, shootName: string): Promise<DeleteFlowState> {
    const { seed } = this.deps;
    const get = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await read();
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    };
    const ns = await get(() => seed.get(Kinds.Namespace, { name: namespace }));
    const kapi = await get(() => seed.get(Kinds.Deployment, { namespace, name: KubeAPIServerName }));
    const kcm = await get(() => seed.get(Kinds.Deployment, { namespace, name: KubeControllerManagerName }));
    // With its Infrastructure there, the flow brings the control plane up far enough to clean the shoot (a hibernated
    // shoot's etcd, kube-apiserver, resource manager and controller manager are scaled up again).
    const infrastructure = await get(() => seed.get(InfrastructureKind, { namespace, name: shootName }));
    return {
      namespaceActive: ns !== undefined && !ns.metadata?.deletionTimestamp,
      kubeAPIServerDeploymentFound: kapi !== undefined,
      kubeControllerManagerDeploymentFound: kcm !== undefined,
      infrastructureFound: infrastructure !== undefined,
      // The ControlPlane is not deployed again for the deletion (provider-local's needs nothing of it to clean up).
      controlPlaneDeploymentNeeded: false,
    };
  }

  /**
   * Runs a flow with its progress written to `status.lastOperation` and published; writes the outcome. True when it
   * succeeded.
   */
  private async runFlow(
    shoot: Shoot,
    operation: ShootOperationType,
    flow: Flow,
    skipped: readonly SkippedTask[],
    ctx: ReconcileContext,
    /** More of the success status (a function: computed once the flow succeeded). */
    onSuccess: Record<string, unknown> | (() => Record<string, unknown>) = {},
    /** Runs after the flow and before the success is written; its failure is the operation's. */
    finish?: () => Promise<void>,
  ): Promise<boolean> {
    let progress = 0;
    const lastOperation = new LastOperationReporter(async (update) => {
      progress = update.progress;
      await this.patchStatus(shoot, {
        lastOperation: { type: operation, state: 'Processing', ...update },
      });
    });
    const reporters: ProgressReporter[] = [lastOperation];
    const publish = this.deps.progress;
    if (publish) reporters.push({ report: (event) => publish({ shoot, operation, flow: flow.name, event }) });
    ctx.log.info({ operation, skipped: skipped.length }, `running ${flow.name}`);
    try {
      await flow.run({ signal: ctx.signal, reporter: combineReporters(...reporters), logger: ctx.log });
      await finish?.();
    } catch (err) {
      if (wasCanceled(err)) throw err;
      const failed: FailedTask[] = flowErrors(err).map((e) => ({
        taskID: String(e.taskId),
        description: messageOf(e.cause),
        codes: determineErrorCodes(e.cause),
      }));
      if (failed.length === 0) failed.push({ taskID: flow.name, description: messageOf(err), codes: [] });
      ctx.log.error({ err, failed: failed.map((f) => f.taskID) }, `${flow.name} failed`);
      await this.patchStatus(
        shoot,
        operationErrorStatus(shoot, operation, failed, progress, this.now(), this.deps.retryDurationMs),
      );
      return false;
    }
    await this.patchStatus(shoot, {
      ...operationSucceededStatus(operation, skipped, this.now()),
      ...(typeof onSuccess === 'function' ? onSuccess() : onSuccess),
    });
    ctx.log.info({ operation }, `${flow.name} succeeded`);
    return true;
  }

  private botanist(shoot: Shoot, seed: Seed, cloudProfile: CloudProfile, restoreFrom?: ShootStateSpec): Botanist {
    const values: ShootValues = {
      shoot,
      seed,
      cloudProfile,
      namespace: controlPlaneNamespaceOf(shoot),
    };
    return new Botanist(this.deps.gardenApi, this.deps.seed, values, {
      ...this.deps.botanist,
      ...(this.deps.now ? { now: this.deps.now } : {}),
      ...(restoreFrom ? { restoreFrom } : {}),
    });
  }

  /** The Shoot's CloudProfile (`spec.cloudProfile` or `spec.cloudProfileName`); a NamespacedCloudProfile's result. */
  private async cloudProfile(shoot: Shoot): Promise<CloudProfile> {
    const ref = shoot.spec.cloudProfile ?? { kind: 'CloudProfile', name: shoot.spec.cloudProfileName ?? '' };
    if (ref.kind === 'NamespacedCloudProfile') {
      const ncp = await this.deps.gardenApi.get(NamespacedCloudProfileKind, {
        namespace: shoot.metadata?.namespace,
        name: ref.name,
      });
      const spec = (ncp.status as { cloudProfileSpec?: CloudProfile['spec'] } | undefined)?.cloudProfileSpec;
      if (!spec)
        throw new Error(
          `NamespacedCloudProfile ${shoot.metadata?.namespace}/${ref.name} has no status.cloudProfileSpec yet`,
        );
      return { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'CloudProfile', metadata: ncp.metadata, spec };
    }
    return this.deps.gardenApi.get(CloudProfileKind, { name: ref.name });
  }

  /** Merge-patches the Shoot's status and returns the Shoot as written. */
  private async patchStatus(shoot: Shoot, status: Record<string, unknown>): Promise<Shoot> {
    return this.deps.garden.patch(
      ShootKind,
      { namespace: shoot.metadata?.namespace, name: shoot.metadata?.name ?? '' },
      { type: 'merge', patch: { status } },
      { subresource: 'status' },
    );
  }
}

function describe(shoot: Shoot): string {
  return `${shoot.metadata?.namespace}/${shoot.metadata?.name}`;
}
