// Every controller of the controller-manager in one registry table (Gardener's pkg/controllermanager/controller/add.go),
// each gated by its block of the ControllerManagerConfiguration: a controller with `concurrentSyncs: 0` is not started.
import { parseDuration, type ControllerManagerConfiguration } from '@gardener-ts/component-config';
import type { Manager } from '@gardener-ts/controller-runtime';
import { GardenNamespace } from '@gardener-ts/api';
import { addBastionController } from './bastion/add.js';
import { addBindingController } from './binding/add.js';
import { addCertificateSigningRequestController } from './certificatesigningrequest/add.js';
import { addControllerRegistrationControllers } from './controllerregistration/add.js';
import { addEventController } from './event/add.js';
import { addExtensionClusterRoleController } from './extensionclusterrole/add.js';
import { addManagedSeedSetController } from './managedseedset/add.js';
import { addNamespacedCloudProfileController } from './namespacedcloudprofile/add.js';
import { addProjectControllers } from './project/add.js';
import { addProjectActivityController } from './project/activity/add.js';
import { addProjectStaleController } from './project/stale/add.js';
import { addProtectionController, type ProtectionName } from './protection/add.js';
import { addSeedBackupBucketsCheckController } from './seed/backupbucketscheck/add.js';
import { addSeedExtensionsCheckController } from './seed/extensionscheck/add.js';
import { addSeedSecretsController } from './seed/secrets/add.js';
import { conditionThresholdsMs } from './seed/utils.js';
import { addSeedReferenceController } from './seedreference/add.js';
import { addSeedLifecycleController } from './seedlifecycle/add.js';
import { addShootConditionsController } from './shootconditions/add.js';
import { addShootHibernationController } from './shoothibernation/add.js';
import { addShootMaintenanceController } from './shootmaintenance/add.js';
import { addShootMigrationController } from './shootmigration/add.js';
import { addShootQuotaController } from './shootquota/add.js';
import { addShootReferenceController } from './shootreference/add.js';
import { addShootRetryController } from './shootretry/add.js';
import { addShootStatusLabelController } from './shootstatuslabel/add.js';
import { addShootStateFinalizerController } from './shootstatefinalizer/add.js';

type Controllers = ControllerManagerConfiguration['controllers'];

/** What every add function gets. */
export interface AddDeps {
  /** The name of the garden cluster in the manager. */
  cluster: string;
  controllers: Controllers;
}

/** One row of the registry: a controller (or a group of them) and whether the configuration enables it. */
export interface ControllerEntry {
  name: string;
  enabled: (controllers: Controllers) => boolean;
  add: (mgr: Manager, deps: AddDeps) => void;
}

const ms = (value: string | undefined, fallback: string): number =>
  parseDuration(value ?? fallback) ?? parseDuration(fallback)!;

/** A protection controller (finalizer while in use) gated by its own block. */
const protection = (name: ProtectionName): ControllerEntry => ({
  name: name.toLowerCase(),
  enabled: (c) => c[name].concurrentSyncs > 0,
  add: (mgr, { cluster, controllers }) =>
    addProtectionController(mgr, name, { cluster, concurrentSyncs: controllers[name].concurrentSyncs }),
});

/** The workers of the ShootState finalizer controller: `controllers.shootState.concurrentSyncs` (Gardener's default 5). */
export const shootStateConcurrentSyncs = (c: Controllers): number => c.shootState.concurrentSyncs;

