// The ControllerInstallation "care" reconciler: every controllerInstallationCare.syncPeriod, Installed/Healthy/
// Progressing of this seed's installations from their ManagedResources.
import {
  conditionsNeedUpdate,
  ignoreNotFound,
  systemClock,
  type Client,
  type ReconcileResult,
  type Request,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { GARDEN_NAMESPACE } from '../../constants.js';
import { ControllerInstallationKind, ManagedResourceKind } from '../controllerinstallation/kinds.js';
import { careConditions } from './conditions.js';
import { patchStatusOptimistically } from '../../status.js';

export interface ControllerInstallationCareDeps {
  garden: Pick<Client, 'get' | 'patch'>;
  seed: Pick<Client, 'get'>;
  seedName: string;
  syncPeriodMs: number;
  clock?: WallClock;
}

/** Maintains the health conditions of this seed's ControllerInstallations. */
export class ControllerInstallationCareReconciler {
  constructor(private readonly deps: ControllerInstallationCareDeps) {}

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const ci = await this.deps.garden.get(ControllerInstallationKind, { name: req.name }).catch(ignoreNotFound);
    if (!ci || ci.spec.seedRef?.name !== this.deps.seedName || ci.metadata?.deletionTimestamp) return;
    const mr = await this.deps.seed
      .get(ManagedResourceKind, { namespace: GARDEN_NAMESPACE, name: req.name })
      .catch(ignoreNotFound);
    await patchStatusOptimistically(
      this.deps.garden,
      ControllerInstallationKind,
      { name: req.name },
      (_ci, existing) => {
        const conditions = careConditions(existing, mr, this.deps.clock ?? systemClock);
        return conditionsNeedUpdate(existing, conditions) ? { conditions } : undefined;
      },
    );
    return { requeueAfter: this.deps.syncPeriodMs };
  }
}
