// The seed main reconciler (Gardener pkg/gardenlet/controller/seed/seed): Bootstrapped Progressing → run the seed
// flow → Bootstrapped True with status.gardener, status.kubernetesVersion, observedGeneration and capacity, or
// Bootstrapped False with the error (then retried with back-off). After the flow, the seed's BackupBucket for
// `spec.backup` in the garden. Runs again every controllers.seed.syncPeriod.
import { flowCauses } from '@gardener-ts/flow';
import {
  buildLastOperation,
  ignoreNotFound,
  messageOf,
  systemClock,
  wrapError,
  type Client,
  type Condition,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { SeedKind, type Seed } from '../../seed-kind.js';
import { patchStatusOptimistically } from '../../status.js';
import { reconcileSeedBackupBucket } from './backup-bucket.js';
import { bootstrappedConditions, capacityStatus, needsProgressing } from './components.js';
import { seedFlow, type SeedFlowResult, type SeedSystem } from './flow.js';

export interface SeedReconcilerDeps {
  /** Garden client (the Seed and its status, the seed's BackupBucket). */
  garden: Pick<Client, 'get' | 'patch' | 'create' | 'delete'>;
  system: SeedSystem;
  /** status.gardener: this gardenlet's identity and version. */
  gardener: { id: string; name: string; version: string };
  /** `resources` of the configuration (capacity, reserved). */
  resources?: { capacity?: Record<string, number | string>; reserved?: Record<string, number | string> };
  syncPeriodMs: number;
  clock?: WallClock;
  crdTimeoutMs?: number;
}

/** Reconciles the gardenlet's Seed: its system components and status. */
export class SeedReconciler {
  constructor(private readonly deps: SeedReconcilerDeps) {}

  async reconcile(req: Request, ctx?: Pick<ReconcileContext, 'signal' | 'log'>): Promise<ReconcileResult | void> {
    const { garden } = this.deps;
    const clock = this.deps.clock ?? systemClock;
    const seed = await garden.get(SeedKind, { name: req.name }).catch(ignoreNotFound);
    if (!seed) return;
    // Deletion of a seed's system components is not implemented: a deleted Seed is left alone.
    if (seed.metadata?.deletionTimestamp) return;

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