/** The controllers implemented so far, in Gardener's order. */
export const controllerRegistry: readonly ControllerEntry[] = [
  {
    name: 'bastion',
    enabled: (c) => c.bastion.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addBastionController(mgr, {
        cluster,
        concurrentSyncs: controllers.bastion.concurrentSyncs,
        maxLifetimeMs: ms(controllers.bastion.maxLifetime, '24h'),
      }),
  },
  {
    name: 'certificatesigningrequest',
    enabled: (c) => c.certificateSigningRequest.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addCertificateSigningRequestController(mgr, {
        cluster,
        concurrentSyncs: controllers.certificateSigningRequest.concurrentSyncs,
      }),
  },
  protection('cloudProfile'),
  protection('namespacedCloudProfile'),
  {
    name: 'namespacedcloudprofile-status',
    enabled: (c) => c.namespacedCloudProfile.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addNamespacedCloudProfileController(mgr, {
        cluster,
        concurrentSyncs: controllers.namespacedCloudProfile.concurrentSyncs,
      }),
  },
  protection('controllerDeployment'),
  {
    name: 'controllerregistration',
    enabled: (c) => c.controllerRegistration.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addControllerRegistrationControllers(mgr, {
        cluster,
        concurrentSyncs: controllers.controllerRegistration.concurrentSyncs,
        gardenNamespace: GardenNamespace,
      }),
  },
  {
    // Added with the ControllerRegistration controllers in Gardener (5 workers, no configuration block).
    name: 'controllerregistration-extension-clusterrole',
    enabled: () => true,
    add: (mgr, { cluster }) => addExtensionClusterRoleController(mgr, { cluster }),
  },
  protection('exposureClass'),
  {
    name: 'credentialsbinding',
    enabled: (c) => c.credentialsBinding.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addBindingController(mgr, 'CredentialsBinding', {
        cluster,
        concurrentSyncs: controllers.credentialsBinding.concurrentSyncs,
      }),
  },
  {
    // Only when configured, as in Gardener.
    name: 'event',
    enabled: (c) => (c.event?.concurrentSyncs ?? 0) > 0,
    add: (mgr, { cluster, controllers }) =>
      addEventController(mgr, {
        cluster,
        concurrentSyncs: controllers.event!.concurrentSyncs,
        ttlMs: ms(controllers.event!.ttlNonShootEvents, '1h'),
      }),
  },
  {
    name: 'managedseedset',
    enabled: (c) => c.managedSeedSet.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addManagedSeedSetController(mgr, {
        cluster,
        concurrentSyncs: controllers.managedSeedSet.concurrentSyncs,
        syncPeriodMs: ms(controllers.managedSeedSet.syncPeriod, '30m'),
        maxShootRetries: controllers.managedSeedSet.maxShootRetries,
      }),
  },
  {
    name: 'project',
    enabled: (c) => c.project.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addProjectControllers(mgr, {
        cluster,
        concurrentSyncs: controllers.project.concurrentSyncs,
        quotas: controllers.project.quotas,
      }),
  },
  {
    name: 'project-activity',
    enabled: (c) => c.project.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addProjectActivityController(mgr, { cluster, concurrentSyncs: controllers.project.concurrentSyncs }),
  },
  {
    name: 'project-stale',
    enabled: (c) => c.project.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addProjectStaleController(mgr, {
        cluster,
        concurrentSyncs: controllers.project.concurrentSyncs,
        syncPeriodMs: ms(controllers.project.staleSyncPeriod, '12h'),
        minimumLifetimeDays: controllers.project.minimumLifetimeDays,
        staleGracePeriodDays: controllers.project.staleGracePeriodDays,
        staleExpirationTimeDays: controllers.project.staleExpirationTimeDays,
      }),
  },
  protection('quota'),
  {
    name: 'secretbinding',
    enabled: (c) => c.secretBinding.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addBindingController(mgr, 'SecretBinding', {
        cluster,
        concurrentSyncs: controllers.secretBinding.concurrentSyncs,
      }),
  },
  {
    name: 'seed-lifecycle',
    enabled: (c) => c.seed.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) => {
      const monitorPeriodMs = ms(controllers.seed.monitorPeriod, '40s');
      addSeedLifecycleController(mgr, {
        cluster,
        concurrentSyncs: controllers.seed.concurrentSyncs,
        syncPeriodMs: ms(controllers.seed.syncPeriod, '10s'),
        monitorPeriodMs,
        // Gardener defaults shootMonitorPeriod to five times monitorPeriod.
        shootMonitorPeriodMs: controllers.seed.shootMonitorPeriod
          ? ms(controllers.seed.shootMonitorPeriod, '200s')
          : 5 * monitorPeriodMs,
      });
    },
  },
  {
    name: 'seed-backupbuckets-check',
    enabled: (c) => c.seedBackupBucketsCheck.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addSeedBackupBucketsCheckController(mgr, {
        cluster,
        concurrentSyncs: controllers.seedBackupBucketsCheck.concurrentSyncs,
        syncPeriodMs: ms(controllers.seedBackupBucketsCheck.syncPeriod, '30s'),
        thresholds: conditionThresholdsMs(controllers.seedBackupBucketsCheck.conditionThresholds),
      }),
  },
  {
    name: 'seed-extensions-check',
    enabled: (c) => c.seedExtensionsCheck.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addSeedExtensionsCheckController(mgr, {
        cluster,
        concurrentSyncs: controllers.seedExtensionsCheck.concurrentSyncs,
        syncPeriodMs: ms(controllers.seedExtensionsCheck.syncPeriod, '30s'),
        thresholds: conditionThresholdsMs(controllers.seedExtensionsCheck.conditionThresholds),
      }),
  },
  {
    name: 'seed-reference',
    enabled: (c) => c.seedReference.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addSeedReferenceController(mgr, {
        cluster,
        concurrentSyncs: controllers.seedReference.concurrentSyncs,
        gardenNamespace: GardenNamespace,
      }),
  },
  {
    // Gardener adds it with every controller-manager (5 workers, no configuration block).
    name: 'seed-secrets',
    enabled: () => true,
    add: (mgr, { cluster }) => addSeedSecretsController(mgr, { cluster, gardenNamespace: GardenNamespace }),
  },
  {
    name: 'shoot-conditions',
    enabled: (c) => c.shootConditions.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addShootConditionsController(mgr, { cluster, concurrentSyncs: controllers.shootConditions.concurrentSyncs }),
  },
  {
    name: 'shoot-hibernation',
    enabled: (c) => c.shootHibernation.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addShootHibernationController(mgr, {
        cluster,
        concurrentSyncs: controllers.shootHibernation.concurrentSyncs,
        triggerDeadlineMs: ms(controllers.shootHibernation.triggerDeadlineDuration, '2h'),
      }),
  },
  {
    name: 'shoot-maintenance',
    enabled: (c) => c.shootMaintenance.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addShootMaintenanceController(mgr, {
        cluster,
        concurrentSyncs: controllers.shootMaintenance.concurrentSyncs,
        enableShootControlPlaneRestarter: controllers.shootMaintenance.enableShootControlPlaneRestarter,
        enableShootCoreAddonRestarter: controllers.shootMaintenance.enableShootCoreAddonRestarter,
      }),
  },
  {
    name: 'shoot-migration',
    enabled: (c) => c.shootMigration.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addShootMigrationController(mgr, { cluster, concurrentSyncs: controllers.shootMigration.concurrentSyncs }),
  },
  {
    name: 'shoot-quota',
    enabled: (c) => c.shootQuota.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addShootQuotaController(mgr, {
        cluster,
        concurrentSyncs: controllers.shootQuota.concurrentSyncs,
        syncPeriodMs: ms(controllers.shootQuota.syncPeriod, '60m'),
      }),
  },
  {
    name: 'shoot-reference',
    enabled: (c) => c.shootReference.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addShootReferenceController(mgr, { cluster, concurrentSyncs: controllers.shootReference.concurrentSyncs }),
  },
  {
    name: 'shoot-retry',
    enabled: (c) => c.shootRetry.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addShootRetryController(mgr, {
        cluster,
        concurrentSyncs: controllers.shootRetry.concurrentSyncs,
        retryPeriodMs: ms(controllers.shootRetry.retryPeriod, '10m'),
        retryJitterPeriodMs: ms(controllers.shootRetry.retryJitterPeriod, '5m'),
      }),
  },
  {
    name: 'shootstate-finalizer',
    enabled: (c) => shootStateConcurrentSyncs(c) > 0,
    add: (mgr, { cluster, controllers }) =>
      addShootStateFinalizerController(mgr, { cluster, concurrentSyncs: shootStateConcurrentSyncs(controllers) }),
  },
  {
    name: 'shoot-status-label',
    enabled: (c) => c.shootStatusLabel.concurrentSyncs > 0,
    add: (mgr, { cluster, controllers }) =>
      addShootStatusLabelController(mgr, { cluster, concurrentSyncs: controllers.shootStatusLabel.concurrentSyncs }),
  },
];

/** Adds every enabled controller of the registry to `mgr`; returns the names added. */
export function addControllers(
  mgr: Manager,
  deps: AddDeps,
  registry: readonly ControllerEntry[] = controllerRegistry,
): string[] {
  const added: string[] = [];
  for (const entry of registry) {
    if (!entry.enabled(deps.controllers)) continue;
    entry.add(mgr, deps);
    added.push(entry.name);
  }
  return added;
}
