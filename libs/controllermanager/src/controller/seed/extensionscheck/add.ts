// Registers the seed extensions check (Gardener's seed-extensions-check controller): ControllerInstallations mapped to
// their seed, only when the status, reason or message of one of the checked conditions changed; afterwards each seed
// is checked again every `syncPeriod` (its own requeue). Like Gardener, it does not watch Seeds: a seed is first
// checked when one of its installations is seen (every existing one is, when the cache starts).
import type { ControllerInstallation } from '@gardener-ts/api';
import {
  controllerFor,
  type Condition,
  type ConditionThresholds,
  type Controller,
  type Manager,
  type Predicate,
} from '@gardener-ts/controller-runtime';
import { ControllerInstallationKind } from '../../../kinds.js';
import { mapInstallationToSeed } from '../../controllerregistration/add.js';
import { InstallationConditionTypes } from './extensions.js';
import { SeedExtensionsCheckReconciler } from './reconciler.js';

/** The controller's name in logs and metrics (Gardener's). */
export const ControllerName = 'seed-extensions-check';

/** The installation's seed; none for self-hosted shoots' installations (as the registration seed controller maps). */
export const mapControllerInstallationToSeed = mapInstallationToSeed;

const sameCondition = (a: Condition | undefined, b: Condition | undefined): boolean =>
  a === b || (!!a && !!b && a.status === b.status && a.reason === b.reason && a.message === b.message);

/**
 * Gardener's RelevantConditionsChanged for the checked installation conditions: every event but an update passes; an
 * update only when one of them appeared, disappeared or changed its status, reason or message.
 */
export const relevantConditionsChanged: Predicate<ControllerInstallation> = (e) => {
  if (e.type !== 'update') return true;
  const find = (i: ControllerInstallation, type: string) =>
    i.status?.conditions?.find((c) => c.type === type) as Condition | undefined;
  return InstallationConditionTypes.some((type) => !sameCondition(find(e.oldObject, type), find(e.object, type)));
};

export interface SeedExtensionsCheckDeps {
  cluster: string;
  concurrentSyncs: number;
  syncPeriodMs: number;
  thresholds: ConditionThresholds;
}

/** Adds the controller to `mgr` on its garden cluster. */
export function addSeedExtensionsCheckController(mgr: Manager, deps: SeedExtensionsCheckDeps): Controller {
  const garden = mgr.cluster(deps.cluster);
  return controllerFor(mgr, ControllerName)
    .inCluster(deps.cluster)
    .watches(ControllerInstallationKind, mapControllerInstallationToSeed, { predicates: [relevantConditionsChanged] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(
      new SeedExtensionsCheckReconciler({
        client: garden.client,
        syncPeriodMs: deps.syncPeriodMs,
        thresholds: deps.thresholds,
      }),
    );
}
