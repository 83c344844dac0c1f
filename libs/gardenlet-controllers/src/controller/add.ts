// The gardenlet's controllers, registered from one table and gated by the component configuration (as Gardener's
// pkg/gardenlet/controller/add.go). Controllers of seeds 000/001 that are not implemented yet are listed in
// docs/apps/gardenlet.md.
import { parseDuration, type GardenletConfiguration } from '@gardener-ts/component-config';
import type { ConditionThresholds, Controller, KubernetesObject, Manager } from '@gardener-ts/controller-runtime';
import { addBackupEntryController } from './backupentry/add.js';
import { addBackupBucketController } from './backupbucket/add.js';
import { addBastionController } from './bastion/add.js';
import { addControllerInstallationController } from './controllerinstallation/add.js';
import type { GenericGardenCluster } from './controllerinstallation/garden-access.js';
import { addControllerInstallationCareController } from './controllerinstallationcare/add.js';
import { addControllerInstallationRequiredController } from './controllerinstallationrequired/add.js';
import { addEtcdController } from './etcd/add.js';
import { addEtcdCopyBackupsTaskController } from './etcdcopybackupstask/add.js';
import type { SeedSystem } from './seed/flow.js';
import type { HealthManager } from './lease/health.js';
import { addLeaseController } from './lease/add.js';
import { addManagedSeedController } from './managedseed/add.js';
import { addNetworkPolicyController } from './networkpolicy/add.js';
import { apiServerHostOf, kubeconfigServer } from './networkpolicy/hostname-resolver.js';
import { runtimeNetworksOf, type SeedNetworksLike } from './networkpolicy/policies.js';
import { addSeedController } from './seed/add.js';
import { addSeedCareController } from './seedcare/add.js';
import { addTokenRequestorController } from './tokenrequestor/add.js';
import { addShootController } from './shoot/add.js';
import { KeyPool } from '@gardener-ts/secrets-manager';
import { ShootKeyStock } from '../shoot/seed-steps.js';
import { addShootCareController } from './shootcare/add.js';
import { addShootStateController } from './shootstate/add.js';
import type { ShootProgress } from './shoot/reconciler.js';
import { kubeconfigCluster, type GardenletChartRenderer } from '../charts/gardenlet-chart.js';

/** What the controllers need beyond the manager. */
export interface ControllerDeps {
  config: GardenletConfiguration;
  seedName: string;
  gardenCluster: string;
  seedCluster: string;
  seedHealthz: () => Promise<void>;
  health: HealthManager;
  seedSystem: SeedSystem;
  gardener: { id: string; name: string; version: string };
  /** The garden's cluster identity (`kube-system/cluster-identity`), when it has one. */
  gardenClusterIdentity?: string;
  /** The garden as extensions reach it (their generic garden kubeconfig); absent: no garden access is injected. */
  genericGardenCluster?: GenericGardenCluster;
  /** Publishes the shoot flows' progress (NATS); absent without NATS. */
  shootProgress?: (p: ShootProgress) => void;
  /** Renders a chart archive (ControllerDeployment `helm.rawChart`). */
  renderArchive: (
    archive: Buffer,
    release: string,
    namespace: string,
    values: Record<string, unknown>,
  ) => Promise<KubernetesObject[]>;
  /** Renders deploy/charts/gardenlet (the gardenlets the ManagedSeed controller deploys into shoots). */
  gardenletChart: GardenletChartRenderer;
}

const ms = (d: string | undefined, fallback: number) => (d === undefined ? fallback : (parseDuration(d) ?? fallback));

/** Thresholds of `conditionThresholds` (type → duration) in milliseconds. */
export function thresholdsOf(list: { type: string; duration: string }[] | undefined): ConditionThresholds {
  return Object.fromEntries((list ?? []).map((t) => [t.type, ms(t.duration, 0)]));
}

interface Entry {
  enabled: (c: GardenletConfiguration) => boolean;
  add: (mgr: Manager, deps: ControllerDeps) => Controller;
}

