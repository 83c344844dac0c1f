// Registers the ControllerInstallation controllers for self-hosted Shoots (Gardener's controllerinstallation/shoot and
// the cluster finalizer for Shoots): the installation reconciler on self-hosted Shoots whose needs changed, on
// ControllerRegistrations and ControllerDeployments (all self-hosted shoots), on BackupBuckets, BackupEntries and
// ControllerInstallations referencing a shoot (`spec.shootRef`) and on resource-reference Secrets of the garden
// namespace a ControllerDeployment names; and the finalizer reconciler on every Shoot, woken by deleted installations.
import { isDeepStrictEqual } from 'node:util';
import {
  GardenNamespace,
  Labels,
  type BackupBucket,
  type BackupEntry,
  type ControllerDeployment,
  type ControllerInstallation,
  type ControllerRegistration,
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
  ControllerDeploymentKind,
  ControllerInstallationKind,
  ControllerRegistrationKind,
  ShootKind,
} from '../../../kinds.js';
import { isInstallationRequired } from '../seed/required.js';
import { ShootInstallationFinalizerReconciler } from './finalizer.js';
import { ControllerInstallationShootReconciler } from './reconciler.js';
import { isSelfHosted, shootRefOf } from './required.js';

/** Names in logs and metrics (Gardener's). */
export const ShootControllerName = 'controllerinstallation-shoot';
export const ShootFinalizerControllerName = 'controllerregistration-cluster-finalizer-shoot';
/** The role of Secrets and ConfigMaps in the garden namespace that ControllerDeployments reference. */
export const RoleResourceReference = 'resource-reference';

/** The shoot named by an object's `spec.shootRef`. */
export const mapToReferencedShoot = (o: { spec?: unknown }): Request[] => {
  const ref = shootRefOf(o);
  return ref?.name ? [{ namespace: ref.namespace ?? '', name: ref.name }] : [];
};

const networkingType = (s: Shoot) => s.spec.networking?.type;

/**
 * Gardener's ShootPredicate for the shoot kind: self-hosted shoots on creation and deletion; on update only self-hosted
 * ones whose worker pools, extensions, DNS, networking type or provider type changed, or that are being deleted.
 */
export const selfHostedShootNeedsChanged: Predicate<Shoot> = (e) => {
  if (e.type !== 'update') return isSelfHosted(e.object);
  const [a, b] = [e.oldObject, e.object];
  if (!isSelfHosted(b)) return false;
  return (
    !isDeepStrictEqual(a.spec.provider.workers, b.spec.provider.workers) ||
    !isDeepStrictEqual(a.spec.extensions, b.spec.extensions) ||
    !isDeepStrictEqual(a.spec.dns, b.spec.dns) ||
    networkingType(a) !== networkingType(b) ||
    a.spec.provider.type !== b.spec.provider.type ||
    !!b.metadata?.deletionTimestamp
  );
};

/** Gardener's BackupBucketPredicate for the shoot kind: buckets without a seed; updates of seed name or provider type. */
export const shootBackupBucketChanged: Predicate<BackupBucket> = (e) => {
  if (e.type !== 'update') return e.object.spec.seedName === undefined;
  if (e.object.spec.seedName !== undefined) return false;
  return (
    e.oldObject.spec.seedName !== e.object.spec.seedName ||
    e.oldObject.spec.provider.type !== e.object.spec.provider.type
  );
};

/** Gardener's BackupEntryPredicate for the shoot kind: entries without a seed; updates of seed or bucket name. */
export const shootBackupEntryChanged: Predicate<BackupEntry> = (e) => {
  if (e.type !== 'update') return e.object.spec.seedName === undefined;
  if (e.object.spec.seedName !== undefined) return false;
  return (
    e.oldObject.spec.seedName !== e.object.spec.seedName || e.oldObject.spec.bucketName !== e.object.spec.bucketName
  );
};

/** Gardener's ControllerInstallationPredicate for the shoot kind: creations for a shoot; `Required` flips. */
export const shootInstallationChanged: Predicate<ControllerInstallation> = (e) => {
  if (e.type === 'create') return e.object.spec.shootRef !== undefined;
  if (e.type !== 'update' || e.object.spec.seedRef !== undefined) return false;
  return isInstallationRequired(e.oldObject) !== isInstallationRequired(e.object);
};

