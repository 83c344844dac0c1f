// Gardener's seed backup buckets check reconciler: keeps a Seed's BackupBucketsReady condition in step with the
// BackupBuckets whose `spec.seedName` is the seed, and checks again every `syncPeriod`.
import { SeedConditionType } from '@gardener-ts/api';
import {
  getOrInitCondition,
  ignoreNotFound,
  systemClock,
  type Client,
  type ConditionThresholds,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { BackupBucketKind, SeedKind } from '../../../kinds.js';
import { patchSeedCondition, seedConditions, thresholdFor } from '../utils.js';
import { backupBucketsReadyCondition } from './buckets.js';

export interface SeedBackupBucketsCheckOptions {
  client: Pick<Client, 'get' | 'list' | 'patch'>;
  syncPeriodMs: number;
  /** `conditionThresholds` of the configuration, in ms per condition type. */
  thresholds: ConditionThresholds;
  clock?: WallClock;
}

/** Maintains BackupBucketsReady on one Seed. */
export class SeedBackupBucketsCheckReconciler {
  private readonly clock: WallClock;

  constructor(private readonly o: SeedBackupBucketsCheckOptions) {
    this.clock = o.clock ?? systemClock;
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const seed = await this.o.client.get(SeedKind, { name: req.name }).catch(ignoreNotFound);
    if (!seed) {
      ctx.log.debug('Object is gone, stop reconciling');
      return;
    }
    const buckets = (await this.o.client.list(BackupBucketKind)).items.filter((b) => b.spec.seedName === req.name);
    const type = SeedConditionType.BackupBucketsReady;
    const condition = backupBucketsReadyCondition(
      getOrInitCondition(seedConditions(seed), type, this.clock),
      buckets,
      thresholdFor(this.o.thresholds, type),
      this.clock,
    );
    if (await patchSeedCondition(this.o.client, seed, condition)) {
      ctx.log.info({ conditionType: type, conditionStatus: condition.status }, 'Successfully patched condition');
    }
    return { requeueAfter: this.o.syncPeriodMs };
  }
}
