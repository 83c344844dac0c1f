// Gardener's seed extensions check reconciler: keeps a Seed's ExtensionsReady condition in step with the
// ControllerInstallations whose `spec.seedRef.name` is the seed, and checks again every `syncPeriod`.
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
import { ControllerInstallationKind, SeedKind } from '../../../kinds.js';
import { patchSeedCondition, seedConditions, thresholdFor } from '../utils.js';
import { extensionsReadyCondition } from './extensions.js';

export interface SeedExtensionsCheckOptions {
  client: Pick<Client, 'get' | 'list' | 'patch'>;
  syncPeriodMs: number;
  /** `conditionThresholds` of the configuration, in ms per condition type. */
  thresholds: ConditionThresholds;
  clock?: WallClock;
}

/** Maintains ExtensionsReady on one Seed. */
export class SeedExtensionsCheckReconciler {
  private readonly clock: WallClock;

  constructor(private readonly o: SeedExtensionsCheckOptions) {
    this.clock = o.clock ?? systemClock;
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const seed = await this.o.client.get(SeedKind, { name: req.name }).catch(ignoreNotFound);
    if (!seed) {
      ctx.log.debug('Object is gone, stop reconciling');
      return;
    }
    const installations = (await this.o.client.list(ControllerInstallationKind)).items.filter(
      (i) => i.spec.seedRef?.name === req.name,
    );
    const type = SeedConditionType.ExtensionsReady;
    const condition = extensionsReadyCondition(
      getOrInitCondition(seedConditions(seed), type, this.clock),
      installations,
      thresholdFor(this.o.thresholds, type),
      this.clock,
    );
    if (await patchSeedCondition(this.o.client, seed, condition)) {
      ctx.log.info({ conditionType: type, conditionStatus: condition.status }, 'Successfully patched condition');
    }
    return { requeueAfter: this.o.syncPeriodMs };
  }
}
