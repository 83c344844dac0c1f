// Wiring of the seed care reconciler (Gardener's pkg/gardenlet/controller/seed/care/add.go): the own Seed, again
// every seedCare.syncPeriod, and at once when a ManagedResource it checks changes its conditions.
import { controllerFor, type Controller, type Manager, type ObjectEvent } from '@gardener-ts/controller-runtime';
import { ManagedResourceKind } from '../controllerinstallation/kinds.js';
import { isOwnSeed } from '../lease/add.js';
import { GARDEN_NAMESPACE } from '../../constants.js';
import { SeedKind } from '../../seed-kind.js';
import { SeedCareReconciler, type SeedCareReconcilerDeps } from './reconciler.js';

/** The controller's name. */
export const ControllerName = 'seed-care';

/** The ManagedResource conditions whose status, reason or message matter to the care check. */
const RelevantConditions = ['ResourcesApplied', 'ResourcesHealthy', 'ResourcesProgressing'];

interface ConditionView {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}
type ManagedResourceView = {
  metadata?: { namespace?: string };
  status?: { conditions?: ConditionView[] };
};

/**
 * Gardener's `ManagedResourceConditionsChanged` (pure): creates and deletes pass; an update passes when the status,
 * reason or message of ResourcesApplied, ResourcesHealthy or ResourcesProgressing changed.
 */
export function managedResourceConditionsChanged(event: ObjectEvent<ManagedResourceView>): boolean {
  if (event.type !== 'update') return true;
  const find = (mr: ManagedResourceView, type: string) => mr.status?.conditions?.find((c) => c.type === type);
  return RelevantConditions.some((type) => {
    const [a, b] = [find(event.oldObject, type), find(event.object, type)];
    return a?.status !== b?.status || a?.reason !== b?.reason || a?.message !== b?.message;
  });
}

/**
 * Whether a ManagedResource is one the care check reads: those in the seed's garden namespace (Gardener watches the
 * `gardener.cloud/role=seed-system-component` ones; the check here reads every ManagedResource of that namespace).
 */
export function isCheckedManagedResource(event: ObjectEvent<ManagedResourceView>): boolean {
  return event.object.metadata?.namespace === GARDEN_NAMESPACE;
}

/** Adds the seed care controller. */
export function addSeedCareController(
  mgr: Manager,
  deps: Omit<SeedCareReconcilerDeps, 'garden' | 'seed'> & {
    seedName: string;
    gardenCluster: string;
    seedCluster: string;
  },
): Controller {
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.gardenCluster)
    .for(SeedKind, { predicates: [isOwnSeed(deps.seedName), (e) => e.type !== 'update'] })
    .watches(ManagedResourceKind, () => [{ namespace: '', name: deps.seedName }], {
      cluster: deps.seedCluster,
      predicates: [isCheckedManagedResource, managedResourceConditionsChanged],
    })
    .withOptions({ maxConcurrentReconciles: 1 })
    .complete(
      new SeedCareReconciler({
        ...deps,
        garden: mgr.cluster(deps.gardenCluster).api,
        seed: mgr.cluster(deps.seedCluster).api,
      }),
    );
}