/** The gardenlet's controllers by name. */
export const CONTROLLERS: Record<string, Entry> = {
  'seed-lease': {
    enabled: () => true,
    add: (mgr, d) =>
      addLeaseController(mgr, {
        seedName: d.seedName,
        gardenCluster: d.gardenCluster,
        seedHealthz: d.seedHealthz,
        health: d.health,
        leaseResyncSeconds: d.config.controllers.seed.leaseResyncSeconds,
      }),
  },
  seed: {
    enabled: () => true,
    add: (mgr, d) =>
      addSeedController(mgr, {
        seedName: d.seedName,
        gardenCluster: d.gardenCluster,
        system: d.seedSystem,
        gardener: d.gardener,
        resources: d.config.resources,
        syncPeriodMs: ms(d.config.controllers.seed.syncPeriod, 3600_000),
      }),
  },
  'seed-care': {
    enabled: () => true,
    add: (mgr, d) =>
      addSeedCareController(mgr, {
        seedName: d.seedName,
        gardenCluster: d.gardenCluster,
        seedCluster: d.seedCluster,
        thresholds: thresholdsOf(d.config.controllers.seedCare.conditionThresholds),
        syncPeriodMs: ms(d.config.controllers.seedCare.syncPeriod, 30_000),
      }),
  },
  // The core BackupEntries of this seed become extension BackupEntries (grace period on deletion; no migration yet).
  backupentry: {
    enabled: (c) => c.controllers.backupEntry.concurrentSyncs > 0,
    add: (mgr, d) => {
      const backupEntry = d.config.controllers.backupEntry;
      return addBackupEntryController(mgr, {
        seedName: d.seedName,
        gardenCluster: d.gardenCluster,
        seedCluster: d.seedCluster,
        concurrentSyncs: backupEntry.concurrentSyncs,
        config: {
          deletionGracePeriodHours: backupEntry.deletionGracePeriodHours,
          ...(backupEntry.deletionGracePeriodShootPurposes
            ? { deletionGracePeriodShootPurposes: backupEntry.deletionGracePeriodShootPurposes }
            : {}),
        },
      });
    },
  },
  // Core BackupBuckets of this seed → extension BackupBuckets in the seed (pkg/gardenlet/controller/backupbucket).
  backupbucket: {
    enabled: (c) => c.controllers.backupBucket.concurrentSyncs > 0,
    add: (mgr, d) =>
      addBackupBucketController(mgr, {
        seedName: d.seedName,
        gardenCluster: d.gardenCluster,
        seedCluster: d.seedCluster,
        concurrentSyncs: d.config.controllers.backupBucket.concurrentSyncs,
      }),
  },
  // Core Bastions of this seed → extension Bastions in the shoots' control plane namespaces
  // (pkg/gardenlet/controller/bastion).
  bastion: {
    enabled: (c) => c.controllers.bastion.concurrentSyncs > 0,
    add: (mgr, d) =>
      addBastionController(mgr, {
        seedName: d.seedName,
        gardenCluster: d.gardenCluster,
        seedCluster: d.seedCluster,
        concurrentSyncs: d.config.controllers.bastion.concurrentSyncs,
      }),
  },
  controllerinstallation: {
    enabled: (c) => c.controllers.controllerInstallation.concurrentSyncs > 0,
    add: (mgr, d) =>
      addControllerInstallationController(mgr, {
        seedName: d.seedName,
        gardenCluster: d.gardenCluster,
        seedCluster: d.seedCluster,
        concurrentSyncs: d.config.controllers.controllerInstallation.concurrentSyncs,
        render: d.renderArchive,
        version: d.gardener.version,
        featureGates: d.config.featureGates,
        ...(d.genericGardenCluster ? { genericGardenCluster: d.genericGardenCluster } : {}),
        ...(d.gardenClusterIdentity ? { gardenClusterIdentity: d.gardenClusterIdentity } : {}),
      }),
  },
  'controllerinstallation-care': {
    enabled: (c) => c.controllers.controllerInstallationCare.concurrentSyncs > 0,
    add: (mgr, d) =>
      addControllerInstallationCareController(mgr, {
        seedName: d.seedName,
        gardenCluster: d.gardenCluster,
        seedCluster: d.seedCluster,
        concurrentSyncs: d.config.controllers.controllerInstallationCare.concurrentSyncs,
        syncPeriodMs: ms(d.config.controllers.controllerInstallationCare.syncPeriod, 30_000),
      }),
  },
  'controllerinstallation-required': {
    enabled: (c) => c.controllers.controllerInstallationRequired.concurrentSyncs > 0,
    add: (mgr, d) =>
      addControllerInstallationRequiredController(mgr, {
        seedName: d.seedName,
        gardenCluster: d.gardenCluster,
        seedCluster: d.seedCluster,
        concurrentSyncs: d.config.controllers.controllerInstallationRequired.concurrentSyncs,
      }),
  },
  shoot: {
    enabled: (c) => c.controllers.shoot.concurrentSyncs > 0,
    add: (mgr, d) => {
      const shoot = d.config.controllers.shoot;
      return addShootController(mgr, {
        seedName: d.seedName,
        gardenCluster: d.gardenCluster,
        seedCluster: d.seedCluster,
        concurrentSyncs: shoot.concurrentSyncs,
        sync: {
          syncPeriod: ms(shoot.syncPeriod, 3600_000),
          respectSyncPeriodOverwrite: shoot.respectSyncPeriodOverwrite,
          reconcileInMaintenanceOnly: shoot.reconcileInMaintenanceOnly,
          waitSyncPeriod: 15_000,
        },
        gardener: d.gardener,
        retryDurationMs: ms(shoot.retryDuration, 12 * 3600_000),
        ...(d.shootProgress ? { progress: d.shootProgress } : {}),
        botanist: {
          ...(d.gardenClusterIdentity ? { gardenClusterIdentity: d.gardenClusterIdentity } : {}),
          generateKey: shootKeyPool(mgr).take,
        },
      });
    },
  },
  'shoot-care': {
    enabled: (c) => c.controllers.shootCare.concurrentSyncs > 0,
    add: (mgr, d) => {
      const care = d.config.controllers.shootCare;
      const stale = care.staleExtensionHealthChecks;
      return addShootCareController(mgr, {
        seedName: d.seedName,
        gardenCluster: d.gardenCluster,
        seedCluster: d.seedCluster,
        concurrentSyncs: care.concurrentSyncs,
        syncPeriodMs: ms(care.syncPeriod, 60_000),
        thresholds: thresholdsOf(care.conditionThresholds),
        ...(stale.enabled ? { staleExtensionHealthCheckThresholdMs: ms(stale.threshold, 300_000) } : {}),
        ...(care.managedResourceProgressingThreshold
          ? { managedResourceProgressingThresholdMs: ms(care.managedResourceProgressingThreshold, 0) }
          : {}),
      });
    },
  },
  // The periodic ShootState backup (pkg/gardenlet/controller/shoot/state). Gardener starts it only for a seed no
  // ManagedSeed backs: the reconciler asks the garden once and stays idle on a managed seed.
  'shoot-state': {
    enabled: (c) => c.controllers.shootState.concurrentSyncs > 0,
    add: (mgr, d) =>
      addShootStateController(mgr, {
        seedName: d.seedName,
        gardenCluster: d.gardenCluster,
        seedCluster: d.seedCluster,
        concurrentSyncs: d.config.controllers.shootState.concurrentSyncs,
        syncPeriodMs: ms(d.config.controllers.shootState.syncPeriod, 6 * 3600_000),
      }),
  },
  // ManagedSeeds whose shoots this seed hosts: the gardenlet deployed into the shoot, registering it as a Seed
  // (pkg/gardenlet/controller/managedseed; controllers.managedSeed, 0 workers disable it).
  managedseed: {
    enabled: (c) => c.controllers.managedSeed.concurrentSyncs > 0,
    add: (mgr, d) => {
      const managedSeed = d.config.controllers.managedSeed;
      return addManagedSeedController(mgr, {
        seedName: d.seedName,
        gardenCluster: d.gardenCluster,
        seedCluster: d.seedCluster,
        concurrentSyncs: managedSeed.concurrentSyncs,
        syncPeriodMs: ms(managedSeed.syncPeriod, 3600_000),
        waitSyncPeriodMs: ms(managedSeed.waitSyncPeriod, 15_000),
        jitter: {
          syncJitterPeriodMs: ms(managedSeed.syncJitterPeriod, 300_000),
          jitterUpdates: managedSeed.jitterUpdates,
        },
        parentConfig: d.config as unknown as Record<string, unknown>,
        chart: d.gardenletChart,
        ...(d.genericGardenCluster ? { garden: kubeconfigCluster(d.genericGardenCluster) } : {}),
      });
    },
  },
  // etcd-druid's job in the seed: Etcd resources become etcd StatefulSets (controller/etcd); druid's defaults.
  etcd: {
    enabled: () => true,
    add: (mgr, d) => addEtcdController(mgr, { seedCluster: d.seedCluster }),
  },
  // druid's EtcdCopyBackupsTasks (a control plane migration's copy of etcd's backups into the new seed's bucket): a
  // Job running `etcdbrctl copy` per task.
  etcdcopybackupstask: {
    enabled: () => true,
    add: (mgr, d) => addEtcdCopyBackupsTaskController(mgr, { seedCluster: d.seedCluster }),
  },
  // Gardener's general NetworkPolicies in the seed's namespaces, from seedConfig.spec.networks and
  // controllers.networkPolicy (0 workers disable it; Gardener always runs it).
  networkpolicy: {
    enabled: (c) => c.controllers.networkPolicy.concurrentSyncs > 0,
    add: (mgr, d) =>
      addNetworkPolicyController(mgr, {
        seedCluster: d.seedCluster,
        concurrentSyncs: d.config.controllers.networkPolicy.concurrentSyncs,
        networks: runtimeNetworksOf(d.config.seedConfig?.spec['networks'] as SeedNetworksLike | undefined),
        additionalNamespaceSelectors: d.config.controllers.networkPolicy.additionalNamespaceSelectors ?? [],
        apiServerHost: apiServerHostOf(kubeconfigServer(d.config.seedClientConnection.kubeconfig)),
      }),
  },
  // controllers.tokenRequestor is not read from the configuration yet: Gardener's default of 5 workers.
  'token-requestor': {
    enabled: () => true,
    add: (mgr, d) =>
      addTokenRequestorController(mgr, {
        seedName: d.seedName,
        gardenCluster: d.gardenCluster,
        seedCluster: d.seedCluster,
        concurrentSyncs: 5,
      }),
  },
};

/** Adds every enabled controller; returns their names. */
export function addControllers(mgr: Manager, deps: ControllerDeps): string[] {
  const added: string[] = [];
  for (const [name, entry] of Object.entries(CONTROLLERS)) {
    if (!entry.enabled(deps.config)) continue;
    entry.add(mgr, deps);
    added.push(name);
  }
  return added;
}

/**
 * The gardenlet's pool of a shoot's keys, filled once it has been quiet for 10 s: the key generation of a shoot's
 * "Initializing secrets management" (about 1.3 s of CPU) happens before the shoot is created, not in its flow. Only
 * the leader fills it (a standby replica reconciles no shoot).
 */
function shootKeyPool(mgr: Manager): KeyPool {
  const pool = new KeyPool({
    stock: ShootKeyStock,
    onError: (err) => mgr.log.error({ err }, 'generating a key for the shoot key pool failed'),
  });
  mgr.add({ needLeaderElection: true, start: () => pool.start(), stop: async () => pool.stop() });
  return pool;
}
