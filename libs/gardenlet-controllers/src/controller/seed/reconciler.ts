// The seed main reconciler (Gardener pkg/gardenlet/controller/seed/seed): the `gardener` finalizer, Bootstrapped
// Progressing → run the seed flow → Bootstrapped True with status.gardener, status.kubernetesVersion,
// observedGeneration and capacity, or Bootstrapped False with the error (then retried with back-off). After the flow,
// the seed's BackupBucket for `spec.backup` in the garden. Runs again every controllers.seed.syncPeriod.
// A Seed being deleted (reconciler_delete.go): lastOperation Delete; while Shoots or BackupBuckets reference it an
// Event names them and the deletion waits; then the "Seed deletion" flow (deletion.ts) and the finalizer goes.
import { Finalizers } from '@gardener-ts/api';
import { flowCauses } from '@gardener-ts/flow';
import {
  buildLastOperation,
  hasFinalizer,
  addFinalizer,
  ignoreNotFound,
  messageOf,
  removeFinalizer,
  systemClock,
  wrapError,
  type Client,
  type Condition,
  type EventRecorder,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { SeedKind, type Seed } from '../../seed-kind.js';
import { ShootKind } from '../../shoot/kinds.js';
import { patchStatusOptimistically } from '../../status.js';
import { BackupBucketKind } from '../backupbucket/kinds.js';
import { ControllerInstallationKind } from '../controllerinstallation/kinds.js';
import { reconcileSeedBackupBucket, seedBackupBucketName } from './backup-bucket.js';
import { bootstrappedConditions, capacityStatus, needsProgressing } from './components.js';
import {
  backupBucketsAssociatedTo,
  controllerInstallationsAssociatedTo,
  EventResourceReferenced,
  REQUEUE_BACKUP_BUCKETS_MS,
  REQUEUE_SHOOTS_MS,
  seedDeleteFlow,
  shootsAssociatedTo,
  stillReferencedMessage,
} from './deletion.js';
import { seedFlow, type SeedFlowResult, type SeedSystem } from './flow.js';

export interface SeedReconcilerDeps {
  /** Garden client (the Seed and its status, the seed's BackupBucket; Shoots, BackupBuckets, ControllerInstallations). */
  garden: Pick<Client, 'get' | 'list' | 'patch' | 'create' | 'delete'>;
  /** Events about the Seed (what still references a Seed being deleted). */
  events?: Pick<EventRecorder, 'event'>;
  system: SeedSystem;
  /** status.gardener: this gardenlet's identity and version. */
  gardener: { id: string; name: string; version: string };
  /** `resources` of the configuration (capacity, reserved). */
  resources?: { capacity?: Record<string, number | string>; reserved?: Record<string, number | string> };
  syncPeriodMs: number;
  clock?: WallClock;
  crdTimeoutMs?: number;
  /** Deadline of each destroy-and-wait task of the deletion flow (default one minute). */
  deleteWaitTimeoutMs?: number;
}

/** Reconciles the gardenlet's Seed: its system components and status. */
export class SeedReconciler {
  constructor(private readonly deps: SeedReconcilerDeps) {}

  async reconcile(req: Request, ctx?: Pick<ReconcileContext, 'signal' | 'log'>): Promise<ReconcileResult | void> {
    const { garden } = this.deps;
    const clock = this.deps.clock ?? systemClock;
    const seed = await garden.get(SeedKind, { name: req.name }).catch(ignoreNotFound);
    if (!seed) return;
    if (seed.metadata?.deletionTimestamp) return this.delete(seed, clock, ctx);

    const name = req.name;
    // status.lastOperation as Gardener's seed reconciler writes it (the scheduler only picks seeds that have one).
    const operationType = (seed.status as { lastOperation?: unknown } | undefined)?.lastOperation
      ? 'Reconcile'
      : 'Create';
    const lastOperation = (state: 'Processing' | 'Succeeded' | 'Error', progress: number, description: string) =>
      buildLastOperation(operationType, state, progress, description, clock.now());
    if (needsProgressing(seed, this.deps.gardener.version)) {
      await this.patchStatus(name, (conditions) => ({
        conditions: bootstrappedConditions(conditions, 'Progressing', 'Seed cluster is being bootstrapped.', clock),
        lastOperation: lastOperation('Processing', 0, 'Seed cluster is being reconciled.'),
      }));
    }

    const result: SeedFlowResult = {};
    try {
      await addFinalizer(garden, seed, Finalizers.GardenerFinalizer);
      await seedFlow(this.deps.system, result, { crdTimeoutMs: this.deps.crdTimeoutMs }).run({
        signal: ctx?.signal,
        logger: ctx?.log,
      });
      // After the flow, as Gardener: the seed's BackupBucket for spec.backup (deleted when the backup is removed).
      await reconcileSeedBackupBucket(garden, seed);
    } catch (err) {
      const message = flowCauses(err).map(messageOf).join('; ') || messageOf(err);
      await this.patchStatus(name, (conditions) => ({
        conditions: bootstrappedConditions(conditions, 'False', message, clock),
        lastOperation: lastOperation('Error', 50, message),
        ...(result.kubernetesVersion ? { kubernetesVersion: result.kubernetesVersion } : {}),
      }));
      throw wrapError(err, `reconciling Seed ${name}`);
    }

    await this.patchStatus(name, (conditions) => ({
      ...this.successStatus(
        seed,
        bootstrappedConditions(conditions, 'True', 'Seed cluster has been bootstrapped successfully.', clock),
        result,
      ),
      lastOperation: lastOperation('Succeeded', 100, 'Seed cluster has been successfully reconciled.'),
    }));
    return { requeueAfter: this.deps.syncPeriodMs };
  }

  /** The deletion of the Seed (Gardener's `delete`): wait for what references it, run the flow, drop the finalizer. */
  private async delete(
    seed: Seed,
    clock: WallClock,
    ctx?: Pick<ReconcileContext, 'signal' | 'log'>,
  ): Promise<ReconcileResult | void> {
    if (!hasFinalizer(seed, Finalizers.GardenerFinalizer)) return;
    const { garden } = this.deps;
    const name = seed.metadata!.name!;
    const lastOperation = (state: 'Processing' | 'Error', description: string) =>
      buildLastOperation('Delete', state, 0, description, clock.now());
    await this.patchStatus(name, () => ({
      gardener: this.deps.gardener,
      lastOperation: lastOperation('Processing', 'Deletion of Seed cluster in progress.'),
    }));
    try {
      const shoots = shootsAssociatedTo((await garden.list(ShootKind)).items, name);
      if (shoots.length > 0) {
        ctx?.log.info({ shoots }, 'Cannot delete Seed because the following Shoots are still referencing it');
        this.deps.events?.event(seed, 'Normal', EventResourceReferenced, stillReferencedMessage('Shoots', shoots));
        return { requeueAfter: REQUEUE_SHOOTS_MS };
      }
      if (seed.spec.backup) {
        await garden.delete(BackupBucketKind, { name: seedBackupBucketName(seed) }).catch(ignoreNotFound);
      }
      const buckets = backupBucketsAssociatedTo((await garden.list(BackupBucketKind)).items, name);
      if (buckets.length > 0) {
        ctx?.log.info({ backupBuckets: buckets }, 'Cannot delete Seed because BackupBuckets are still referencing it');
        this.deps.events?.event(
          seed,
          'Normal',
          EventResourceReferenced,
          stillReferencedMessage('BackupBuckets', buckets),
        );
        return { requeueAfter: REQUEUE_BACKUP_BUCKETS_MS };
      }
      ctx?.log.info('No Shoots or BackupBuckets are referencing the Seed, deletion accepted');
      const seedIsGarden = await this.deps.system.isGarden(name, seed.metadata?.uid ?? '');
      await seedDeleteFlow(this.deps.system, {
        seedIsGarden,
        controllerInstallations: async () =>
          controllerInstallationsAssociatedTo((await garden.list(ControllerInstallationKind)).items, name),
        ...(this.deps.deleteWaitTimeoutMs === undefined ? {} : { waitTimeoutMs: this.deps.deleteWaitTimeoutMs }),
      }).run({ signal: ctx?.signal, logger: ctx?.log });
    } catch (err) {
      const message = flowCauses(err).map(messageOf).join('; ') || messageOf(err);
      await this.patchStatus(name, () => ({
        lastOperation: lastOperation('Error', `${message} Operation will be retried.`),
      }));
      throw wrapError(err, `deleting Seed ${name}`);
    }
    ctx?.log.info('Removing finalizer');
    await removeFinalizer(garden, seed, Finalizers.GardenerFinalizer);
  }

  private successStatus(seed: Seed, conditions: Condition[], result: SeedFlowResult): Record<string, unknown> {
    return {
      conditions,
      gardener: this.deps.gardener,
      kubernetesVersion: result.kubernetesVersion,
      observedGeneration: seed.metadata?.generation,
      ...(capacityStatus(this.deps.resources) ?? {}),
    };
  }

  private async patchStatus(
    name: string,
    change: (conditions: Condition[] | undefined) => Record<string, unknown>,
  ): Promise<void> {
    await patchStatusOptimistically(this.deps.garden, SeedKind, { name }, (_seed, conditions) => change(conditions));
  }
}
