// The decisions of Gardener's shoot conditions controller (pkg/controllermanager/controller/shoot/conditions) as pure
// functions: a Shoot registered as a Seed through a ManagedSeed carries that Seed's conditions next to its own.
import { ShootConditionType, type Shoot } from '@gardener-ts/api';
import { mergeConditions, retainConditions, type Condition } from '@gardener-ts/controller-runtime';
import type { ManagedSeed } from '../../kinds.js';

/**
 * Every condition type a Shoot's own health check writes (Gardener's `GetShootConditionTypes(false)`, the contract of
 * docs/extensions/shoot-health-status-conditions.md); any other condition on a Shoot is a Seed's.
 */
export const ShootConditionTypes: readonly string[] = [
  ShootConditionType.APIServerAvailable,
  ShootConditionType.ControlPlaneHealthy,
  ShootConditionType.ObservabilityComponentsHealthy,
  ShootConditionType.EveryNodeReady,
  ShootConditionType.SystemComponentsHealthy,
];

/**
 * The Shoot's conditions with those of its Seed: the Shoot's own kept in place, every other (a Seed's, possibly
 * stale) dropped, then the Seed's current ones merged in by type. Without a Seed only the Shoot's own remain.
 */
export function shootConditionsWithSeed(
  shootConditions: readonly Condition[] | undefined,
  seedConditions: readonly Condition[] | undefined,
): Condition[] {
  const own = retainConditions(shootConditions, ...ShootConditionTypes);
  return seedConditions ? mergeConditions(own, ...seedConditions) : own;
}

/**
 * The ManagedSeed among `managedSeeds` that registers the Shoot `namespace/name` (Gardener's
 * `GetManagedSeedWithReader`: same namespace, `spec.shoot.name`), undefined without one; more than one is an error.
 */
export function managedSeedOfShoot(
  managedSeeds: readonly ManagedSeed[],
  namespace: string,
  name: string,
): ManagedSeed | undefined {
  const found = managedSeeds.filter((m) => m.metadata?.namespace === namespace && m.spec?.shoot?.name === name);
  if (found.length > 1) throw new Error(`found more than one ManagedSeed objects for shoot ${namespace}/${name}`);
  return found[0];
}

/** The Shoot's status conditions, typed. */
export const conditionsOf = (shoot: Shoot): Condition[] | undefined =>
  shoot.status?.conditions as Condition[] | undefined;