/** Creations and updates only. */
const createOrUpdate = (e: { type: string }) => e.type === 'create' || e.type === 'update';

/** Resource-reference Secrets of the garden namespace (Gardener's ResourceReferenceObjectPredicate). */
export const isResourceReference: Predicate<Secret> = (e) =>
  e.object.metadata?.namespace === GardenNamespace &&
  e.object.metadata?.labels?.[Labels.GardenRole] === RoleResourceReference;

/** Whether a registration deploys through the ControllerDeployment. */
export const registrationUsesDeployment = (registrations: readonly ControllerRegistration[], deployment: string) =>
  registrations.some((r) => (r.spec.deployment?.deploymentRefs ?? []).some((ref) => ref.name === deployment));

/** The ControllerDeployments naming a resource of a kind and name in `resources[].resourceRef`. */
export const deploymentsReferencing = (
  deployments: readonly ControllerDeployment[],
  kind: string,
  name: string | undefined,
): ControllerDeployment[] =>
  deployments.filter((d) =>
    (d.resources ?? []).some((r) => r.resourceRef.kind === kind && r.resourceRef.name === name),
  );

/** Shoot Events that should wake the finalizer: creations, generation changes and the start of a deletion. */
export const shootFinalizerTrigger: Predicate<Shoot> = (e) => {
  if (e.type !== 'update') return e.type === 'create';
  return (
    e.oldObject.metadata?.generation !== e.object.metadata?.generation ||
    !!e.oldObject.metadata?.deletionTimestamp !== !!e.object.metadata?.deletionTimestamp
  );
};

/** Adds the shoot installation reconciler and the Shoot cluster finalizer to `mgr` on its garden cluster. */
export function addControllerInstallationShootControllers(
  mgr: Manager,
  deps: { cluster: string; concurrentSyncs: number },
): Controller[] {
  const garden = mgr.cluster(deps.cluster);
  const shoots = garden.cache.informerFor(ShootKind);
  const registrations = garden.cache.informerFor(ControllerRegistrationKind);
  const deployments = garden.cache.informerFor(ControllerDeploymentKind);
  const allSelfHostedShoots = (): Request[] =>
    shoots.store
      .list()
      .filter(isSelfHosted)
      .map((s) => ({ namespace: s.metadata!.namespace!, name: s.metadata!.name! }));
  const deploymentToShoots = (deployment: ControllerDeployment): Request[] =>
    registrationUsesDeployment(registrations.store.list(), deployment.metadata?.name ?? '')
      ? allSelfHostedShoots()
      : [];
  const secretToShoots = (secret: Secret): Request[] => {
    const referencing = deploymentsReferencing(deployments.store.list(), 'Secret', secret.metadata?.name);
    return referencing.some((d) => registrationUsesDeployment(registrations.store.list(), d.metadata?.name ?? ''))
      ? allSelfHostedShoots()
      : [];
  };

  const installations = controllerFor(mgr, ShootControllerName)
    .inCluster(deps.cluster)
    .for(ShootKind, { predicates: [selfHostedShootNeedsChanged] })
    .watches(ControllerRegistrationKind, allSelfHostedShoots, { predicates: [createOrUpdate] })
    .watches(BackupBucketKind, mapToReferencedShoot, { predicates: [shootBackupBucketChanged] })
    .watches(BackupEntryKind, mapToReferencedShoot, { predicates: [shootBackupEntryChanged] })
    .watches(ControllerInstallationKind, mapToReferencedShoot, { predicates: [shootInstallationChanged] })
    .watches(ControllerDeploymentKind, deploymentToShoots, { predicates: [createOrUpdate] })
    .watches(Kinds.Secret, secretToShoots, { predicates: [isResourceReference] })
    .withOptions({ maxConcurrentReconciles: deps.concurrentSyncs })
    .complete(new ControllerInstallationShootReconciler({ client: garden.client, api: garden.api }));

  // Gardener runs the cluster finalizer with 5 workers.
  const finalizer = controllerFor(mgr, ShootFinalizerControllerName)
    .inCluster(deps.cluster)
    .for(ShootKind, { predicates: [shootFinalizerTrigger] })
    .watches(ControllerInstallationKind, mapToReferencedShoot, { predicates: [(e) => e.type === 'delete'] })
    .withOptions({ maxConcurrentReconciles: 5 })
    .complete(new ShootInstallationFinalizerReconciler(garden.client));

  return [installations, finalizer];
}
