// The seed care reconciler: every seedCare.syncPeriod it checks the seed system components (ManagedResources in the
// seed's garden namespace, the seed's gardener-resource-manager) and maintains SeedSystemComponentsHealthy.
import {
  conditionsNeedUpdate,
  ignoreNotFound,
  kind,
  Kinds,
  mergeConditions,
  systemClock,
  type Client,
  type ConditionThresholds,
  type ReconcileResult,
  type Request,
  type WallClock,
} from '@gardener-ts/controller-runtime';
import { GARDEN_NAMESPACE } from '../../constants.js';
import { SeedKind } from '../../seed-kind.js';
import { patchStatusOptimistically } from '../../status.js';
import {
  checkDeployment,
  checkManagedResource,
  systemComponentsCondition,
  type DeploymentLike,
  type ManagedResourceLike,
  type Problem,
} from './health.js';

/** ManagedResources (resources.gardener.cloud/v1alpha1). */
export const ManagedResourceKind = kind<ManagedResourceLike>('resources.gardener.cloud/v1alpha1', 'ManagedResource');
/** The seed's own gardener-resource-manager Deployment. */
export const RESOURCE_MANAGER_DEPLOYMENT = 'gardener-resource-manager';

export interface SeedCareReconcilerDeps {
  garden: Pick<Client, 'get' | 'patch'>;
  /** Seed cluster reader (ManagedResources, Deployments). */
  seed: Pick<Client, 'get' | 'list'>;
  thresholds: ConditionThresholds;
  syncPeriodMs: number;
  clock?: WallClock;
}

/** Maintains SeedSystemComponentsHealthy. */
export class SeedCareReconciler {
  constructor(private readonly deps: SeedCareReconcilerDeps) {}

  async reconcile(req: Request): Promise<ReconcileResult | void> {
    const clock = this.deps.clock ?? systemClock;
    const seedObject = await this.deps.garden.get(SeedKind, { name: req.name }).catch(ignoreNotFound);
    if (!seedObject) return;
    const problems: Problem[] = [];
    const mrs = await this.deps.seed.list(ManagedResourceKind, { namespace: GARDEN_NAMESPACE });
    for (const mr of mrs.items) {
      const problem = checkManagedResource(mr);
      if (problem) problems.push(problem);
    }
    const grm = (await this.deps.seed
      .get(Kinds.Deployment, { namespace: GARDEN_NAMESPACE, name: RESOURCE_MANAGER_DEPLOYMENT })
      .catch(ignoreNotFound)) as DeploymentLike | undefined;
    const grmProblem = checkDeployment(RESOURCE_MANAGER_DEPLOYMENT, grm);
    if (grmProblem) problems.push(grmProblem);

    await patchStatusOptimistically(this.deps.garden, SeedKind, { name: req.name }, (_seed, existing) => {
      const conditions = mergeConditions(
        existing,
        systemComponentsCondition(existing, problems, this.deps.thresholds, clock),
      );
      return conditionsNeedUpdate(existing, conditions) ? { conditions } : undefined;
    });
    return { requeueAfter: this.deps.syncPeriodMs };
  }
}
