// Registers the ControllerRegistration controllers (Gardener's pkg/controllermanager/controller/controllerregistration):
// the seed and self-hosted shoot reconcilers that create and delete ControllerInstallations (`shoot/add.ts`), and the
// finalizers on Seeds, Shoots and registrations.
import { isDeepStrictEqual } from 'node:util';
import {
  Labels,
  type BackupBucket,
  type BackupEntry,
  type ControllerInstallation,
  type Seed,
  type Shoot,
} from '@gardener-ts/api';
import {
  controllerFor,
  Kinds,
  type Controller,
  type Manager,
  type Predicate,
  type Request,
  type Secret,
} from '@gardener-ts/controller-runtime';
import {
  BackupBucketKind,
  BackupEntryKind,
  ControllerInstallationKind,
  ControllerRegistrationKind,
  SeedKind,
  ShootKind,
} from '../../kinds.js';
import { InstallationFinalizerReconciler, referencesRegistration, referencesSeed } from './finalizer/reconciler.js';
import {
  ControllerRegistrationSeedReconciler,
  RoleDefaultDomain,
  RoleInternalDomain,
  seedOfNamespace,
} from './seed/reconciler.js';
import { addControllerInstallationShootControllers } from './shoot/add.js';

/** Names in logs and metrics (Gardener's). */
export const SeedControllerName = 'controllerregistration-seed';
export const SeedFinalizerControllerName = 'controllerregistration-seed-finalizer';
export const RegistrationFinalizerControllerName = 'controllerregistration-finalizer';

const named = (...names: (string | undefined)[]): Request[] =>
  [...new Set(names.filter((n): n is string => !!n))].map((name) => ({ namespace: '', name }));

/** A Shoot's seeds: the one it is scheduled to and the one it still runs on. */
export const mapShootToSeeds = (shoot: Shoot): Request[] => named(shoot.spec.seedName, shoot.status?.seedName);
/** A BackupBucket's seed. */
export const mapBackupBucketToSeed = (bucket: BackupBucket): Request[] => named(bucket.spec.seedName);
/** A BackupEntry's seed. */
export const mapBackupEntryToSeed = (entry: BackupEntry): Request[] => named(entry.spec.seedName);
/** An installation's seed. */
export const mapInstallationToSeed = (installation: ControllerInstallation): Request[] =>
  named(installation.spec.seedRef?.name);
/** An installation's registration. */
export const mapInstallationToRegistration = (installation: ControllerInstallation): Request[] =>
  named(installation.spec.registrationRef.name);

/** Seed events that change what the seed needs: creation, spec, labels, deletion. */
export const seedNeedsChanged: Predicate<Seed> = (e) => {
  if (e.type !== 'update') return true;
  const [a, b] = [e.oldObject, e.object];
  return (
    a.metadata?.generation !== b.metadata?.generation ||
    JSON.stringify(a.metadata?.labels ?? {}) !== JSON.stringify(b.metadata?.labels ?? {}) ||
    !!a.metadata?.deletionTimestamp !== !!b.metadata?.deletionTimestamp
  );
};

/** Shoot events that change what its seed needs: anything but status-only noise. */
export const shootNeedsChanged: Predicate<Shoot> = (e) => {
  if (e.type !== 'update') return true;
  const [a, b] = [e.oldObject, e.object];
  return (
    a.metadata?.generation !== b.metadata?.generation ||
    a.status?.seedName !== b.status?.seedName ||
    !!a.metadata?.deletionTimestamp !== !!b.metadata?.deletionTimestamp
  );
};

/**
 * Domain Secrets (`gardener.cloud/role` internal-domain or default-domain) in a seed's namespace `seed-<name>`: the
 * copies the seed reconciler reads. Not a trigger in Gardener (it waits for the back-off); here a copy arriving or
 * changing its labels or annotations wakes its seed at once.
 */
export const isSeedDomainSecret: Predicate<Secret> = (e) => {
  const domainRole = (s: Secret) => {
    const role = s.metadata?.labels?.[Labels.GardenRole];
    return role === RoleInternalDomain || role === RoleDefaultDomain;
  };
  if (seedOfNamespace(e.object.metadata?.namespace) === undefined) return false;
  if (e.type !== 'update') return domainRole(e.object);
  const [a, b] = [e.oldObject, e.object];
  return (
    (domainRole(a) || domainRole(b)) &&
    (!isDeepStrictEqual(a.metadata?.labels ?? {}, b.metadata?.labels ?? {}) ||
      !isDeepStrictEqual(a.metadata?.annotations ?? {}, b.metadata?.annotations ?? {}))
  );
};

/** A Secret in `seed-<name>` enqueues that seed. */
export const mapSeedNamespaceToSeed = (secret: Secret): Request[] => named(seedOfNamespace(secret.metadata?.namespace));

/** Adds the controllers to `mgr` on its garden cluster. */
export function addControllerRegistrationControllers(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number; gardenNamespace: string },
): Controller[] {
  const garden = mgr.cluster(deps.cluster);
  const seeds = garden.cache.informerFor(SeedKind);
  const allSeeds = (): Request[] => seeds.store.list().map((s) => ({ namespace: '', name: s.metadata!.name! }));

  const seedController = controllerFor(mgr, SeedControllerName)
    .inCluster(deps.cluster)
    .for(SeedKind, { predicates: [seedNeedsChanged] })
    .watches(ControllerRegistrationKind, allSeeds)
    .watches(ControllerInstallationKind, mapInstallationToSeed)
    .watches(ShootKind, mapShootToSeeds, { predicates: [shootNeedsChanged] })
    .watches(BackupBucketKind, mapBackupBucketToSeed)
    .watches(BackupEntryKind, mapBackupEntryToSeed)
    .watches(Kinds.Secret, mapSeedNamespaceToSeed, { predicates: [isSeedDomainSecret] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(
      new ControllerRegistrationSeedReconciler({
        client: garden.client,
        api: garden.api,
        gardenNamespace: deps.gardenNamespace,
      }),
    );

  const seedFinalizer = controllerFor(mgr, SeedFinalizerControllerName)
    .inCluster(deps.cluster)
    .for(SeedKind)
    .watches(ControllerInstallationKind, mapInstallationToSeed, { predicates: [(e) => e.type === 'delete'] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new InstallationFinalizerReconciler(garden.client, SeedKind, referencesSeed));

  const registrationFinalizer = controllerFor(mgr, RegistrationFinalizerControllerName)
    .inCluster(deps.cluster)
    .for(ControllerRegistrationKind)
    .watches(ControllerInstallationKind, mapInstallationToRegistration, { predicates: [(e) => e.type === 'delete'] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new InstallationFinalizerReconciler(garden.client, ControllerRegistrationKind, referencesRegistration));

  return [
    seedController,
    seedFinalizer,
    registrationFinalizer,
    ...addControllerInstallationShootControllers(mgr, { cluster: deps.cluster, concurrentSyncs: deps.concurrentSyncs }),
  ];
}
